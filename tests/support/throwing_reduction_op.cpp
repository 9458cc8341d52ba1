// A user reduction operation that throws: MPI's callback cannot report it, so thinmpi ends the
// job with MPI_Abort and a message naming the operation, the element type and the exception.
// The test passes when that message appears (and fails by its timeout if the job hangs).

#include <cstdio>
#include <stdexcept>

#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const int limit = 0;
  const int sum = world.allreduce(world.rank() + 1, [limit](int a, int b) {
    if (a + b > limit) throw std::overflow_error("the sum passed the limit");
    return a + b;
  });
  std::printf("not reached: %d\n", sum);
  return 0;
}
