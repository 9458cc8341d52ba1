// gather, gather_in_place, gatherv (counts given and exchanged) and igather, checked against
// MPI_Gather / MPI_Gatherv on the same data.

#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::iota_from;
using thinmpi_test::uz;

std::vector<int> c_gather(const std::vector<int>& mine, int root) {
  int size = 0;
  int rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> all(rank == root ? mine.size() * static_cast<std::size_t>(size) : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_INT, all.data(),
             static_cast<int>(mine.size()), MPI_INT, root, MPI_COMM_WORLD);
  return all;
}

TEST(Gather, IntoTheRootsBufferAndIntoANewVector) {
  auto world = thinmpi::world();
  for (int root = 0; root < world.size(); ++root) {
    const std::vector<int> mine = iota_from(10 * world.rank(), 3);
    std::vector<int> into(world.rank() == root ? uz(3 * world.size() + 5) : 0, -1);
    world.gather(mine, into, root);
    auto fresh = world.gather(mine, root);
    const auto expected = c_gather(mine, root);
    ASSERT_EQ(fresh.has_value(), world.rank() == root);
    if (world.rank() == root) {
      EXPECT_EQ(into, expected);  // shrunk to size() blocks
      EXPECT_EQ(*fresh, expected);
    }
  }
}

TEST(Gather, ScalarsAndStrings) {
  auto world = thinmpi::world();
  auto ranks = world.gather(world.rank(), 0);
  auto letters = world.gather(std::string(2, static_cast<char>('a' + world.rank())), 0);
  if (world.rank() == 0) {
    std::vector<int> expected(uz(world.size()));
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(*ranks, expected);
    EXPECT_EQ(letters->size(), 2 * uz(world.size()));
    EXPECT_EQ(letters->back(), static_cast<char>('a' + world.size() - 1));
  } else {
    EXPECT_FALSE(ranks.has_value());
  }
}

TEST(Gather, InPlaceKeepsTheRootsBlock) {
  auto world = thinmpi::world();
  const int root = world.size() / 2;
  std::vector<int> buffer = world.rank() == root ? std::vector<int>(uz(2 * world.size()), -1)
                                                 : iota_from(world.rank(), 2);
  if (world.rank() == root) {
    buffer[uz(2 * root)] = root;
    buffer[uz(2 * root + 1)] = root + 1;
  }
  world.gather_in_place(buffer, root);
  if (world.rank() == root) {
    for (int r = 0; r < world.size(); ++r) {
      EXPECT_EQ(buffer[uz(2 * r)], r);
      EXPECT_EQ(buffer[uz(2 * r + 1)], r + 1);
    }
  }
}

TEST(Gather, GathervWithCountsGivenAndExchanged) {
  auto world = thinmpi::world();
  const int root = 0;
  // Rank r sends r elements: rank 0 contributes nothing.
  const std::vector<int> mine(uz(world.rank()), world.rank());
  std::vector<int> counts(uz(world.size()));
  std::iota(counts.begin(), counts.end(), 0);
  const int total = std::accumulate(counts.begin(), counts.end(), 0);
  std::vector<int> into(world.rank() == root ? uz(total) : 0);
  world.gatherv(mine, into, counts, root);
  auto exchanged = world.gatherv(mine, root, thinmpi::exchange_counts);
  std::vector<int> expected(world.rank() == root ? uz(total) : 0);
  std::vector<int> displs(uz(world.size()));
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  MPI_Gatherv(mine.data(), world.rank(), MPI_INT, expected.data(), counts.data(), displs.data(),
              MPI_INT, root, MPI_COMM_WORLD);
  if (world.rank() == root) {
    EXPECT_EQ(into, expected);
    ASSERT_TRUE(exchanged.has_value());
    EXPECT_EQ(exchanged->data, expected);
    EXPECT_EQ(exchanged->counts, counts);
    EXPECT_EQ(exchanged->displs, displs);
  } else {
    EXPECT_FALSE(exchanged.has_value());
  }
  const auto named = world.gatherv<std::string>(std::string(uz(world.rank()), 'g'), root,
                                                thinmpi::exchange_counts);
  if (world.rank() == root) {
    ASSERT_TRUE(named.has_value());
    EXPECT_EQ(named->data, std::string(uz(total), 'g'));
  }
}

TEST(Gather, NonblockingIntoANewVector) {
  auto world = thinmpi::world();
  const std::vector<int> mine = iota_from(world.rank(), 2);
  auto pending = world.igather(mine, 0);
  auto all = pending.wait();
  const auto expected = c_gather(mine, 0);  // collective: every rank calls it
  EXPECT_EQ(all.has_value(), world.rank() == 0);
  if (all) {
    EXPECT_EQ(*all, expected);
  }
}

// A root buffer too small for size() blocks: the root still receives them (into scratch), then
// throws; the other ranks return. Root-side errors that end the job, and the checked mode, are
// in collectives_consistency_test.cpp and faults/root_only_abort.cpp.
TEST(Gather, TooSmallRootBufferReceivesIntoScratchThenThrowsOnTheRoot) {
  auto world = thinmpi::world();
  std::vector<int> small(uz(world.size() + 1));  // room for fewer than size() blocks of 3
  const std::vector<int> mine(3, 1);
  try {
    world.gather(mine, small, 0);
    EXPECT_NE(world.rank(), 0) << "no error on the root";
  } catch (const thinmpi::mpi_error& e) {
    EXPECT_EQ(world.rank(), 0) << e.what();
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
    EXPECT_NE(std::string(e.what()).find("too small"), std::string::npos) << e.what();
  }
  // No block of the failed call is left in flight: the next gather gets its own.
  auto all = world.gather(world.rank(), 0);
  EXPECT_EQ(all.has_value(), world.rank() == 0);
  if (all) {
    for (int r = 0; r < world.size(); ++r)
      EXPECT_EQ((*all)[uz(r)], r);
  }
}

}  // namespace
