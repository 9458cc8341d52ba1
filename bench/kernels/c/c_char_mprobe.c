/* c/char_mprobe: chars received without knowing the count: the baseline of allocating string
 * receives. */
#include "c_kernel.h"
#include "c_variants.h"

WB_C_PING_PONG_VARIANT(char_mprobe, MPI_CHAR, 1, wb_c_mprobe_round_trips, wb_c_verify_last_match);
