// A rank that dies in one of the ways a real job's rank dies, while its peer waits on it in a
// blocking receive. The job must end (with the status and the message expected for that end)
// within a stated bound and leave no process behind: faults/run_fault.sh runs this under
// mpiexec and checks all of it. Rank 1 is the one that dies; rank 0 waits on it.
//
//   fault kill       rank 1 kills itself with SIGKILL in the middle of a ping-pong
//   fault abort      rank 1 calls std::abort() once rank 0 is in, or entering, recv<vector<int>>
//   fault exit       rank 1 calls std::exit(0) without finalizing MPI, the same moment
//   fault dead-peer  rank 1 is killed first; only when its process is gone does rank 0 post its
//                    receive from it (if the launcher has not ended rank 0 by then)
//   fault comm-abort rank 1 calls world.abort(7) (comm_view::abort) while rank 0 waits
//   fault connect-timeout  rank 1 connects, with a limit of 1 s, to a port it opened and nobody
//                    accepts on (Open MPI waits in MPI_Comm_connect forever): the limit ends the
//                    job with a message
//
// The ranks are placed by messages, not sleeps: in abort and exit, rank 0 tells rank 1 that it
// is going into its receive (the receive can never complete, so rank 1 dying just before or
// just after rank 0 enters it ends the same way); in dead-peer, rank 0 watches rank 1's pid
// until the process is gone (the fault tests run both ranks on one host).
//
// Every "fault:" line is this program failing (exit 2 to 4), never the fault under test: the
// harness fails on it.

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "faults/fault_log.hpp"
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

/// Whether the process `pid` has ended: no /proc entry, or a zombie not yet reaped.
bool process_gone(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto name_end = line.rfind(')');
  if (name_end == std::string::npos || name_end + 2 >= line.size()) return true;
  const char state = line[name_end + 2];
  return state == 'Z' || state == 'X';
}

/// Rank 0 waits (polling, bounded) until rank 1's process `pid` is gone.
void wait_until_gone(int pid) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!process_gone(pid)) {
    if (std::chrono::steady_clock::now() > give_up) {
      std::fprintf(stderr, "fault: rank 1 (pid %d) was still running after 30 s\n", pid);
      std::exit(4);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

constexpr int ready_tag = 7;

}  // namespace

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  fault_log::send_stderr_to_file(world.rank());
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
  if (mode == "abort" || mode == "exit" || mode == "comm-abort") {
    if (rank == 1) {
      static_cast<void>(world.recv<int>(0, ready_tag));  // rank 0 is going into its receive
      if (mode == "abort") std::abort();
      if (mode == "comm-abort") {
        std::fprintf(stderr, "rank 1 calls world.abort(7)\n");
        world.abort(7);
      }
      std::exit(0);  // no MPI_Finalize: the environment's destructor never runs
    }
    world.send(0, 1, ready_tag);
    wait_on_rank_1(world);
  }
  if (mode == "connect-timeout") {
    if (rank == 1) {
      const thinmpi::port nobody = thinmpi::port::open();
      static_cast<void>(
          thinmpi::connect(thinmpi::self(), 0, nobody.name(), std::chrono::milliseconds(1000)));
      std::fprintf(stderr, "fault: a connect nobody accepted returned\n");
      return 3;
    }
    wait_on_rank_1(world);
  }
  if (mode == "dead-peer") {
    if (rank == 1) {
      world.send(static_cast<int>(::getpid()), 0, ready_tag);
      die_by_sigkill();
    }
    wait_until_gone(world.recv<int>(1, ready_tag));
    wait_on_rank_1(world);
  }
  std::fprintf(stderr, "fault: unknown mode '%s'\n", mode.c_str());
  return 2;
}
