/* c/mprobe: n MPI_INT received without knowing the count (MPI_Mprobe + MPI_Get_count + malloc +
 * MPI_Mrecv): what a C programmer writes for the receive of unknown size. */
#include "c_kernel.h"
#include "c_variants.h"

WB_C_PING_PONG_VARIANT(mprobe, MPI_INT, sizeof(int), wb_c_mprobe_round_trips,
                       wb_c_verify_last_match);
