// reduce_scatter_block and reduce_scatter: every form against MPI_Reduce_scatter_block /
// MPI_Reduce_scatter called directly in the same test, and the size errors raised before MPI;
// the persistent forms over several rounds whose send buffers change between rounds.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::throws_mpi_error;

std::vector<int> contribution(int rank, std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = (rank + 1) * static_cast<int>(i + 1);
  return v;
}

TEST(ReduceScatterBlock, AllFormsMatchC) {
  auto world = thinmpi::world();
  const auto ranks = static_cast<std::size_t>(world.size());
  for (const std::size_t block : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    SCOPED_TRACE(block);
    const std::vector<int> mine = contribution(world.rank(), block * ranks);
    std::vector<int> expected(block);
    MPI_Reduce_scatter_block(mine.data(), expected.data(), static_cast<int>(block), MPI_INT,
                             MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(world.reduce_scatter_block(mine, std::plus<>{}), expected);
    std::vector<int> into(block + 2);
    world.reduce_scatter_block(mine, into, [](int a, int b) { return a + b; });
    EXPECT_EQ(into, expected);
    std::vector<int> in_place = mine;
    world.reduce_scatter_block_in_place(in_place, std::plus<>{});
    EXPECT_EQ(in_place, expected);
  }
}

TEST(ReduceScatterBlock, SizeErrorsBeforeMpi) {
  auto world = thinmpi::world();
  const auto ranks = static_cast<std::size_t>(world.size());
  // A send count that does not split evenly is the same on every rank (MPI requires it): the
  // job ends (root_only_abort.reduce_scatter_block_uneven_on_one); checked, every rank throws
  // (collectives_consistency_checked_test). Every rank's receive buffer is too small: each reduces
  // into scratch, then throws (one rank's alone: collectives_consistency_test,
  // reduce_scatter_block_recv_too_small).
  std::vector<int> small(1);
  EXPECT_TRUE(throws_mpi_error(
      [&] { world.reduce_scatter_block(std::vector<int>(2 * ranks), small, std::plus<>{}); },
      MPI_ERR_COUNT,
      "the receive buffer of 1 x MPI_INT = 4 bytes is too small for "
      "2 x MPI_INT = 8 bytes (this rank's block of the result)"));
  EXPECT_EQ(world.allreduce(1, std::plus<>{}), world.size());
}

TEST(ReduceScatter, WithCountsMatchesC) {
  auto world = thinmpi::world();
  std::vector<int> counts(static_cast<std::size_t>(world.size()));
  std::size_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    counts[r] = static_cast<int>(r % 3);  // rank 0 gets none: a zero-length share
    total += r % 3;
  }
  const std::vector<int> mine = contribution(world.rank(), total);
  std::vector<int> expected(
      static_cast<std::size_t>(counts[static_cast<std::size_t>(world.rank())]));
  MPI_Reduce_scatter(mine.data(), expected.data(), counts.data(), MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(world.reduce_scatter(mine, counts, thinmpi::max), expected);
  std::vector<int> into(5);
  world.reduce_scatter(mine, into, counts, thinmpi::max);
  EXPECT_EQ(into, expected);
  const auto stateful_max = [floor = -1](int a, int b) { return std::max({a, b, floor}); };
  EXPECT_EQ(world.reduce_scatter(mine, counts, stateful_max), expected);
  std::vector<int> counts_copy = counts;
  auto allocated = world.ireduce_scatter(mine, counts_copy, thinmpi::max);
  std::vector<int> borrowed_into(expected.size());
  auto borrowed = world.ireduce_scatter(mine, borrowed_into, counts_copy, stateful_max);
  counts_copy.assign(counts_copy.size(), -1);  // the requests keep their own counts
  EXPECT_EQ(allocated.wait(), expected);
  borrowed.wait();
  EXPECT_EQ(borrowed_into, expected);
}

// Counts of the wrong length, or not adding up to what is sent, are the same on every rank
// (MPI requires it): the job ends (root_only_abort.reduce_scatter_counts_long_on_one,
// .reduce_scatter_counts_sum_on_one); checked, every rank throws (AlikeErrors in
// collectives_consistency_checked_test).

TEST(IreduceScatterBlock, MatchesC) {
  auto world = thinmpi::world();
  const auto ranks = static_cast<std::size_t>(world.size());
  const std::vector<int> mine = contribution(world.rank(), 2 * ranks);
  std::vector<int> expected(2);
  MPI_Reduce_scatter_block(mine.data(), expected.data(), 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  auto allocated = world.ireduce_scatter_block(mine, std::plus<>{});
  std::vector<int> into(2);
  int zero = 0;
  auto borrowed =
      world.ireduce_scatter_block(mine, into, [zero](int a, int b) { return a + b + zero; });
  EXPECT_EQ(allocated.wait(), expected);
  borrowed.wait();
  EXPECT_EQ(into, expected);
  EXPECT_TRUE(throws_mpi_error(
      [&] {
        static_cast<void>(world.ireduce_scatter_block(mine, std::vector<int>(1), std::plus<>{}));
      },
      MPI_ERR_COUNT,
      "the receive buffer of 1 x MPI_INT = 4 bytes is too small for 2 x MPI_INT = 8 bytes"));
}

#if THINMPI_HAS_PERSISTENT_COLLECTIVES
/// counts[r] = r % 3: rank 0 gets none, a zero-length share.
std::vector<int> uneven_counts(int ranks) {
  std::vector<int> counts(static_cast<std::size_t>(ranks));
  for (std::size_t r = 0; r < counts.size(); ++r)
    counts[r] = static_cast<int>(r % 3);
  return counts;
}

/// What `a + b + bias` adds to each element of a plain sum over `ranks` contributions: one bias
/// per application of the operation, whatever order MPI combines them in.
std::vector<int> plus_bias(std::vector<int> sums, int ranks, int bias) {
  for (int& sum : sums)
    sum += (ranks - 1) * bias;
  return sums;
}

TEST(ReduceScatterInit, RoundsReduceTheCurrentContents) {
  auto world = thinmpi::world();
  const int rank = world.rank();
  const auto ranks = static_cast<std::size_t>(world.size());
  std::vector<int> counts = uneven_counts(world.size());
  const std::vector<int> original_counts = counts;
  const auto total = static_cast<std::size_t>(std::accumulate(counts.begin(), counts.end(), 0));
  const std::size_t mine_count = static_cast<std::size_t>(counts[static_cast<std::size_t>(rank)]);
  std::vector<int> blocks(2 * ranks);
  std::vector<int> block(2);
  std::vector<int> user_block(2);
  std::vector<int> shares(total);
  std::vector<int> share(mine_count + 1);  // larger than the share: shrunk once, at init
  // The stateful operation reads bias on every round.
  int bias = 0;
  auto sum = world.reduce_scatter_block_init(blocks, block, std::plus<>{});
  auto user =
      world.reduce_scatter_block_init(blocks, user_block, [](int a, int b) { return a + b; });
  auto by_counts = world.reduce_scatter_init(shares, share, counts,
                                             [&bias](int a, int b) { return a + b + bias; });
  counts.assign(counts.size(), -1);  // the request keeps its own counts
  EXPECT_EQ(share.size(), mine_count);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    std::ranges::copy(contribution(rank + 5 * round, blocks.size()), blocks.begin());
    std::ranges::copy(contribution(rank - 2 * round, shares.size()), shares.begin());
    bias = 7 * round;
    std::vector<int> expected_block(2);
    MPI_Reduce_scatter_block(blocks.data(), expected_block.data(), 2, MPI_INT, MPI_SUM,
                             MPI_COMM_WORLD);
    std::vector<int> expected_share(mine_count);
    MPI_Reduce_scatter(shares.data(), expected_share.data(), original_counts.data(), MPI_INT,
                       MPI_SUM, MPI_COMM_WORLD);
    sum.start();
    user.start();
    thinmpi::wait_all(sum, user);
    by_counts.start();
    by_counts.wait();
    EXPECT_EQ(block, expected_block);
    EXPECT_EQ(user_block, expected_block);
    EXPECT_EQ(share, plus_bias(expected_share, world.size(), bias));
  }
}

TEST(ReduceScatterInit, DroppedWhileActiveWaitsAndNeverStartedGoes) {
  auto world = thinmpi::world();
  const auto ranks = static_cast<std::size_t>(world.size());
  const std::vector<int> mine = contribution(world.rank(), 3 * ranks);
  std::vector<int> out(3);
  std::vector<int> expected(3);
  MPI_Reduce_scatter_block(mine.data(), expected.data(), 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const std::vector<int> counts(ranks, 3);
  { auto never_started = world.reduce_scatter_init(mine, out, counts, std::plus<>{}); }
  int zero = 0;
  {
    auto dropped =
        world.reduce_scatter_block_init(mine, out, [&zero](int a, int b) { return a + b + zero; });
    dropped.start();
  }  // the destructor waits for the round
  EXPECT_EQ(out, expected);
  EXPECT_EQ(world.allreduce(1, std::plus<>{}), world.size());
}

// reduce_scatter_init's counts of the wrong length end the job as reduce_scatter's do (checked:
// AlikeErrors); a receive buffer too small at init ends the job, since a persistent call cannot
// take part into scratch (root_only_abort.reduce_scatter_block_init_recv_too_small).
#endif

}  // namespace
