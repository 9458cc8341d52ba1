/* c/probe: n MPI_INT received without knowing the count through MPI_Probe + MPI_Get_count +
 * malloc + MPI_Recv: the calls of GoMPI's Recv, in C (the baseline of go/int_slice_recv). */
#include "c_kernel.h"
#include "c_variants.h"

WB_C_PING_PONG_VARIANT(probe, MPI_INT, sizeof(int), wb_c_probe_round_trips, wb_c_verify_last_match);
