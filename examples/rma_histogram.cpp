// A distributed histogram in one-sided communication: the bins are spread over the ranks in
// equal blocks (each rank's block is its window), every rank counts its own values into a
// local copy of all bins, then adds each block to its owner's window with one accumulate
// (MPI_Accumulate with MPI_SUM) under lock_all. The owners' blocks, gathered, must equal the
// histogram of every rank's values counted sequentially.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <span>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

constexpr std::size_t bins = 64;
constexpr std::size_t values_per_rank = 10000;

/// The values rank `rank` draws: a linear congruential sequence each rank can replay.
std::vector<std::size_t> values_of(int rank) {
  std::vector<std::size_t> values(values_per_rank);
  std::uint64_t state = 12345 + 977 * static_cast<std::uint64_t>(rank);
  for (std::size_t& value : values) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    value = static_cast<std::size_t>((state >> 33) % bins);
  }
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const std::size_t ranks = static_cast<std::size_t>(world.size());
  const std::size_t block = (bins + ranks - 1) / ranks;  // bins each rank owns

  auto histogram = thinmpi::window<long>::allocate(world, block);
  const std::vector<long> zeros(block, 0);
  {
    auto epoch = histogram.lock(world.rank(), thinmpi::lock_type::exclusive);
    epoch.put(zeros, world.rank(), 0);
  }
  world.barrier();

  std::vector<long> counts(block * ranks, 0);  // every bin, counted locally first
  for (const std::size_t value : values_of(world.rank()))
    ++counts[value];
  {
    auto epoch = histogram.lock_all();
    for (std::size_t owner = 0; owner < ranks; ++owner) {
      const std::span<const long> mine(counts.data() + owner * block, block);
      epoch.accumulate(mine, static_cast<int>(owner), 0, std::plus<>{});
    }
  }  // unlock_all: every block has been added at its owner
  world.barrier();

  std::vector<long> own(block);
  {
    auto epoch = histogram.lock(world.rank(), thinmpi::lock_type::shared);
    epoch.get(own, world.rank(), 0);
  }
  std::vector<long> gathered(block * ranks);
  world.allgather(own, gathered);

  std::vector<long> sequential(block * ranks, 0);
  for (int rank = 0; rank < world.size(); ++rank)
    for (const std::size_t value : values_of(rank))
      ++sequential[value];
  const bool ok = gathered == sequential;
  if (world.rank() == 0) {
    std::printf("histogram of %zu values in %zu bins over %zu ranks %s\n", values_per_rank * ranks,
                bins, ranks,
                ok ? "matches the sequential count" : "DOES NOT match the sequential count");
  }
  return ok ? 0 : 1;
}
