/* The C collective variants in libwb_ckernels, for the mpi4py collectives kernel (ctypes), so that
 * mpi4py's ratios against C are measured inside the same process, like every other ratio. */
#ifndef WB_COLL_BRIDGE_H
#define WB_COLL_BRIDGE_H

#include <mpi.h>
#include <stddef.h>

/* Sets up the C collective variant `name` ("c/allreduce/sum") on the communicator with Fortran
 * handle `fortran_comm` (mpi4py's comm.py2f()); collective over it. NULL when there is no such
 * variant or its setup failed. */
void* wb_coll_bridge_setup(const char* name, MPI_Fint fortran_comm, size_t count);
/* `calls` calls timed OSU's way (wb_coll_osu_block); this rank's microseconds per call. */
double wb_coll_bridge_block(void* bridge, long calls);
/* `calls` calls back to back, untimed (the warm-up, the audit window). */
void wb_coll_bridge_calls(void* bridge, long calls);
/* 0 when this rank's last result is right. */
int wb_coll_bridge_verify(void* bridge);
/* Frees what wb_coll_bridge_setup made. */
void wb_coll_bridge_teardown(void* bridge);

#endif /* WB_COLL_BRIDGE_H */
