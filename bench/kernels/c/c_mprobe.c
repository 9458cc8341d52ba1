/* c/mprobe: n MPI_INT received without knowing the count (MPI_Mprobe + MPI_Get_count + malloc +
 * MPI_Mrecv): what a C programmer writes for the receive of unknown size. */
#include "c_kernel.h"
#include "c_variants.h"

static void* setup(MPI_Comm comm, size_t count) {
  return wb_c_setup(comm, count, MPI_INT, sizeof(int), wb_c_fill_bytes);
}

const wb_variant wb_c_mprobe = {"c",
                                "mprobe",
                                NULL,
                                sizeof(int),
                                0,
                                setup,
                                wb_c_mprobe_round_trips,
                                wb_c_verify_last_match,
                                wb_c_teardown};
