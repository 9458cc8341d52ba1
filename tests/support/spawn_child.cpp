// The program communicator_test's Dynamic.* tests spawn: it checks what its parents sent
// against what they must have sent, answers over the parent intercommunicator, merges with
// them, and parts (MPI_Comm_disconnect) so that either side may finalize alone.
//
//   spawn_child <word> [<words>...]   each child gathers (rank, argument count, the sum of the
//                                     parents' broadcast, the length of its first argument) to
//                                     the parents' rank 0, then joins an allreduce over the
//                                     merged communicator

#include <cstdio>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "thinmpi/thinmpi.hpp"

// A spawned process does not get the test's environment from Open MPI's launcher
// (ASAN_OPTIONS and LSAN_OPTIONS among it): under the sanitizers it takes the presets' options
// from here, full stacks (so that the suppressions can match) and the suppressions file.
extern "C" const char* __asan_default_options() {  // NOLINT: the sanitizer's own name
  return "detect_leaks=1:fast_unwind_on_malloc=0";
}
extern "C" const char* __lsan_default_options() {  // NOLINT: the sanitizer's own name
  return "suppressions=" THINMPI_LSAN_SUPPRESSIONS ":print_suppressions=0";
}

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  const thinmpi::inter_view parents = thinmpi::parent();
  if (parents.is_null()) {
    std::fprintf(stderr, "spawn_child: not spawned\n");
    return 2;
  }
  std::vector<int> task(5);
  parents.bcast(task, thinmpi::remote_root(0));
  const std::string first = argc > 1 ? argv[1] : "";
  const std::vector<int> report{parents.rank(), argc - 1,
                                std::accumulate(task.begin(), task.end(), 0),
                                static_cast<int>(first.size())};
  parents.gather(report, thinmpi::remote_root(0));
  {
    const thinmpi::communicator everyone = parents.merge(true);
    static_cast<void>(everyone.allreduce(1, std::plus<>{}));
  }
  thinmpi::disconnect_parent();
  return thinmpi::parent().is_null() ? 0 : 3;
}
