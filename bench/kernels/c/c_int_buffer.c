/* c/int_buffer: MPI_Send/MPI_Recv of n MPI_INT, the receiver knows the count. The floor. */
#include "c_kernel.h"
#include "c_variants.h"

WB_C_PING_PONG_VARIANT(int_buffer, MPI_INT, sizeof(int), wb_c_known_count_round_trips,
                       wb_c_verify_received);
