/* c/probe: n MPI_INT received without knowing the count through MPI_Probe + MPI_Get_count +
 * malloc + MPI_Recv: the calls of GoMPI's Recv, in C (the baseline of go/int_slice_recv). */
#include "c_kernel.h"
#include "c_variants.h"

static void* setup(MPI_Comm comm, size_t count) {
  return wb_c_setup(comm, count, MPI_INT, sizeof(int), wb_c_fill_bytes);
}

const wb_variant wb_c_probe = {"c",
                               "probe",
                               NULL,
                               sizeof(int),
                               0,
                               setup,
                               wb_c_probe_round_trips,
                               wb_c_verify_last_match,
                               wb_c_teardown};
