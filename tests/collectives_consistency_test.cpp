// After an argument error in a rooted collective that only the root can see, or in another
// collective that only one rank can see (its receive buffer, its own counts; every argument of
// a neighborhood collective; an argument every rank must pass alike, such as a root or
// recvcounts, wrong on one rank; a sparse exchange's destination or tag; a communicator
// constructor's color or ranks), every rank is left consistent
// (include/thinmpi/collectives/detail/root_checks.hpp): no rank stays inside the collective, no
// block stays in flight for a later call, and the next correct call on the same communicator
// gets its own data. Built twice: unchecked, the root completes into scratch and throws while
// the other ranks return (the cases that end the job instead run as launched programs,
// faults/root_only_abort.cpp); with THINMPI_CHECKED_COLLECTIVES=1, every rank throws for every
// case, and for arguments every rank gets wrong alike, and the communicator goes on.

#include <gtest/gtest.h>

#include <climits>
#include <functional>
#include <string>
#include <vector>

#include "faults/root_only_cases.hpp"
#include "thinmpi/thinmpi.hpp"
#if THINMPI_CHECKED_COLLECTIVES
#include "support/rooted_operations.hpp"
#endif

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

/// A correct alltoallv (rank r sends d + 1 copies of 1000 r + d to rank d) and allreduce: each
/// rank gets exactly its blocks and the sum, not what an earlier call left in flight.
void expect_next_alltoallv_and_allreduce_get_their_own(thinmpi::comm_view world) {
  std::vector<int> out;
  std::vector<int> sendcounts;
  std::vector<int> recvcounts;
  std::vector<int> expected;
  const int me = world.rank();
  for (int d = 0; d < world.size(); ++d) {
    out.insert(out.end(), uz(d) + 1, 1000 * me + d);
    sendcounts.push_back(d + 1);
    recvcounts.push_back(me + 1);
    expected.insert(expected.end(), uz(me) + 1, 1000 * d + me);
  }
  std::vector<int> into(expected.size(), -1);
  world.alltoallv(out, sendcounts, into, recvcounts);
  EXPECT_EQ(into, expected);
  const int n = world.size();
  EXPECT_EQ(world.allreduce(me + 1, std::plus<>{}), n * (n + 1) / 2);
}

/// A correct neighbor_allgather on the ring of root_only_neighbor_cases.hpp: each rank gets
/// exactly its two neighbors' blocks, not what an earlier neighborhood call left in flight.
void expect_next_neighbor_allgather_gets_its_own(thinmpi::comm_view world) {
  const auto& ring = root_only::ring_of(world);
  const int prev = (ring.rank() + ring.size() - 1) % ring.size();
  const int next = (ring.rank() + 1) % ring.size();
  std::vector<int> into(4, -1);
  ring.neighbor_allgather(std::vector<int>{500 + ring.rank(), 600 + ring.rank()}, into);
  EXPECT_EQ(into, (std::vector<int>{500 + prev, 600 + prev, 500 + next, 600 + next}));
}

void expect_communicator_goes_on(thinmpi::comm_view world, int root) {
  expect_next_neighbor_allgather_gets_its_own(world);
  expect_next_gatherv_gets_its_own(world, root);
  expect_next_scatter_gets_its_own(world, root);
  expect_next_alltoallv_and_allreduce_get_their_own(world);
  expect_next_gatherv_gets_its_own(world, 0);
  // Once the one-sided cases have made their window, it goes on too: a correct fence epoch on
  // it gets its own data.
  if (root_only::window_slot()) {
    EXPECT_TRUE(root_only::next_epoch_gets_its_own(world));
  }
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
    if (world.rank() == root || bad.on_every_rank) {
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

// Checked: values MPI requires alike that no rank can check alone (a root, the size of a block
// or a broadcast's buffer, a reduction's count) passed differently on the last rank. Unchecked,
// MPI reports nothing for most of these (a broadcast from two roots returns data that is not
// the call's; MPICH takes an alltoall whose blocks differ, reading past the smaller); checked,
// the agreement carries each value's range and every rank throws the same error.
struct differing_call {
  const char* name;
  int error_class;
  const char* says;
  void (*call)(thinmpi::comm_view world, int last);
};

int differs_on(thinmpi::comm_view w, int last, int good, int other) {
  return w.rank() == last ? other : good;
}

TEST(CheckedCollectives, ValuesThatDifferBetweenRanksThrowOnEveryRank) {
  using thinmpi::comm_view;
  const std::vector<differing_call> cases{
      {"bcast from another root", MPI_ERR_ROOT, "the ranks passed different roots (from 0 to 1)",
       [](comm_view w, int last) {
         int x = w.rank();
         w.bcast(x, differs_on(w, last, 0, 1));
       }},
      {"reduce to another root", MPI_ERR_ROOT, "the ranks passed different roots (from 0 to 1)",
       [](comm_view w, int last) {
         std::vector<int> sum(1);
         w.reduce(w.rank(), sum, std::plus<>{}, differs_on(w, last, 0, 1));
       }},
      {"gatherv with exchange_counts to another root", MPI_ERR_ROOT,
       "the ranks passed different roots (from 0 to 1)",
       [](comm_view w, int last) {
         static_cast<void>(w.gatherv(std::vector<int>(2, w.rank()), differs_on(w, last, 0, 1),
                                     thinmpi::exchange_counts));
       }},
      {"alltoall of other blocks", MPI_ERR_COUNT,
       "the ranks passed different blocks, in bytes (from 4 to 8)",
       [](comm_view w, int last) {
         const std::vector<int> send(uz(w.size() * differs_on(w, last, 1, 2)), w.rank());
         std::vector<int> into(send.size());
         w.alltoall(send, into);
       }},
      {"ialltoall of other blocks", MPI_ERR_COUNT,
       "the ranks passed different send buffers, in bytes",
       [](comm_view w, int last) {
         std::vector<int> into(uz(w.size() * 2));
         w.ialltoall(std::vector<int>(uz(w.size() * differs_on(w, last, 1, 2)), w.rank()), into)
             .wait();
       }},
      {"allgather of other blocks", MPI_ERR_COUNT,
       "the ranks passed different blocks, in bytes (from 4 to 8)",
       [](comm_view w, int last) {
         std::vector<int> into(uz(w.size() * 2));
         w.allgather(std::vector<int>(uz(differs_on(w, last, 1, 2)), w.rank()), into);
       }},
      {"bcast of a longer buffer", MPI_ERR_COUNT,
       "the ranks passed different buffers, in bytes (from 12 to 16)",
       [](comm_view w, int last) {
         std::vector<int> v(uz(differs_on(w, last, 3, 4)), w.rank());
         w.bcast(v, 0);
       }},
      {"allreduce of another count", MPI_ERR_COUNT,
       "the ranks passed different counts, in bytes (from 8 to 12)",
       [](comm_view w, int last) {
         const std::vector<int> mine(uz(differs_on(w, last, 2, 3)), 1);
         std::vector<int> sum(3);
         w.allreduce(mine, sum, std::plus<>{});
       }},
  };
  auto world = thinmpi::world();
  const int last = world.size() - 1;
  for (const differing_call& bad : cases) {
    SCOPED_TRACE(bad.name);
    try {
      bad.call(world, last);
      ADD_FAILURE() << "no error";
    } catch (const thinmpi::mpi_error& e) {
      const std::string what = e.what();
      EXPECT_EQ(e.error_class(), bad.error_class) << what;
      EXPECT_NE(what.find(bad.says), std::string::npos) << what;
      EXPECT_NE(what.find("every rank must pass the same"), std::string::npos) << what;
    }
    expect_communicator_goes_on(world, last);
  }
}

// Checked: a block_layout whose blocks are all alike checks what this rank sends against their
// one count (without asking MPI for the rank); a rank that sends another count is an mpi_error
// on every rank, the communicator goes on, and the right counts then pass.
TEST(CheckedCollectives, AnAlikeLayoutChecksEachRanksOwnCount) {
  auto world = thinmpi::world();
  const int last = world.size() - 1;
  const thinmpi::block_layout twos(std::vector<int>(uz(world.size()), 2));
  std::vector<int> all(2 * uz(world.size()));
  try {
    world.allgatherv(std::vector<int>(world.rank() == last ? 3 : 2, world.rank()), all, twos);
    ADD_FAILURE() << "no error";
  } catch (const thinmpi::mpi_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT) << what;
    if (world.rank() == last) {
      EXPECT_NE(what.find("recvcounts[" + std::to_string(last) + "] is 2 but this rank sends 3"),
                std::string::npos)
          << what;
    }
  }
  expect_communicator_goes_on(world, last);
  world.allgatherv(std::vector<int>(2, world.rank()), all, twos);
  std::vector<int> expected;
  for (int r = 0; r < world.size(); ++r)
    expected.insert(expected.end(), 2, r);
  EXPECT_EQ(all, expected);
}

// Checked: counts whose displacements pass INT_MAX, with receive buffers of 8 bytes, on every
// rank. Where no _c call exists (Open MPI 4.1, 3 or more ranks) that is the error; elsewhere
// the buffer is too small for the blocks. Unchecked, each rank would end the job (alltoallv) or
// complete into gigabytes of scratch, so these run here (from collectives_allgather_test and
// collectives_alltoall_test).
TEST(CheckedCollectives, DisplacementsPastIntMaxAreCheckedBeforeMpi) {
  auto world = thinmpi::world();
  const bool past_int = world.size() >= 3 && THINMPI_HAS_LARGE_COUNT_CALLS == 0;
  const auto expect_error = [&](const char* call, auto&& f) {
    SCOPED_TRACE(call);
    try {
      f();
      ADD_FAILURE() << "no error";
    } catch (const thinmpi::mpi_error& e) {
      const std::string what = e.what();
      EXPECT_EQ(e.error_class(), MPI_ERR_COUNT) << what;
      const std::string says =
          past_int ? std::string("displacements past INT_MAX need the MPI-4 large-count call ") +
                         call + "_c"
                   : "the receive buffer of 8 x MPI_CHAR = 8 bytes is too small";
      EXPECT_NE(what.find(says), std::string::npos) << what;
    }
    expect_communicator_goes_on(world, 0);
  };
  std::vector<char> tiny(8);
  std::vector<int> counts(uz(world.size()), INT_MAX);
  counts[uz(world.rank())] = 1;  // this rank's own block: what it sends
  expect_error("MPI_Allgatherv", [&] { world.allgatherv('x', tiny, counts); });
  // The nonblocking form takes int displacements on every MPI library.
  try {
    static_cast<void>(world.iallgatherv('x', tiny, counts));
    ADD_FAILURE() << "no error";
  } catch (const thinmpi::mpi_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT) << what;
    EXPECT_NE(
        what.find(world.size() >= 3 ? "nonblocking and persistent collectives take counts and "
                                      "displacements up to INT_MAX"
                                    : "the receive buffer of 8 x MPI_CHAR = 8 bytes is too small"),
        std::string::npos)
        << what;
  }
  expect_communicator_goes_on(world, 0);
  const std::vector<int> huge(uz(world.size()), INT_MAX);
  const std::vector<int> none(uz(world.size()), 0);
  expect_error("MPI_Alltoallv", [&] { world.alltoallv(tiny, none, tiny, huge); });
}

/// An error every rank sees alike: arguments MPI requires to be the same on every rank.
struct alike_call {
  const char* name;
  int error_class;
  const char* says;  ///< part of every rank's sentence
  void (*call)(thinmpi::comm_view world);
};

// Checked: arguments every rank gives alike (MPI requires it) and gets wrong alike, and the
// sparse exchange's and the communicator constructors' arguments wrong on every rank: every
// rank throws its own error before MPI is called, after the agreement, and the communicator
// goes on. (Unchecked each rank ends the job: it cannot know that the others passed the same;
// root_only_abort.alltoall_uneven_on_every_rank.) The sentences are singular where the count
// is one.
TEST(AlikeErrors, EveryRankThrowsAndTheCommunicatorGoesOn) {
  using thinmpi::comm_view;
  using ints = std::vector<int>;
  const std::vector<alike_call> calls{
      {"allgatherv recvcounts of one entry", MPI_ERR_ARG, "recvcounts has 1 entry;",
       [](comm_view w) {
         ints into(8);
         w.allgatherv(ints(1, 5), into, ints{1});
       }},
      {"allgatherv recvcounts one too many", MPI_ERR_ARG, "entries; the communicator has",
       [](comm_view w) {
         ints all(100);
         w.allgatherv(0, all, ints(uz(w.size()) + 1, 0));
       }},
      {"allgatherv a negative recvcount", MPI_ERR_ARG, "] is -4; it must not be negative",
       [](comm_view w) {
         ints all(100);
         ints counts(uz(w.size()), 1);
         counts.back() = -4;
         w.allgatherv(0, all, counts);
       }},
      {"reduce_scatter counts one too many", MPI_ERR_ARG, "recvcounts has",
       [](comm_view w) {
         ints into(2);
         w.reduce_scatter(ints(2 * uz(w.size()), 1), into, ints(uz(w.size()) + 1, 2),
                          std::plus<>{});
       }},
      {"reduce_scatter counts adding up to less", MPI_ERR_COUNT, "the counts add up to",
       [](comm_view w) {
         ints into(2);
         w.reduce_scatter(ints(2 * uz(w.size()) + 1, 1), into, ints(uz(w.size()), 2),
                          std::plus<>{});
       }},
      {"reduce_scatter_init counts one too many", MPI_ERR_ARG, "recvcounts has",
       [](comm_view w) {
         const ints mine(2 * uz(w.size()) + 2, 1);
         ints into(2);
         const ints counts(uz(w.size()) + 1, 2);
         auto request = w.reduce_scatter_init(mine, into, counts, std::plus<>{});
       }},
      {"reduce_scatter_block uneven", MPI_ERR_COUNT, "equal blocks, one per rank",
       [](comm_view w) {
         ints into(2);
         w.reduce_scatter_block(ints(2 * uz(w.size()) + 1, 1), into, std::plus<>{});
       }},
      {"alltoall uneven", MPI_ERR_COUNT, "equal blocks, one per rank",
       [](comm_view w) {
         ints into(8);
         w.alltoall(ints(uz(w.size()) + 1, 1), into);
       }},
      {"alltoall_in_place uneven", MPI_ERR_COUNT, "equal blocks, one per rank",
       [](comm_view w) {
         ints buffer(uz(w.size()) + 1, 1);
         w.alltoall_in_place(buffer);
       }},
      {"allgatherv with a layout of one block too many", MPI_ERR_ARG,
       "the block_layout (recvcounts) has",
       [](comm_view w) {
         const thinmpi::block_layout one_more(ints(uz(w.size()) + 1, 0));
         ints all(100);
         w.allgatherv(0, all, one_more);
       }},
      {"allgather_in_place uneven", MPI_ERR_COUNT, "equal blocks, one per rank",
       [](comm_view w) {
         ints buffer(uz(w.size()) + 1, 1);
         w.allgather_in_place(buffer);
       }},
      {"bcast exchanging counts from root -1", MPI_ERR_ROOT, "MPI_Bcast(root -1)",
       [](comm_view w) {
         ints values(3, 1);
         w.bcast(values, -1, thinmpi::exchange_counts);
       }},
      {"sparse_exchange to a rank outside", MPI_ERR_RANK,
       "message 1 is for rank -4, which is not a rank of this communicator of",
       [](comm_view w) {
         const std::vector<std::pair<int, ints>> out{{0, {1}}, {-4, {2}}};
         static_cast<void>(w.sparse_exchange(out, 1000));
       }},
      {"sparse_exchange with a negative tag", MPI_ERR_TAG, "tag -3 is negative",
       [](comm_view w) {
         static_cast<void>(w.sparse_exchange(std::vector<std::pair<int, ints>>{}, -3));
       }},
      {"split with a negative color", MPI_ERR_ARG, "color -2 is negative",
       [](comm_view w) { static_cast<void>(w.split(-2)); }},
      {"subset with a rank outside", MPI_ERR_RANK, "is outside this communicator of",
       [](comm_view w) {
         static_cast<void>(w.subset({0, w.size() + 4}));
       }},
  };
  auto world = thinmpi::world();
  for (const alike_call& c : calls) {
    SCOPED_TRACE(c.name);
    try {
      c.call(world);
      ADD_FAILURE() << "no error";
    } catch (const thinmpi::mpi_error& e) {
      EXPECT_EQ(e.error_class(), c.error_class) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
    }
    expect_communicator_goes_on(world, 0);
  }
}

// Checked: a root outside the communicator, passed by every rank or by the last rank only, in
// every rooted form (support/rooted_operations.hpp) and the serialized ones: every rank throws
// MPI_ERR_ROOT; a rank that passed the root names it (the error's peer() and "(root R"), the
// others name the rank that found it; the communicator goes on. (Unchecked, MPI checks the root
// on the ranks that pass it and those ranks end the job: root_only_abort.*_root_outside_*.)
TEST(RootsOutsideTheCommunicator, EveryRankThrowsMpiErrRoot) {
  auto world = thinmpi::world();
  const int last = world.size() - 1;
  std::vector<thinmpi_test::collective_operation> ops = thinmpi_test::rooted_operations();
  using strings = std::vector<std::string>;
  ops.push_back({"bcast of serialized", true, [](thinmpi::comm_view c, int root, int) {
                   strings names{"a", "bc"};
                   c.bcast(thinmpi::serialized(names), root, thinmpi::exchange_counts);
                 }});
  ops.push_back({"gatherv of serialized", true, [](thinmpi::comm_view c, int root, int) {
                   const strings names{"a", "bc"};
                   static_cast<void>(
                       c.gatherv(thinmpi::serialized(names), root, thinmpi::exchange_counts));
                 }});
  ops.push_back({"scatterv of serialized", true, [](thinmpi::comm_view c, int root, int n) {
                   const strings names(uz(n), "x");
                   static_cast<void>(
                       c.scatterv(thinmpi::serialized(names), root, thinmpi::exchange_counts));
                 }});
  for (const auto& op : ops) {
    for (const int outside : {world.size(), world.size() + 5, -7}) {
      for (const bool every_rank : {true, false}) {
        SCOPED_TRACE(std::string(op.name) + " with root " + std::to_string(outside) +
                     (every_rank ? " on every rank" : " on the last rank"));
        const bool mine = every_rank || world.rank() == last;
        const int root = mine ? outside : 0;
        try {
          op.call(world, root, world.size());
          ADD_FAILURE() << "no error";
        } catch (const thinmpi::mpi_error& e) {
          const std::string what = e.what();
          EXPECT_EQ(e.error_class(), MPI_ERR_ROOT) << what;
          EXPECT_EQ(e.peer(), root) << what;
          EXPECT_NE(what.find("(root " + std::to_string(root)), std::string::npos) << what;
          const std::string says = mine ? "is not a rank of this communicator"
                                        : "rank " + std::to_string(last) + " found an error";
          EXPECT_NE(what.find(says), std::string::npos) << what;
        }
      }
    }
    expect_communicator_goes_on(world, 0);
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

}  // namespace
