// MBI's "MPI call before initialization or after finalization": thinmpi says so instead of
// letting MPI abort. Run on one rank; exits non-zero on the first expectation that fails.

#include <cstdio>
#include <string>

#include "thinmpi/thinmpi.hpp"

namespace {

int failures = 0;

template <class F>
void expect_mpi_error(const char* what, const std::string& part, F&& f) {
  try {
    f();
  } catch (const thinmpi::mpi_error& e) {
    if (std::string(e.what()).find(part) != std::string::npos) return;
    std::fprintf(stderr, "init_fini: %s: unexpected message: %s\n", what, e.what());
    ++failures;
    return;
  }
  std::fprintf(stderr, "init_fini: %s: no thinmpi::mpi_error\n", what);
  ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  expect_mpi_error("world() before the environment", "construct a thinmpi::environment first",
                   [] { static_cast<void>(thinmpi::world()); });
  {
    thinmpi::environment env(argc, argv);
    if (thinmpi::world().size() < 1) ++failures;
  }  // MPI_Finalize
  expect_mpi_error("an environment after MPI_Finalize", "cannot start again",
                   [] { thinmpi::environment again; });
  std::printf("init_fini: %d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
