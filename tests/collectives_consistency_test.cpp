// After an argument error in a rooted collective that only the root can see, every rank is
// left consistent (include/thinmpi/collectives/detail/root_checks.hpp): no rank stays inside
// the collective, no block stays in flight for a later call, and the next correct call on the
// same communicator gets its own data. Built twice: unchecked, the root completes into scratch
// and throws while the other ranks return (the cases that end the job instead run as launched
// programs, faults/root_only_abort.cpp); with THINMPI_CHECKED_COLLECTIVES=1, every rank throws
// for every case and the communicator goes on.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "faults/root_only_cases.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using root_only::uz;

/// A correct gatherv of distinct blocks (rank r sends r + 1 copies of 200 + r) at `root`: the
/// root must get exactly these, not blocks an earlier call left in flight.
void expect_next_gatherv_gets_its_own(thinmpi::comm_view world, int root) {
  const std::vector<int> mine(uz(world.rank()) + 1, 200 + world.rank());
  std::vector<int> counts;
  std::vector<int> expected;
  for (int r = 0; r < world.size(); ++r) {
    counts.push_back(r + 1);
    expected.insert(expected.end(), uz(r) + 1, 200 + r);
  }
  std::vector<int> into(expected.size(), -1);
  world.gatherv(mine, into, counts, root);
  if (world.rank() == root) {
    EXPECT_EQ(into, expected);
  }
}

/// A correct scatter at `root`: each rank gets its own block.
void expect_next_scatter_gets_its_own(thinmpi::comm_view world, int root) {
  std::vector<int> all;
  for (int r = 0; r < world.size(); ++r)
    all.insert(all.end(), {300 + r, 400 + r});
  std::vector<int> mine(2, -1);
  world.scatter(all, mine, root);
  EXPECT_EQ(mine, (std::vector<int>{300 + world.rank(), 400 + world.rank()}));
}

void expect_communicator_goes_on(thinmpi::comm_view world, int root) {
  expect_next_gatherv_gets_its_own(world, root);
  expect_next_scatter_gets_its_own(world, root);
  expect_next_gatherv_gets_its_own(world, 0);
}

std::string what_of(const root_only::bad_call& bad, thinmpi::comm_view world, int root, bool& threw,
                    int& error_class) {
  threw = false;
  try {
    bad.call(world, root);
  } catch (const thinmpi::mpi_error& e) {
    threw = true;
    error_class = e.error_class();
    return e.what();
  }
  return {};
}

#if THINMPI_CHECKED_COLLECTIVES

// Checked: every case is an mpi_error on every rank; the root's names its problem, the others
// name the call, the root's rank and the class; nothing was entered, so the communicator goes on.
TEST(CheckedCollectives, EveryRankThrowsAndTheCommunicatorGoesOn) {
  auto world = thinmpi::world();
  const int root = world.size() - 1;
  for (const root_only::bad_call& bad : root_only::cases()) {
    SCOPED_TRACE(bad.name);
    bool threw = false;
    int error_class = 0;
    const std::string what = what_of(bad, world, root, threw, error_class);
    EXPECT_TRUE(threw);
    EXPECT_EQ(error_class, bad.error_class) << what;
    if (world.rank() == root) {
      EXPECT_NE(what.find(bad.root_says), std::string::npos) << what;
    } else {
      const std::string names_root = "rank " + std::to_string(root) + " found an error";
      EXPECT_NE(what.find(names_root), std::string::npos) << what;
      EXPECT_NE(what.find(thinmpi::error_class_name(bad.error_class)), std::string::npos) << what;
      EXPECT_NE(what.find("MPI_"), std::string::npos) << what;
    }
    expect_communicator_goes_on(world, root);
  }
}

#else

// Unchecked: where the root can do its part, it receives into scratch, then throws; the other
// ranks return normally; the next call gets its own blocks.
TEST(RootOnlyErrors, TooSmallRootBuffersCompleteIntoScratchThenThrowOnTheRoot) {
  auto world = thinmpi::world();
  const int root = world.size() - 1;
  for (const root_only::bad_call& bad : root_only::cases()) {
    if (!bad.completes_into_scratch) continue;
    SCOPED_TRACE(bad.name);
    bool threw = false;
    int error_class = 0;
    const std::string what = what_of(bad, world, root, threw, error_class);
    EXPECT_EQ(threw, world.rank() == root) << what;
    if (world.rank() == root) {
      EXPECT_EQ(error_class, bad.error_class) << what;
      EXPECT_NE(what.find(bad.root_says), std::string::npos) << what;
    }
    expect_communicator_goes_on(world, root);
  }
}

#endif

// A root outside the communicator is wrong on every rank alike: every rank throws
// MPI_ERR_ROOT (MPI's own check), in either mode, and the communicator goes on.
TEST(RootOnlyErrors, RootOutsideTheCommunicatorThrowsOnEveryRank) {
  auto world = thinmpi::world();
  for (const int root : {-1, world.size()}) {
    std::vector<int> into(3 * uz(world.size()));
    std::vector<int> mine(3);
    const std::vector<int> counts(uz(world.size()), 3);
    const std::vector<std::pair<const char*, void (*)(thinmpi::comm_view, int, std::vector<int>&,
                                                      std::vector<int>&, const std::vector<int>&)>>
        calls{
            {"gather", [](thinmpi::comm_view w, int r, std::vector<int>& in, std::vector<int>& m,
                          const std::vector<int>&) { w.gather(m, in, r); }},
            {"gatherv", [](thinmpi::comm_view w, int r, std::vector<int>& in, std::vector<int>& m,
                           const std::vector<int>& c) { w.gatherv(m, in, c, r); }},
            {"scatter", [](thinmpi::comm_view w, int r, std::vector<int>& in, std::vector<int>& m,
                           const std::vector<int>&) { w.scatter(in, m, r); }},
            {"scatterv exchanging counts",
             [](thinmpi::comm_view w, int r, std::vector<int>& in, std::vector<int>&,
                const std::vector<int>& c) {
               static_cast<void>(w.scatterv(in, c, r, thinmpi::exchange_counts));
             }},
        };
    for (const auto& [name, call] : calls) {
      SCOPED_TRACE(name);
      try {
        call(world, root, into, mine, counts);
        ADD_FAILURE() << "no error for root " << root;
      } catch (const thinmpi::mpi_error& e) {
        EXPECT_EQ(e.error_class(), MPI_ERR_ROOT) << e.what();
      }
      expect_communicator_goes_on(world, 0);
    }
  }
}

}  // namespace
