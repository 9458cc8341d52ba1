/* c/char_mprobe: chars received without knowing the count: the baseline of allocating string
 * receives. */
#include "c_kernel.h"
#include "c_variants.h"

static void* setup(MPI_Comm comm, size_t count) {
  return wb_c_setup(comm, count, MPI_CHAR, 1, wb_c_fill_bytes);
}

const wb_variant wb_c_char_mprobe = {
    "c",          "char_mprobe", NULL, 1, 0, setup, wb_c_mprobe_round_trips, wb_c_verify_last_match,
    wb_c_teardown};
