// Bad input is an exception that says what was wrong, not an abort: a send to a rank that does
// not exist, and a message too large for its receive buffer.
//
//   mpiexec -n 2 ./example_errors

#include <cstdio>
#include <vector>

#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const int rank = world.rank();

  try {
    world.send(1.0, world.size() + 5, 0);
  } catch (const thinmpi::mpi_error& e) {
    std::printf("rank %d caught: %s\n", rank, e.what());
  }

  if (world.size() < 2 || rank > 1) return 0;
  if (rank == 0) {
    world.send(std::vector<int>(100, 7), 1, 0);
  } else {
    std::vector<int> room(10);
    try {
      world.recv(room, 0, 0);
    } catch (const thinmpi::mpi_error& e) {
      std::printf("rank %d caught: %s\n", rank, e.what());
    }
  }
}
