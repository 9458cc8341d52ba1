/* The io suite's C MPI-IO variants (io_variant.h), written as a careful C program writes them:
 * every return code tested, the count of every read taken from its status.
 *
 *   c/write_at, c/read_at        MPI_File_write_at / MPI_File_read_at of n MPI_BYTE at this
 *                                rank's offset
 *   c/write_at_all, c/read_at_all
 *                                MPI_File_write_at_all / MPI_File_read_at_all of this rank's
 *                                block of doubles at offset 0 of a view set once at open:
 *                                MPI_File_set_view(fh, 0, MPI_DOUBLE, <subarray>, "native",
 *                                MPI_INFO_NULL)
 *   c/write_shared, c/write_ordered, c/read_ordered
 *                                MPI_File_write_shared / _write_ordered / _read_ordered of n
 *                                MPI_BYTE; MPI_File_seek_shared(fh, 0, MPI_SEEK_SET) before
 *                                each block */
#include <stdlib.h>

#include "io_variant.h"

typedef struct c_file {
  const wb_io_layout* layout;
  MPI_File fh;
  int count;  /* elements per call: bytes, or doubles in the collective form */
  int failed; /* a call returned an error or moved fewer elements */
} c_file;

static void* c_open(const wb_io_layout* layout) {
  c_file* f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->layout = layout;
  f->count = (int)layout->bytes;
  if (MPI_File_open(layout->comm, layout->path, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL,
                    &f->fh) != MPI_SUCCESS)
    return free(f), NULL;
  if (layout->form != WB_IO_COLLECTIVE) return f;
  MPI_Datatype block;
  f->count = (int)(layout->bytes / sizeof(double));
  int failed = MPI_Type_create_subarray(2, layout->sizes, layout->subsizes, layout->starts,
                                        MPI_ORDER_C, MPI_DOUBLE, &block) != MPI_SUCCESS ||
               MPI_Type_commit(&block) != MPI_SUCCESS;
  if (!failed) {
    failed = MPI_File_set_view(f->fh, 0, MPI_DOUBLE, block, "native", MPI_INFO_NULL) != MPI_SUCCESS;
    MPI_Type_free(&block);
  }
  if (failed) return MPI_File_close(&f->fh), free(f), NULL;
  return f;
}

/* A read's status must say it got every element. */
static void check_read(c_file* f, int rc, MPI_Status* status, MPI_Datatype type) {
  int got = 0;
  if (rc != MPI_SUCCESS || MPI_Get_count(status, type, &got) != MPI_SUCCESS || got != f->count)
    f->failed = 1;
}

static void c_write_at(void* state) {
  c_file* f = state;
  MPI_Status status;
  if (MPI_File_write_at(f->fh, f->layout->offset, f->layout->data, f->count, MPI_BYTE, &status) !=
      MPI_SUCCESS)
    f->failed = 1;
}

static void c_read_at(void* state) {
  c_file* f = state;
  MPI_Status status;
  check_read(
      f, MPI_File_read_at(f->fh, f->layout->offset, f->layout->into, f->count, MPI_BYTE, &status),
      &status, MPI_BYTE);
}

static void c_write_at_all(void* state) {
  c_file* f = state;
  MPI_Status status;
  if (MPI_File_write_at_all(f->fh, 0, f->layout->data, f->count, MPI_DOUBLE, &status) !=
      MPI_SUCCESS)
    f->failed = 1;
}

static void c_read_at_all(void* state) {
  c_file* f = state;
  MPI_Status status;
  check_read(f, MPI_File_read_at_all(f->fh, 0, f->layout->into, f->count, MPI_DOUBLE, &status),
             &status, MPI_DOUBLE);
}

static void c_write_shared(void* state) {
  c_file* f = state;
  MPI_Status status;
  if (MPI_File_write_shared(f->fh, f->layout->data, f->count, MPI_BYTE, &status) != MPI_SUCCESS)
    f->failed = 1;
}

static void c_write_ordered(void* state) {
  c_file* f = state;
  MPI_Status status;
  if (MPI_File_write_ordered(f->fh, f->layout->data, f->count, MPI_BYTE, &status) != MPI_SUCCESS)
    f->failed = 1;
}

static void c_read_ordered(void* state) {
  c_file* f = state;
  MPI_Status status;
  check_read(f, MPI_File_read_ordered(f->fh, f->layout->into, f->count, MPI_BYTE, &status), &status,
             MPI_BYTE);
}

static void c_rewind(void* state) {
  c_file* f = state;
  if (MPI_File_seek_shared(f->fh, 0, MPI_SEEK_SET) != MPI_SUCCESS) f->failed = 1;
}

static int c_close(void* state) {
  c_file* f = state;
  int failed = f->failed || MPI_File_close(&f->fh) != MPI_SUCCESS;
  free(f);
  return failed;
}

#define C_IO(op, form, reads, rewind) \
  { "c", #op, NULL, form, reads, c_open, c_##op, rewind, c_close }
static const wb_io_variant c_io_variants[] = {
    C_IO(write_at, WB_IO_INDEPENDENT, 0, NULL),    C_IO(read_at, WB_IO_INDEPENDENT, 1, NULL),
    C_IO(write_at_all, WB_IO_COLLECTIVE, 0, NULL), C_IO(read_at_all, WB_IO_COLLECTIVE, 1, NULL),
    C_IO(write_shared, WB_IO_SHARED, 0, c_rewind), C_IO(write_ordered, WB_IO_SHARED, 0, c_rewind),
    C_IO(read_ordered, WB_IO_SHARED, 1, c_rewind),
};

size_t wb_c_io_variants(const wb_io_variant** table) {
  *table = c_io_variants;
  return sizeof c_io_variants / sizeof c_io_variants[0];
}
