// A rank that dies in one of the ways a real job's rank dies, while its peer waits on it in a
// blocking receive. The job must end (non-zero, with a message from the MPI launcher) within a
// stated bound and leave no process behind: faults/run_fault.sh runs this under mpiexec and
// checks all three. Rank 1 is the one that dies; rank 0 waits on it.
//
//   fault kill       rank 1 kills itself with SIGKILL in the middle of a ping-pong
//   fault abort      rank 1 calls std::abort() while rank 0 waits in recv<std::vector<int>>
//   fault exit       rank 1 calls std::exit(0) without finalizing MPI
//   fault dead-peer  rank 1 is killed first; only then does rank 0 post its receive from it

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

void die_by_sigkill() {
  std::fflush(nullptr);
  std::raise(SIGKILL);
}

/// Rank 0 waits for a message rank 1 never sends. Reaching the end is the failure.
[[noreturn]] void wait_on_rank_1(thinmpi::comm_view world) {
  static_cast<void>(world.recv<std::vector<int>>(1, 99));
  std::fprintf(stderr, "fault: rank 0 received a message that was never sent\n");
  std::exit(3);
}

}  // namespace

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const std::string mode = argc > 1 ? argv[1] : "";
  if (world.size() != 2) {
    std::fprintf(stderr, "fault: run on 2 ranks\n");
    return 2;
  }
  const int rank = world.rank();
  if (mode == "kill") {
    for (int i = 0; i < 100; ++i) {  // mid-exchange: messages in flight both ways
      if (rank == 0) {
        world.send(std::vector<int>(64, i), 1, 0);
        static_cast<void>(world.recv<std::vector<int>>(1, 0));
      } else {
        auto got = world.recv<std::vector<int>>(0, 0);
        if (i == 50) die_by_sigkill();
        world.send(got, 0, 0);
      }
    }
    std::fprintf(stderr, "fault: rank %d finished an exchange its peer died in\n", rank);
    return 3;
  }
  if (mode == "abort") {
    if (rank == 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // rank 0 is waiting by now
      std::abort();
    }
    wait_on_rank_1(world);
  }
  if (mode == "exit") {
    if (rank == 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      std::exit(0);  // no MPI_Finalize: the environment's destructor never runs
    }
    wait_on_rank_1(world);
  }
  if (mode == "dead-peer") {
    if (rank == 1) die_by_sigkill();
    std::this_thread::sleep_for(std::chrono::seconds(1));  // rank 1 is gone before the receive
    wait_on_rank_1(world);
  }
  std::fprintf(stderr, "fault: unknown mode '%s'\n", mode.c_str());
  return 2;
}
