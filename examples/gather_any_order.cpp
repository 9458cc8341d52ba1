// Rank 0 collects a vector of unknown size from every other rank, in whatever order they
// arrive: one probing_request per rank, none of which blocks when posted, and wait_any().
//
//   mpiexec -n 4 ./example_gather_any_order

#include <cstdio>
#include <numeric>
#include <vector>

#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const int rank = world.rank();

  if (rank != 0) {
    std::vector<int> mine(static_cast<std::size_t>(rank) * 3);
    std::iota(mine.begin(), mine.end(), rank * 100);
    world.send(mine, 0, 1);
    return 0;
  }
  std::vector<thinmpi::probing_request<std::vector<int>>> pending;
  for (int source = 1; source < world.size(); ++source) {
    pending.push_back(world.irecv<std::vector<int>>(source, 1));
  }
  int total = 0;
  while (const auto index = thinmpi::wait_any(pending)) {
    const std::vector<int> values = pending[*index].wait();  // already complete: no MPI call
    std::printf("from rank %zu: %zu values\n", *index + 1, values.size());
    total += static_cast<int>(values.size());
  }
  std::printf("%d values in all\n", total);
}
