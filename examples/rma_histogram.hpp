#pragma once
/// \file
/// A distributed histogram in one-sided communication: the bins are spread over the ranks in
/// equal blocks (each rank's block is its window), every rank counts its own values into a local
/// copy of all bins, then adds each block to its owner's window with one accumulate (MPI_Accumulate
/// with MPI_SUM) under lock_all. examples/rma_histogram.cpp runs and checks it; wrapper-bench's rma
/// suite runs it against bench/programs/rma_histogram.c.
///
/// The lines between the START and END markers are the ones counted by scripts/count_lines.py.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace rma_histogram_example {

/// Calls use(value) for each value rank `rank` draws: a linear congruential sequence each rank
/// can replay, drawn as it is used (no array of the values, as the C version).
template <class Use>
void for_each_value(int rank, std::size_t values_per_rank, std::size_t bins, Use&& use) {
  std::uint64_t state = 12345 + 977 * static_cast<std::uint64_t>(rank);
  for (std::size_t i = 0; i < values_per_rank; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    use(static_cast<std::size_t>((state >> 33) % bins));
  }
}

/// Counts every rank's values into the distributed histogram; true when the owners' blocks,
/// gathered, equal the histogram of all ranks' values counted sequentially.
//> START HISTOGRAM THINMPI
inline bool count(thinmpi::comm_view world, std::size_t values_per_rank, std::size_t bins) {
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
  for_each_value(world.rank(), values_per_rank, bins, [&](std::size_t value) { ++counts[value]; });
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
    for_each_value(rank, values_per_rank, bins, [&](std::size_t value) { ++sequential[value]; });
  return gathered == sequential;
}
//> END HISTOGRAM THINMPI

}  // namespace rma_histogram_example
