/* libwb_ckernels' io part: the io suite's C and POSIX variants behind a ctypes-friendly
 * interface, so that the mpi4py io kernel (mpi4py_io.py) measures its ratios against C inside
 * its own process. Each function is io_instance.h's, with the variant named. */
#ifndef WB_IO_BRIDGE_H
#define WB_IO_BRIDGE_H

#include <mpi.h>
#include <stddef.h>

/* Opens the instance of the C or POSIX variant `name` ("c/write_at", "posix/read_at") on the
 * communicator with Fortran handle `fortran_comm` (collective); NULL when there is no such
 * variant or the open failed on any rank. */
void* wb_io_bridge_open(const char* name, MPI_Fint fortran_comm, const char* dir, size_t bytes,
                        long records, int tag);
/* `calls` calls between a barrier and the clock: this rank's microseconds per call. */
double wb_io_bridge_block(void* instance, long calls);
/* Closes, checks and deletes the file, frees the instance (collective): 0 when it verified. */
int wb_io_bridge_close(void* instance);

#endif /* WB_IO_BRIDGE_H */
