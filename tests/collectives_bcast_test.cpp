// bcast, bcast with exchange_counts, ibcast and bcast_init, checked against MPI_Bcast.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::iota_from;

struct particle {
  double position[3];
  int id;
};

TEST(Bcast, ScalarsRangesAndStructsFromEveryRoot) {
  auto world = thinmpi::world();
  for (int root = 0; root < world.size(); ++root) {
    std::vector<int> values = world.rank() == root ? iota_from(root, 5) : std::vector<int>(5, -1);
    std::vector<int> expected = values;
    MPI_Bcast(expected.data(), 5, MPI_INT, root, MPI_COMM_WORLD);
    world.bcast(values, root);
    EXPECT_EQ(values, expected);
    EXPECT_EQ(values, iota_from(root, 5));

    double scalar = world.rank() == root ? 2.5 * root : 0.0;
    world.bcast(scalar, root);
    EXPECT_EQ(scalar, 2.5 * root);

    particle p = world.rank() == root ? particle{{1, 2, 3}, root} : particle{};
    world.bcast(p, root);
    EXPECT_EQ(p.id, root);
    EXPECT_EQ(p.position[2], 3);

    std::array<char, 4> text{};
    if (world.rank() == root) text = {'a', 'b', 'c', 'd'};
    world.bcast(std::span(text), root);  // a view: written through
    EXPECT_EQ(text[3], 'd');
  }
}

TEST(Bcast, ExchangeCountsResizesToTheRootsSize) {
  auto world = thinmpi::world();
  std::string text = world.rank() == 0 ? std::string(100, 'x') : std::string("stale");
  world.bcast(text, 0, thinmpi::exchange_counts);
  EXPECT_EQ(text, std::string(100, 'x'));
  std::vector<double> empty = world.rank() == 0 ? std::vector<double>{} : std::vector<double>(3);
  world.bcast(empty, 0, thinmpi::exchange_counts);
  EXPECT_TRUE(empty.empty());
}

TEST(Bcast, NonblockingBorrowsNamedBuffersAndOwnsMovedOnes) {
  auto world = thinmpi::world();
  const int root = world.size() - 1;
  std::vector<int> named = world.rank() == root ? iota_from(7, 4) : std::vector<int>(4);
  auto borrowed = world.ibcast(named, root);
  auto owned =
      world.ibcast(world.rank() == root ? std::string("owned") : std::string(5, ' '), root);
  static_assert(std::is_void_v<decltype(borrowed.wait())>);
  thinmpi::wait_all(borrowed);
  EXPECT_EQ(named, iota_from(7, 4));
  EXPECT_EQ(owned.wait(), "owned");
}

TEST(Bcast, DroppedNonblockingBroadcastCompletesBeforeItsBufferGoes) {
  auto world = thinmpi::world();
  {
    auto dropped = world.ibcast(std::vector<int>(1000, world.rank() == 0 ? 9 : 0), 0);
  }  // waits here: the vector it owns outlives the broadcast
  std::vector<int> after(2, world.rank());
  world.bcast(after, 0);
  EXPECT_EQ(after, std::vector<int>(2, 0));
}

TEST(Bcast, PersistentRoundsSeeTheCurrentContents) {
  auto world = thinmpi::world();
  std::vector<int> buffer(3);
  auto round = world.bcast_init(buffer, 0);
  for (int step = 0; step < 3; ++step) {
    // Write through the buffer: assigning a new vector would move its storage away from the
    // address the persistent request was set up with.
    if (world.rank() == 0) std::ranges::copy(iota_from(step, 3), buffer.begin());
    round.start();
    round.wait();
    EXPECT_EQ(buffer, iota_from(step, 3));
  }
}

// A root outside the communicator: the job ends (root_only_abort.bcast_root_outside_on_one);
// checked, every rank throws MPI_ERR_ROOT naming it (RootsOutsideTheCommunicator in
// collectives_consistency_checked_test).

}  // namespace
