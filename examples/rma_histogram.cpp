// A distributed histogram in one-sided communication (examples/rma_histogram.hpp): 10,000 values
// per rank counted into 64 bins spread over the ranks' windows, checked against the histogram of
// every rank's values counted sequentially.
//
//   mpiexec -n 4 ./example_rma_histogram

#include <cstddef>
#include <cstdio>

#include "rma_histogram.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  constexpr std::size_t bins = 64;
  constexpr std::size_t values_per_rank = 10000;
  const bool ok = rma_histogram_example::count(world, values_per_rank, bins);
  if (world.rank() == 0) {
    const auto ranks = static_cast<std::size_t>(world.size());
    std::printf("histogram of %zu values in %zu bins over %zu ranks %s\n", values_per_rank * ranks,
                bins, ranks,
                ok ? "matches the sequential count" : "DOES NOT match the sequential count");
  }
  return ok ? 0 : 1;
}
