// scan and exscan: every form against MPI_Scan / MPI_Exscan called directly in the same test,
// with a predefined operation, a non-commutative user operation and a stateful one; the
// persistent forms over several rounds whose send buffers change between rounds.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

std::vector<long> contribution(int rank) {
  return {rank + 1L, 2L * rank, 7L, -rank - 0L};
}

std::vector<long> c_prefix(const std::vector<long>& mine, bool exclusive) {
  std::vector<long> out(mine.size(), -99);
  const auto call = exclusive ? &MPI_Exscan : &MPI_Scan;
  call(mine.data(), out.data(), static_cast<int>(mine.size()), MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

/// Associative and not commutative: keeps the left operand, so a scan that combines in rank
/// order gives every rank rank 0's value.
long first(long a, long) {
  return a;
}

TEST(Scan, AllFormsMatchC) {
  auto world = thinmpi::world();
  const std::vector<long> mine = contribution(world.rank());
  const std::vector<long> expected = c_prefix(mine, false);
  EXPECT_EQ(world.scan(mine, std::plus<>{}), expected);
  std::vector<long> into(10);
  world.scan(std::span<const long>(mine), into, std::plus<>{});
  EXPECT_EQ(into, expected);
  std::vector<long> in_place = mine;
  world.scan_in_place(in_place, std::plus<>{});
  EXPECT_EQ(in_place, expected);
  EXPECT_EQ(world.scan(world.rank() + 5L, &first), 5L);  // rank order: rank 0's value
  long base = 1000;
  EXPECT_EQ(world.scan(1L, [base](long a, long b) { return (a + b) % base; }), world.rank() + 1L);
  EXPECT_TRUE(world.scan(std::vector<long>{}, std::plus<>{}).empty());
}

TEST(Exscan, AllFormsMatchC) {
  auto world = thinmpi::world();
  const std::vector<long> mine = contribution(world.rank());
  const std::vector<long> expected = c_prefix(mine, true);
  const bool first_rank = world.rank() == 0;
  const std::optional<std::vector<long>> allocated = world.exscan(mine, std::plus<>{});
  ASSERT_EQ(allocated.has_value(), !first_rank);
  if (!first_rank) {
    EXPECT_EQ(*allocated, expected);
  }
  std::vector<long> into(mine.size());
  world.exscan(mine, into, std::plus<>{});
  std::vector<long> in_place = mine;
  world.exscan_in_place(in_place, std::plus<>{});
  if (!first_rank) {
    EXPECT_EQ(into, expected);
    EXPECT_EQ(in_place, expected);
  }
  const std::optional<long> offset = world.exscan(3L, [](long a, long b) { return a + b; });
  EXPECT_EQ(offset.value_or(0), 3L * world.rank());
}

TEST(Scan, ReceiveTooSmallIsReported) {
  auto world = thinmpi::world();
  const std::vector<long> mine(3, 1);
  std::vector<long> small;
  try {
    world.exscan(mine, small, std::plus<>{});
    FAIL() << "expected thinmpi::mpi_error";
  } catch (const thinmpi::mpi_error& e) {
    // Every rank's recv is too small: each reduces into scratch, then throws the shared
    // sentence (detail/root_checks.hpp).
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
    EXPECT_EQ(e.operation(), "MPI_Exscan");
    EXPECT_NE(std::string(e.what()).find("is too small for"), std::string::npos) << e.what();
  }
  EXPECT_EQ(world.scan(1, std::plus<>{}), world.rank() + 1);
}

TEST(Iscan, AllFormsMatchC) {
  auto world = thinmpi::world();
  const std::vector<long> mine = contribution(world.rank());
  const std::vector<long> inclusive = c_prefix(mine, false);
  const std::vector<long> exclusive = c_prefix(mine, true);
  auto allocated = world.iscan(mine, std::plus<>{});
  std::vector<long> into(mine.size());
  auto borrowed = world.iscan(mine, into, std::plus<>{});
  auto in_place = world.iscan_in_place(std::vector<long>(mine), std::plus<>{});
  auto ex_allocated = world.iexscan(std::vector<long>(mine), std::plus<>{});
  std::vector<long> ex_into(mine.size());
  auto ex_borrowed = world.iexscan(mine, ex_into, [](long a, long b) { return a + b; });
  std::vector<long> ex_in_place = mine;
  auto ex_in_place_request = world.iexscan_in_place(ex_in_place, std::plus<>{});
  EXPECT_EQ(allocated.wait(), inclusive);
  borrowed.wait();
  EXPECT_EQ(into, inclusive);
  EXPECT_EQ(in_place.wait(), inclusive);
  const std::optional<std::vector<long>> ex = ex_allocated.wait();
  ex_borrowed.wait();
  ex_in_place_request.wait();
  ASSERT_EQ(ex.has_value(), world.rank() != 0);
  if (world.rank() != 0) {
    EXPECT_EQ(*ex, exclusive);
    EXPECT_EQ(ex_into, exclusive);
    EXPECT_EQ(ex_in_place, exclusive);
  }
}

#if THINMPI_HAS_PERSISTENT_COLLECTIVES
/// What a prefix over `operands` values with `a + b + bias` adds to the plain sum: one bias
/// per application of the operation, whatever order MPI combines them in.
std::vector<long> plus_bias(std::vector<long> sums, int operands, long bias) {
  for (long& sum : sums)
    sum += std::max(operands - 1, 0) * bias;
  return sums;
}

TEST(ScanInit, RoundsReduceTheCurrentContents) {
  auto world = thinmpi::world();
  const int rank = world.rank();
  std::vector<long> mine(4);
  std::vector<long> inclusive(4);
  std::vector<long> in_place(4);
  std::vector<long> exclusive(4);
  std::vector<long> ex_in_place(4);
  long bias = 0;  // the stateful operations read it on every round
  const auto biased = [&bias](long a, long b) { return a + b + bias; };
  auto sum = world.scan_init(mine, inclusive, std::plus<>{});
  auto stateful = world.scan_in_place_init(in_place, biased);
  auto ex_user = world.exscan_init(mine, exclusive, [](long a, long b) { return a + b; });
  auto ex_stateful = world.exscan_in_place_init(ex_in_place, biased);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    std::ranges::copy(contribution(rank + 3 * round), mine.begin());
    std::ranges::copy(mine, in_place.begin());
    std::ranges::copy(mine, ex_in_place.begin());
    bias = 10L * round;
    const std::vector<long> expected = c_prefix(mine, false);
    const std::vector<long> expected_ex = c_prefix(mine, true);
    sum.start();
    stateful.start();
    ex_user.start();
    ex_stateful.start();
    thinmpi::wait_all(sum, stateful);
    ex_user.wait();
    ex_stateful.wait();
    EXPECT_EQ(inclusive, expected);
    EXPECT_EQ(in_place, plus_bias(expected, rank + 1, bias));
    if (rank != 0) {
      EXPECT_EQ(exclusive, expected_ex);
      EXPECT_EQ(ex_in_place, plus_bias(expected_ex, rank, bias));
    }
  }
}

TEST(ScanInit, NonCommutativeUserOperationKeepsRankOrder) {
  auto world = thinmpi::world();
  long mine = 0;
  long prefix = -1;
  auto scan = world.scan_init(mine, prefix, &first);
  for (long round = 1; round <= 3; ++round) {
    mine = world.rank() + 100 * round;
    scan.start();
    scan.wait();
    EXPECT_EQ(prefix, 100 * round);  // rank 0's value of this round
  }
}

TEST(ScanInit, DroppedWhileActiveWaitsAndNeverStartedGoes) {
  auto world = thinmpi::world();
  const std::vector<long> mine = contribution(world.rank());
  std::vector<long> out(mine.size());
  { auto never_started = world.exscan_init(mine, out, std::plus<>{}); }
  long zero = 0;
  {
    auto dropped = world.scan_init(mine, out, [&zero](long a, long b) { return a + b + zero; });
    dropped.start();
  }  // the destructor waits for the round
  EXPECT_EQ(out, c_prefix(mine, false));
  EXPECT_EQ(world.scan(1, std::plus<>{}), world.rank() + 1);
}

// A persistent scan whose recv is too small ends the job (the others would start their rounds
// alone): root_only_abort.scan_init_recv_too_small; checked, every rank throws
// (collectives_consistency_checked_test).
#endif

}  // namespace
