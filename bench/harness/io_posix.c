/* The io suite's floor (io_variant.h): the same bytes at the same offsets with POSIX, no MPI.
 *
 *   posix/write_at   pwrite(2) of n bytes at this rank's offset
 *   posix/read_at    pread(2) of n bytes at this rank's offset
 *
 * Each rank opens the file itself (O_RDWR | O_CREAT). A short transfer counts as a failure, as a
 * short MPI-IO transfer does in io_c.c. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "io_variant.h"

typedef struct posix_file {
  const wb_io_layout* layout;
  int fd;
  int failed;
} posix_file;

static void* posix_open(const wb_io_layout* layout) {
  posix_file* f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->layout = layout;
  f->fd = open(layout->path, O_RDWR | O_CREAT, 0644);
  if (f->fd < 0) return free(f), NULL;
  return f;
}

static void posix_write_at(void* state) {
  posix_file* f = state;
  const wb_io_layout* l = f->layout;
  if (pwrite(f->fd, l->data, l->bytes, (off_t)l->offset) != (ssize_t)l->bytes) f->failed = 1;
}

static void posix_read_at(void* state) {
  posix_file* f = state;
  const wb_io_layout* l = f->layout;
  if (pread(f->fd, l->into, l->bytes, (off_t)l->offset) != (ssize_t)l->bytes) f->failed = 1;
}

static int posix_close(void* state) {
  posix_file* f = state;
  int failed = f->failed || close(f->fd) != 0;
  free(f);
  return failed;
}

static const wb_io_variant posix_io_variants[] = {
    {"posix", "write_at", NULL, WB_IO_INDEPENDENT, 0, posix_open, posix_write_at, NULL,
     posix_close},
    {"posix", "read_at", NULL, WB_IO_INDEPENDENT, 1, posix_open, posix_read_at, NULL, posix_close},
};

size_t wb_posix_io_variants(const wb_io_variant** table) {
  *table = posix_io_variants;
  return sizeof posix_io_variants / sizeof posix_io_variants[0];
}
