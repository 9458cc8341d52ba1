// reduce_scatter_block and reduce_scatter: every form against MPI_Reduce_scatter_block /
// MPI_Reduce_scatter called directly in the same test, and the size errors raised before MPI.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

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
  if (ranks > 1) {
    try {
      static_cast<void>(world.reduce_scatter_block(std::vector<int>(ranks + 1), std::plus<>{}));
      FAIL() << "expected thinmpi::mpi_error";
    } catch (const thinmpi::mpi_error& e) {
      EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
      EXPECT_NE(std::string(e.what()).find("do not split into"), std::string::npos) << e.what();
    }
  }
  std::vector<int> small(1);
  try {
    world.reduce_scatter_block(std::vector<int>(2 * ranks), small, std::plus<>{});
    FAIL() << "expected thinmpi::mpi_error";
  } catch (const thinmpi::mpi_error& e) {
    EXPECT_EQ(e.error_class(), MPI_ERR_BUFFER);
    EXPECT_NE(std::string(e.what()).find("holds 1 elements, fewer than the 2"), std::string::npos)
        << e.what();
  }
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
}

TEST(ReduceScatter, CountErrorsBeforeMpi) {
  auto world = thinmpi::world();
  const std::vector<int> wrong_length(static_cast<std::size_t>(world.size()) + 1, 1);
  const std::vector<int> mine(wrong_length.size());
  try {
    static_cast<void>(world.reduce_scatter(mine, wrong_length, std::plus<>{}));
    FAIL() << "expected thinmpi::mpi_error";
  } catch (const thinmpi::mpi_error& e) {
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
    EXPECT_NE(std::string(e.what()).find("counts given for"), std::string::npos) << e.what();
  }
  const std::vector<int> counts(static_cast<std::size_t>(world.size()), 2);
  try {
    static_cast<void>(world.reduce_scatter(std::vector<int>(1), counts, std::plus<>{}));
    FAIL() << "expected thinmpi::mpi_error";
  } catch (const thinmpi::mpi_error& e) {
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
    EXPECT_NE(std::string(e.what()).find("add up to"), std::string::npos) << e.what();
  }
  EXPECT_EQ(world.allreduce(1, std::plus<>{}), world.size());
}

TEST(IreduceScatterBlock, MatchesC) {
  auto world = thinmpi::world();
  const auto ranks = static_cast<std::size_t>(world.size());
  const std::vector<int> mine = contribution(world.rank(), 2 * ranks);
  std::vector<int> expected(2);
  MPI_Reduce_scatter_block(mine.data(), expected.data(), 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  auto allocated = world.ireduce_scatter_block(mine, std::plus<>{});
  std::vector<int> into(2);
  const int zero = 0;
  auto borrowed =
      world.ireduce_scatter_block(mine, into, [zero](int a, int b) { return a + b + zero; });
  EXPECT_EQ(allocated.wait(), expected);
  borrowed.wait();
  EXPECT_EQ(into, expected);
  EXPECT_THROW(
      static_cast<void>(world.ireduce_scatter_block(mine, std::vector<int>(1), std::plus<>{})),
      thinmpi::mpi_error);
}

}  // namespace
