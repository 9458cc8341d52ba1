/* The contract between the io harness (io_harness.c) and the kernels it measures: C MPI-IO
 * (io_c.c), POSIX pwrite/pread (io_posix.c, the floor), thinmpi::file (thinmpi_io.cpp), and,
 * through libwb_ckernels (io_bridge.c), the mpi4py kernel's C baselines (mpi4py_io.py).
 *
 * An instance is one variant at one size with a file of its own. The harness lays out what
 * every API writes or expects to read (wb_io_layout: the same bytes at the same offsets for
 * every API), writes the file beforehand for the reading forms, verifies what was written or
 * read afterwards and deletes the file; a kernel only opens the file, makes one call per
 * `call` and closes it again. Every call of one instance moves the same bytes to the same
 * place, so a block of calls measures the per-call cost of the path, not a file growing. */
#ifndef WB_IO_VARIANT_H
#define WB_IO_VARIANT_H

#include <mpi.h>
#include <stddef.h>

#include "variant_tables.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum wb_io_form {
  WB_IO_INDEPENDENT, /* write_at / read_at: `bytes` at this rank's own offset */
  WB_IO_COLLECTIVE,  /* write_at_all / read_at_all of a block-distributed 2D array of doubles
                        through a subarray view (etype MPI_DOUBLE, "native") */
  WB_IO_SHARED       /* write_shared, write_ordered, read_ordered: `bytes` at the shared file
                        pointer, which goes back to 0 before every block */
} wb_io_form;

typedef struct wb_io_layout {
  MPI_Comm comm;
  int rank, ranks;
  const char* path; /* the instance's file */
  wb_io_form form;
  size_t bytes;              /* per rank per call */
  MPI_Offset offset;         /* independent forms: this rank's region, in bytes */
  int sizes[2];              /* collective: the global array (rows, columns) of doubles */
  int subsizes[2];           /* this rank's block */
  int starts[2];             /* where the block starts */
  long records;              /* shared forms: the records (bytes each) a block reaches */
  const unsigned char* data; /* what this rank writes, or what a read must give */
  unsigned char* into;       /* where reads land (bytes) */
} wb_io_layout;

struct wb_io_variant {
  const char* api;      /* "c", "thinmpi", "posix" */
  const char* op;       /* "write_at", "read_at", "write_at_all", "read_at_all", "write_shared",
                           "write_ordered", "read_ordered" */
  const char* baseline; /* "c/<op>" for thinmpi; NULL for C and POSIX */
  wb_io_form form;
  int reads; /* 1: the harness writes the file before setup and checks layout->into after */
  /* Opens the instance's file on every rank of layout->comm (collective for MPI); NULL on
   * error. The layout outlives the state. */
  void* (*setup)(const wb_io_layout* layout);
  /* One call. */
  void (*call)(void* state);
  /* Shared forms: the shared file pointer back to 0 (collective); NULL for the others. */
  void (*rewind)(void* state);
  /* Closes the file (collective for MPI) and frees the state; 0 when every call moved all its
   * bytes and returned success. */
  int (*finish)(void* state);
};
/* Each kernel translation unit exports a table of them, a wb_io_variant_table
 * (variant_tables.h). */

/* The layout of one instance on `comm` (collective only in that it calls MPI_Dims_create and
 * the rank queries): fills everything but path; allocates data and into. 0 on success. For the
 * collective form `bytes` is the whole array's size (a multiple of 8), split over a process
 * grid made by MPI_Dims_create; for the shared forms `records` is what a block reaches. */
int wb_io_layout_make(wb_io_layout* layout, MPI_Comm comm, wb_io_form form, size_t bytes,
                      long records);
void wb_io_layout_free(wb_io_layout* layout);
/* Writes with POSIX what a reading form expects to find in the file (every rank its part);
 * 0 on success on this rank. */
int wb_io_prewrite(const wb_io_layout* layout);
/* After finish: 0 when the file (for a writing form) or layout->into (for a reading form)
 * holds what it should on this rank. */
int wb_io_check(const wb_io_layout* layout, int reads, const char* op);

#ifdef __cplusplus
}
#endif

#endif /* WB_IO_VARIANT_H */
