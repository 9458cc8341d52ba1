/* One io instance (a variant at one size, with its file), as the io harness (io_harness.c)
 * and libwb_ckernels' bridge for the mpi4py kernel (io_bridge.c) both run it: open, blocks of
 * calls, then close, check and delete. */
#ifndef WB_IO_INSTANCE_H
#define WB_IO_INSTANCE_H

#include "io_variant.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wb_io_instance {
  const wb_io_variant* variant;
  wb_io_layout layout;
  char path[512];
  void* state;
} wb_io_instance;

/* Lays out and opens the instance on `comm` (collective): its file is
 * <dir>/wb-io-<api>-<op>-<bytes>-<tag>.dat; a reading form's file is written first. `records`:
 * the calls a block (or the warm-up) makes at most, for the shared forms. 0 when every rank
 * managed; otherwise nothing is left open (the file may be, and is deleted). */
int wb_io_instance_open(wb_io_instance* instance, const wb_io_variant* variant, MPI_Comm comm,
                        const char* dir, size_t bytes, long records, int tag);
/* Puts the shared file pointer back to 0 where the form has one (collective), then runs
 * `calls` calls between a barrier and the clock: this rank's microseconds per call. */
double wb_io_instance_block(wb_io_instance* instance, long calls);
/* Closes, checks what was written or read, deletes the file (collective); 1 on every rank
 * when a call failed or any rank's check did. */
int wb_io_instance_close(wb_io_instance* instance);
/* "api/op" of a variant into `name`. */
void wb_io_name(const wb_io_variant* variant, char* name, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* WB_IO_INSTANCE_H */
