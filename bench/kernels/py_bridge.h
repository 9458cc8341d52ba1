/* libwb_ckernels: the C variants for the mpi4py kernel (loaded with ctypes), so that mpi4py's
 * ratios against C are measured inside the same process, like every other ratio. */
#ifndef WB_PY_BRIDGE_H
#define WB_PY_BRIDGE_H

#include <mpi.h>
#include <stddef.h>

/* Sets up the C variant `name` ("c/int_buffer") on the communicator with Fortran handle
 * `fortran_comm` (mpi4py's comm.py2f()); NULL when there is no such variant or setup failed. */
void* wb_bridge_setup(const char* name, MPI_Fint fortran_comm, size_t count);
/* Runs `iterations` round trips and returns the seconds they took on this rank. */
double wb_bridge_time(void* bridge, long iterations);
/* 0 when the last payload received is the one sent. */
int wb_bridge_verify(void* bridge);
/* Frees what wb_bridge_setup made. */
void wb_bridge_teardown(void* bridge);

#endif /* WB_PY_BRIDGE_H */
