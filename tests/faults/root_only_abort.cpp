// One root-only bad argument (faults/root_only_cases.hpp, named by argv[1]) that no rank can
// complete safely: every rank makes the call; the root must end the job (MPI_Abort) with the
// error's text on stderr, leaving no rank waiting. faults/check_root_only_abort.sh launches it
// and checks the end. A rank that throws, or passes the barrier after the call, is the failure
// ("root_only_abort:" lines).
//
// With THINMPI_FAULT_LOG_DIR set, each rank's stderr goes to <dir>/rank<r>.stderr: MPICH's
// launcher can end the job before it forwards the aborting rank's last words (fault_log.hpp).

#include <cstdio>

#include "faults/fault_log.hpp"
#include "faults/root_only_cases.hpp"
#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  fault_log::send_stderr_to_file(world.rank());
  const root_only::bad_call* bad = argc > 1 ? root_only::find(argv[1]) : nullptr;
  if (bad == nullptr) {
    std::fprintf(stderr, "root_only_abort: no case named %s\n", argc > 1 ? argv[1] : "(none)");
    return 2;
  }
  try {
    bad->call(world, world.size() - 1);
  } catch (const thinmpi::mpi_error& e) {
    std::fprintf(stderr, "root_only_abort: rank %d threw instead of ending the job: %s\n",
                 world.rank(), e.what());
    std::fflush(stderr);
    // Leaving now would strand the ranks still inside the collective: end the job loudly.
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  // The other ranks of a gather return once their block is sent; they wait here for the job to
  // end. The root never comes: no rank may leave this barrier.
  world.barrier();
  std::fprintf(stderr, "root_only_abort: rank %d passed the barrier after %s\n", world.rank(),
               bad->name);
  return 3;
}
