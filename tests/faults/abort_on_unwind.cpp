// An exception that unwinds through thinmpi::environment on one rank must end the job instead
// of leaving the other ranks waiting forever: rank 1 gives up while rank 0 waits for it. The
// test expects the job to end as MPI_Abort(MPI_COMM_WORLD, 1) ends it, and a hang fails it by
// its timeout. Reaching the catch block is this program failing: it says so and exits 3.

#include <cstdio>
#include <stdexcept>

#include "faults/fault_log.hpp"
#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  try {
    thinmpi::environment env(argc, argv);
    auto world = thinmpi::world();
    fault_log::send_stderr_to_file(world.rank());
    if (world.rank() == 1) {
      const std::runtime_error giving_up("rank 1 gives up");
      std::fprintf(stderr, "rank 1 throws: %s\n", giving_up.what());
      throw giving_up;
    }
    static_cast<void>(world.recv<int>(1, 0));  // never sent
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fault: caught after the environment ended: %s\n", e.what());
    return 3;
  }
  std::fprintf(stderr, "fault: rank 0 received a message that was never sent\n");
  return 3;
}
