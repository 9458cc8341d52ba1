// scatter, scatter_in_place, scatterv (counts given and exchanged) and iscatter, checked
// against MPI_Scatter / MPI_Scatterv on the same data.

#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::iota_from;
using thinmpi_test::uz;

TEST(Scatter, BlocksFromEveryRoot) {
  auto world = thinmpi::world();
  for (int root = 0; root < world.size(); ++root) {
    const std::vector<int> all =
        world.rank() == root ? iota_from(0, uz(2 * world.size())) : std::vector<int>{};
    std::vector<int> mine(2, -1);
    world.scatter(all, mine, root);
    std::vector<int> expected(2);
    MPI_Scatter(all.data(), 2, MPI_INT, expected.data(), 2, MPI_INT, root, MPI_COMM_WORLD);
    EXPECT_EQ(mine, expected);
    EXPECT_EQ(mine, iota_from(2 * world.rank(), 2));
  }
}

TEST(Scatter, InPlaceLeavesTheRootsBlock) {
  auto world = thinmpi::world();
  std::vector<int> buffer =
      world.rank() == 0 ? iota_from(0, uz(3 * world.size())) : std::vector<int>(3);
  world.scatter_in_place(buffer, 0);
  if (world.rank() != 0) {
    EXPECT_EQ(buffer, iota_from(3 * world.rank(), 3));
  } else {
    EXPECT_EQ(buffer, iota_from(0, uz(3 * world.size())));
  }
}

TEST(Scatter, ScattervWithCountsGivenAndExchanged) {
  auto world = thinmpi::world();
  // Rank r gets r elements of value r: rank 0 gets nothing.
  std::vector<int> counts(uz(world.size()));
  std::iota(counts.begin(), counts.end(), 0);
  std::vector<int> displs(uz(world.size()));
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<int> all;
  for (int r = 0; r < world.size(); ++r)
    all.insert(all.end(), uz(r), r);
  std::vector<int> mine(uz(world.rank()));
  world.scatterv(all, counts, displs, mine, 0);
  EXPECT_EQ(mine, std::vector<int>(uz(world.rank()), world.rank()));
  std::vector<int> expected(uz(world.rank()));
  MPI_Scatterv(all.data(), counts.data(), displs.data(), MPI_INT, expected.data(), world.rank(),
               MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(mine, expected);
  const auto exchanged =
      world.scatterv(world.rank() == 0 ? all : std::vector<int>{},
                     world.rank() == 0 ? counts : std::vector<int>{}, 0, thinmpi::exchange_counts);
  EXPECT_EQ(exchanged, expected);
  using ints = std::vector<int, thinmpi::default_init_allocator<int>>;
  const ints named = world.scatterv<ints>(world.rank() == 0 ? all : std::vector<int>{},
                                          world.rank() == 0 ? counts : std::vector<int>{}, 0,
                                          thinmpi::exchange_counts);
  EXPECT_EQ(std::vector<int>(named.begin(), named.end()), expected);
}

TEST(Scatter, NonblockingOwnsAMovedInBuffer) {
  auto world = thinmpi::world();
  // Each rank's block is its own ("aA" to rank 0, "bB" to rank 1, ...), so a block routed to
  // the wrong rank shows; the root is the last rank, so rank 0 is not the root's own block.
  const int root = world.size() - 1;
  std::vector<char> all;
  if (world.rank() == root) {
    for (int r = 0; r < world.size(); ++r) {
      all.push_back(static_cast<char>('a' + r));
      all.push_back(static_cast<char>('A' + r));
    }
  }
  auto pending = world.iscatter(all, std::string(2, ' '), root);
  const std::string expected{static_cast<char>('a' + world.rank()),
                             static_cast<char>('A' + world.rank())};
  EXPECT_EQ(pending.wait(), expected);
}

// A root with fewer than size() blocks ends the job (the other ranks would receive data that
// is not this call's): faults/root_only_abort.cpp, and collectives_consistency_test.cpp for
// the checked mode, where every rank throws.

}  // namespace
