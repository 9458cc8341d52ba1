// GoMPI's README example, in thinmpi: rank 0 sends three doubles, rank 1 receives a vector of
// whatever size was sent. One MPI_Send; the receive is MPI_Mprobe + MPI_Mrecv.
//
//   mpiexec -n 2 ./example_gompi_readme

#include <cstdio>
#include <vector>

#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);  // MPI_Init_thread ... MPI_Finalize
  auto world = thinmpi::world();
  const int rank = world.rank();
  const int size = world.size();

  if (rank == 0) {
    const std::vector<double> vals = {1.0, 2.0, 3.0};
    world.send(vals, 1, 0);  // one MPI_Send of 24 bytes
    std::printf("rank 0 of %d: sent [%g %g %g]\n", size, vals[0], vals[1], vals[2]);
  } else if (rank == 1) {
    const auto vals = world.recv<std::vector<double>>(0, 0);  // MPI_Mprobe + MPI_Mrecv
    std::printf("rank 1 of %d: received [%g %g %g]\n", size, vals[0], vals[1], vals[2]);
  }
}
