/* c/char_buffer: n MPI_CHAR with a known count: the baseline of strings and of the OSU sweep. */
#include "c_kernel.h"
#include "c_variants.h"

static void* setup(MPI_Comm comm, size_t count) {
  return wb_c_setup(comm, count, MPI_CHAR, 1, wb_c_fill_bytes);
}

const wb_variant wb_c_char_buffer = {"c",
                                     "char_buffer",
                                     NULL,
                                     1,
                                     0,
                                     setup,
                                     wb_c_known_count_round_trips,
                                     wb_c_verify_received,
                                     wb_c_teardown};
