// A global counter in one-sided communication (examples/rma_counter.hpp): every rank draws 1000
// tickets from rank 0's window with fetch_and_op; the tickets of all ranks are then checked to be
// 0 .. N-1, each drawn once, and the counter to read N.
//
//   mpiexec -n 4 ./example_rma_counter

#include <cstdio>

#include "rma_counter.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const auto result = rma_counter_example::draw(world, 1000);
  if (world.rank() == 0) {
    std::printf("%zu tickets from %d ranks, %s; the counter reads %ld\n", result.tickets,
                world.size(), result.each_drawn_once ? "each drawn once" : "NOT each drawn once",
                result.counter_reads);
  }
  return result.ok() ? 0 : 1;
}
