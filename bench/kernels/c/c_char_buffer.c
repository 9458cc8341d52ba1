/* c/char_buffer: n MPI_CHAR with a known count: the baseline of strings and of the OSU sweep. */
#include "c_kernel.h"
#include "c_variants.h"

WB_C_PING_PONG_VARIANT(char_buffer, MPI_CHAR, 1, wb_c_known_count_round_trips,
                       wb_c_verify_received);
