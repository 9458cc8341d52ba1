/* What every io kernel writes and reads (io_variant.h): the bytes, where they go in the file,
 * the file written beforehand for the reading forms, and the check afterwards (POSIX reads of
 * the file, never the MPI library's own word). */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io_variant.h"

/* Byte k of what `rank` writes in the independent and shared forms: differs between ranks. */
static unsigned char pattern_byte(int rank, size_t k) {
  return (unsigned char)((size_t)rank * 101u + k * 13u + 1u);
}

/* All of `bytes` at `offset`, through short writes and reads; 0 on success. */
static int pwrite_all(int fd, const unsigned char* from, size_t bytes, off_t offset) {
  while (bytes > 0) {
    ssize_t done = pwrite(fd, from, bytes, offset);
    if (done <= 0) return 1;
    from += done, bytes -= (size_t)done, offset += done;
  }
  return 0;
}

static int pread_all(int fd, unsigned char* into, size_t bytes, off_t offset) {
  while (bytes > 0) {
    ssize_t done = pread(fd, into, bytes, offset);
    if (done <= 0) return 1;
    into += done, bytes -= (size_t)done, offset += done;
  }
  return 0;
}

/* The collective form's block: rows split over dims[0], columns over dims[1], the first blocks
 * one row (column) larger where they do not divide. */
static void split(int total, int parts, int index, int* size, int* start) {
  int base = total / parts, extra = total % parts;
  *size = base + (index < extra);
  *start = index * base + (index < extra ? index : extra);
}

/* The global array of `elements` doubles: as square as a power of two allows. */
static void array_shape(size_t elements, int sizes[2]) {
  size_t columns = 1;
  while (columns * columns * 4 <= elements)
    columns *= 2;
  sizes[0] = (int)(elements / columns);
  sizes[1] = (int)columns;
}

static void make_block(wb_io_layout* layout, size_t total_bytes) {
  int dims[2] = {0, 0}, coords[2];
  MPI_Dims_create(layout->ranks, 2, dims);
  coords[0] = layout->rank / dims[1];
  coords[1] = layout->rank % dims[1];
  array_shape(total_bytes / sizeof(double), layout->sizes);
  for (int d = 0; d < 2; ++d)
    split(layout->sizes[d], dims[d], coords[d], &layout->subsizes[d], &layout->starts[d]);
  layout->bytes = (size_t)layout->subsizes[0] * (size_t)layout->subsizes[1] * sizeof(double);
}

/* Element (i, j) of the global array is i * columns + j: every block knows what it holds. */
static void fill_block(const wb_io_layout* layout, unsigned char* data) {
  size_t k = 0;
  for (int i = 0; i < layout->subsizes[0]; ++i)
    for (int j = 0; j < layout->subsizes[1]; ++j, ++k) {
      double value = (double)(layout->starts[0] + i) * layout->sizes[1] + layout->starts[1] + j;
      memcpy(data + k * sizeof value, &value, sizeof value);
    }
}

int wb_io_layout_make(wb_io_layout* layout, MPI_Comm comm, wb_io_form form, size_t bytes,
                      long records) {
  memset(layout, 0, sizeof *layout);
  layout->comm = comm;
  layout->form = form;
  layout->bytes = bytes;
  layout->records = records;
  MPI_Comm_rank(comm, &layout->rank);
  MPI_Comm_size(comm, &layout->ranks);
  if (form == WB_IO_COLLECTIVE) make_block(layout, bytes);
  layout->offset = (MPI_Offset)layout->rank * (MPI_Offset)layout->bytes;
  unsigned char* data = malloc(layout->bytes ? layout->bytes : 1);
  layout->into = calloc(layout->bytes ? layout->bytes : 1, 1);
  if (!data || !layout->into) return free(data), free(layout->into), layout->into = NULL, 1;
  if (form == WB_IO_COLLECTIVE)
    fill_block(layout, data);
  else
    for (size_t k = 0; k < layout->bytes; ++k)
      data[k] = pattern_byte(layout->rank, k);
  layout->data = data;
  return 0;
}

void wb_io_layout_free(wb_io_layout* layout) {
  free((void*)layout->data);
  free(layout->into);
  layout->data = layout->into = NULL;
}

/* The file offset of row i of this rank's block, and the bytes of a row. */
static off_t row_offset(const wb_io_layout* layout, int i) {
  return ((off_t)(layout->starts[0] + i) * layout->sizes[1] + layout->starts[1]) *
         (off_t)sizeof(double);
}

static size_t row_bytes(const wb_io_layout* layout) {
  return (size_t)layout->subsizes[1] * sizeof(double);
}

/* Applies `each` to every piece of this rank's part of the file, with the bytes that belong
 * there; returns the first non-zero result. */
static int for_each_piece(const wb_io_layout* layout, int fd, unsigned char* scratch,
                          int (*each)(int, const unsigned char*, unsigned char*, size_t, off_t)) {
  int failed = 0;
  if (layout->form == WB_IO_COLLECTIVE) {
    size_t row = row_bytes(layout);
    for (int i = 0; i < layout->subsizes[0] && !failed; ++i)
      failed = each(fd, layout->data + (size_t)i * row, scratch, row, row_offset(layout, i));
  } else if (layout->form == WB_IO_SHARED) {
    for (long r = 0; r < layout->records && !failed; ++r)
      failed = each(fd, layout->data, scratch, layout->bytes,
                    (off_t)(r * layout->ranks + layout->rank) * (off_t)layout->bytes);
  } else {
    failed = each(fd, layout->data, scratch, layout->bytes, (off_t)layout->offset);
  }
  return failed;
}

static int write_piece(int fd, const unsigned char* data, unsigned char* scratch, size_t bytes,
                       off_t offset) {
  (void)scratch;
  return pwrite_all(fd, data, bytes, offset);
}

static int compare_piece(int fd, const unsigned char* data, unsigned char* scratch, size_t bytes,
                         off_t offset) {
  return pread_all(fd, scratch, bytes, offset) || memcmp(scratch, data, bytes) != 0;
}

int wb_io_prewrite(const wb_io_layout* layout) {
  int fd = open(layout->path, O_RDWR | O_CREAT, 0644);
  if (fd < 0) return 1;
  int failed = for_each_piece(layout, fd, NULL, write_piece);
  return close(fd) != 0 || failed;
}

/* write_shared: the calls of a block land in any order, so this rank's bytes must be one of
 * the records the block wrote, whole. */
static int check_shared_write(const wb_io_layout* layout, int fd, unsigned char* scratch) {
  for (long r = 0; r < layout->records * layout->ranks; ++r)
    if (compare_piece(fd, layout->data, scratch, layout->bytes, (off_t)r * (off_t)layout->bytes) ==
        0)
      return 0;
  return 1;
}

int wb_io_check(const wb_io_layout* layout, int reads, const char* op) {
  if (reads) return memcmp(layout->into, layout->data, layout->bytes) != 0;
  int fd = open(layout->path, O_RDONLY);
  unsigned char* scratch = malloc(layout->bytes ? layout->bytes : 1);
  int failed = fd < 0 || !scratch;
  if (!failed && layout->form == WB_IO_SHARED && strcmp(op, "write_shared") == 0)
    failed = check_shared_write(layout, fd, scratch);
  else if (!failed && layout->form == WB_IO_SHARED) /* write_ordered: rank order, each round */
    failed = compare_piece(fd, layout->data, scratch, layout->bytes,
                           (off_t)layout->rank * (off_t)layout->bytes);
  else if (!failed)
    failed = for_each_piece(layout, fd, scratch, compare_piece);
  free(scratch);
  if (fd >= 0) close(fd);
  return failed;
}
