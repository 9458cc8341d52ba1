/* c/int_buffer: MPI_Send/MPI_Recv of n MPI_INT, the receiver knows the count. The floor. */
#include "c_kernel.h"
#include "c_variants.h"

static void* setup(MPI_Comm comm, size_t count) {
  return wb_c_setup(comm, count, MPI_INT, sizeof(int), wb_c_fill_bytes);
}

const wb_variant wb_c_int_buffer = {"c",
                                    "int_buffer",
                                    NULL,
                                    sizeof(int),
                                    0,
                                    setup,
                                    wb_c_known_count_round_trips,
                                    wb_c_verify_received,
                                    wb_c_teardown};
