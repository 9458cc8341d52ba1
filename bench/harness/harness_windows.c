#include "harness_windows.h"

#include <mpi.h>

#include "callgrind_window.h"

void wb_count_windows(wb_window_work* work, const void* variant, void* state, const char* name,
                      size_t count, long warmup, long audit, long instructions) {
  if (instructions > 0) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    WB_CALLGRIND_WARMUP(work(variant, state, warmup));
    for (long calls = instructions; calls <= 2 * instructions; calls *= 2) {
      MPI_Barrier(MPI_COMM_WORLD);
      WB_CALLGRIND_WINDOW(work(variant, state, calls), rank, name, count, calls);
    }
  } else {
    work(variant, state, warmup);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(1, name);
    work(variant, state, audit);
    MPI_Pcontrol(0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}
