// An exception that unwinds through thinmpi::environment on one rank must end the job instead
// of leaving the other ranks waiting forever: rank 1 gives up while rank 0 waits for it. The
// test expects a failing exit (MPI_Abort), and a hang fails it by its timeout.

#include <cstdio>
#include <stdexcept>

#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  try {
    thinmpi::environment env(argc, argv);
    auto world = thinmpi::world();
    if (world.rank() == 1) throw std::runtime_error("rank 1 gives up");
    static_cast<void>(world.recv<int>(1, 0));  // never sent
  } catch (const std::exception& e) {
    std::fprintf(stderr, "caught after the environment ended: %s\n", e.what());
  }
  return 0;
}
