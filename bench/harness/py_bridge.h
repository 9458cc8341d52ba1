/* libwb_ckernels: the C variants for the mpi4py kernel (ctypes) and the Go kernel (cgo), so that
 * their ratios against C are measured inside the same process, like every other ratio. */
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
/* The process's physical floor (floor.h), one-way microseconds, measured now on both ranks of
 * the two-rank communicator `fortran_comm` (collective); negative when it could not be. */
double wb_bridge_floor(MPI_Fint fortran_comm);

#endif /* WB_PY_BRIDGE_H */
