// A user reduction operation that throws: MPI's callback cannot report it, so thinmpi ends the
// job with MPI_Abort and a message naming the operation, the element type and the exception.
// faults/check_root_only_abort.sh launches it and checks that the job ends, non-zero, with that
// message (read from the ranks' stderr files: MPICH's launcher lost it in about 1 run in 10).

#include <cstdio>
#include <stdexcept>

#include "faults/fault_log.hpp"
#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  fault_log::send_stderr_to_file(world.rank());
  int limit = 0;  // not const: a captured constant would need no capture
  const int sum = world.allreduce(world.rank() + 1, [limit](int a, int b) {
    if (a + b > limit) throw std::overflow_error("the sum passed the limit");
    return a + b;
  });
  std::printf("not reached: %d\n", sum);
  return 0;
}
