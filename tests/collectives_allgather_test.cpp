// allgather and allgatherv: every form checked against the same computation in plain C MPI,
// with zero-length contributions, structs and strings; bad input is an mpi_error raised before
// MPI is called; nonblocking forms own what MPI reads until they complete.

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::error_from;
using thinmpi_test::iota_from;
using thinmpi_test::ring;

struct particle {
  int id;
  float mass;
  double x;
};

/// What C's MPI_Allgather of `mine` (the same count on every rank) gives.
std::vector<int> c_allgather(const std::vector<int>& mine, int size) {
  std::vector<int> all(mine.size() * static_cast<std::size_t>(size));
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_INT, all.data(),
                static_cast<int>(mine.size()), MPI_INT, MPI_COMM_WORLD);
  return all;
}

/// Rank r contributes r elements (rank 0 none): r*100, r*100+1, ...
std::vector<int> contribution(int rank) {
  return iota_from(rank * 100, static_cast<std::size_t>(rank));
}

/// The counts of contribution() on every rank.
std::vector<int> contribution_counts(int size) {
  std::vector<int> counts(static_cast<std::size_t>(size));
  std::iota(counts.begin(), counts.end(), 0);
  return counts;
}

/// What C's MPI_Allgatherv of `mine` with these counts and displacements gives.
std::vector<int> c_allgatherv(const std::vector<int>& mine, const std::vector<int>& counts,
                              const std::vector<int>& displs, std::size_t extent) {
  std::vector<int> all(extent, -1);
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_INT, all.data(), counts.data(),
                 displs.data(), MPI_INT, MPI_COMM_WORLD);
  return all;
}

TEST(Allgather, IntoABufferMatchesC) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> mine = iota_from(r.rank * 10, 3);
  std::vector<int> all(3 * static_cast<std::size_t>(r.size));
  world.allgather(mine, all);
  EXPECT_EQ(all, c_allgather(mine, r.size));
  std::vector<int> larger(all.size() + 5, -1);  // a resizable buffer shrinks to what arrived
  world.allgather(mine, larger);
  EXPECT_EQ(larger, all);
  std::vector<int> fixed(all.size() + 2, -1);  // a span keeps its size; the rest is untouched
  world.allgather(mine, std::span(fixed));
  EXPECT_EQ(std::vector<int>(fixed.begin(), fixed.begin() + static_cast<long>(all.size())), all);
  EXPECT_EQ(fixed.back(), -1);
}

TEST(Allgather, AllocatingScalarsStructsAndStrings) {
  auto world = thinmpi::world();
  const ring r(world);
  EXPECT_EQ(world.allgather(r.rank), c_allgather({r.rank}, r.size));
  const std::vector<particle> particles =
      world.allgather(particle{r.rank, 0.5f * static_cast<float>(r.rank), 2.0});
  ASSERT_EQ(particles.size(), static_cast<std::size_t>(r.size));
  for (std::size_t k = 0; k < particles.size(); ++k) {
    EXPECT_EQ(particles[k].id, static_cast<int>(k));
    EXPECT_EQ(particles[k].mass, 0.5f * static_cast<float>(k));
    EXPECT_EQ(particles[k].x, 2.0);
  }
  const std::string word(2, static_cast<char>('a' + r.rank));
  std::string words;
  words.resize(2 * static_cast<std::size_t>(r.size));
  world.allgather(word, words);
  std::string expected(words.size(), ' ');
  MPI_Allgather(word.data(), 2, MPI_CHAR, expected.data(), 2, MPI_CHAR, MPI_COMM_WORLD);
  EXPECT_EQ(words, expected);
  EXPECT_EQ(words.substr(0, 2), "aa");
}

TEST(Allgather, InPlaceMatchesC) {
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<int> mine(2 * static_cast<std::size_t>(r.size), -1);
  const auto own = 2 * static_cast<std::size_t>(r.rank);
  mine[own] = r.rank;
  mine[own + 1] = r.rank + 50;
  std::vector<int> c_mine = mine;
  world.allgather_in_place(mine);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, c_mine.data(), 2, MPI_INT, MPI_COMM_WORLD);
  EXPECT_EQ(mine, c_mine);
  EXPECT_EQ(mine.back(), r.size - 1 + 50);
}

TEST(Allgatherv, CountsAndDisplacementsGivenMatchC) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> mine = contribution(r.rank);
  const std::vector<int> counts = contribution_counts(r.size);
  // Blocks in reverse rank order with a gap of 2 after each.
  std::vector<int> displs(counts.size());
  int next = 0;
  for (std::size_t k = counts.size(); k-- > 0;) {
    displs[k] = next;
    next += counts[k] + 2;
  }
  std::size_t extent = 0;  // how far the non-empty blocks reach
  for (std::size_t k = 0; k < counts.size(); ++k) {
    if (counts[k] > 0) extent = std::max(extent, static_cast<std::size_t>(displs[k] + counts[k]));
  }
  std::vector<int> all(extent + 10, -1);
  world.allgatherv(mine, all, counts, displs);
  EXPECT_EQ(all.size(), extent);  // shrunk to the extent of the blocks
  const std::vector<int> expected = c_allgatherv(mine, counts, displs, extent);
  EXPECT_EQ(all, expected);
}

TEST(Allgatherv, CountsGivenLaysBlocksEndToEnd) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> mine = contribution(r.rank);
  const std::vector<int> counts = contribution_counts(r.size);
  std::vector<int> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  const auto total = static_cast<std::size_t>(std::reduce(counts.begin(), counts.end()));
  std::vector<int> all(total);
  world.allgatherv(mine, all, counts);
  EXPECT_EQ(all, c_allgatherv(mine, counts, displs, total));
}

TEST(Allgatherv, BlockLayoutBuiltOnceMatchesC) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> mine = contribution(r.rank);
  const std::vector<int> counts = contribution_counts(r.size);
  std::vector<int> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  const auto total = static_cast<std::size_t>(std::reduce(counts.begin(), counts.end()));
  const thinmpi::block_layout packed(counts);
  EXPECT_EQ(packed.extent(), total);
  EXPECT_TRUE(std::ranges::equal(packed.displs(), displs));
  // Reused: the same layout for every call, end to end or at given displacements (a gap of 3).
  for (int round = 0; round < 2; ++round) {
    std::vector<int> all(total + 5, -1);
    world.allgatherv(mine, all, packed);
    EXPECT_EQ(all, c_allgatherv(mine, counts, displs, total));  // shrunk to the extent
  }
  std::vector<int> spaced(counts.size());
  for (std::size_t k = 0; k < spaced.size(); ++k)
    spaced[k] = displs[k] + 3 * static_cast<int>(k);
  const thinmpi::block_layout placed(counts, spaced);
  std::vector<int> all(placed.extent(), -1);
  world.allgatherv(mine, all, placed);
  EXPECT_EQ(all, c_allgatherv(mine, counts, spaced, placed.extent()));
  // Blocks all alike: the layout keeps their one count, against which a call checks what this
  // rank sends without asking MPI for its rank (the same result).
  const std::vector<int> threes(counts.size(), 3);
  std::vector<int> at(counts.size());
  std::exclusive_scan(threes.begin(), threes.end(), at.begin(), 0);
  const thinmpi::block_layout alike(threes);
  const std::vector<int> three_of_mine(3, r.rank);
  std::vector<int> gathered(3 * counts.size(), -1);
  world.allgatherv(three_of_mine, gathered, alike);
  EXPECT_EQ(gathered, c_allgatherv(three_of_mine, threes, at, gathered.size()));
}

TEST(AllgatherErrors, BlockLayoutRefusesBadInputOnceAndChecksEachCall) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> negative{1, -2, 3};
  const auto neg = error_from([&] { thinmpi::block_layout bad(negative); });
  EXPECT_EQ(neg.error_class(), MPI_ERR_ARG);
  EXPECT_NE(std::string(neg.what()).find("counts[1] is -2; it must not be negative"),
            std::string::npos)
      << neg.what();
  const std::vector<int> ones{1, 1};
  const std::vector<int> negative_displs{0, -1};
  EXPECT_NE(
      std::string(error_from([&] { thinmpi::block_layout bad(ones, negative_displs); }).what())
          .find("displs[1] is -1"),
      std::string::npos);
  const std::vector<int> three{0, 1, 2};
  const auto lengths = error_from([&] { thinmpi::block_layout bad(ones, three); });
  EXPECT_EQ(lengths.error_class(), MPI_ERR_ARG);
  EXPECT_NE(std::string(lengths.what()).find("displs has 3 entries but counts has 2 entries"),
            std::string::npos)
      << lengths.what();
  // Packed displacements past INT_MAX: decided once, at construction.
  const std::vector<int> huge{INT_MAX, 1, 1};
  if constexpr (THINMPI_HAS_LARGE_COUNT_CALLS) {
    const thinmpi::block_layout wide(huge);
    EXPECT_FALSE(wide.fits_int());
    EXPECT_EQ(wide.extent(), std::size_t{INT_MAX} + 2);
  } else {
    const auto past = error_from([&] { thinmpi::block_layout bad(huge); });
    EXPECT_EQ(past.error_class(), MPI_ERR_COUNT);
    EXPECT_NE(std::string(past.what()).find("MPI_Allgatherv_c"), std::string::npos) << past.what();
  }
  // Per call: the layout's blocks against the communicator, which every rank must pass alike:
  // a rank that finds them wrong ends the job (root_only_abort.allgatherv_layout_blocks_on_one;
  // checked, AlikeErrors in collectives_consistency_checked_test). And the receive buffer's
  // room (every rank here: each completes into scratch, throws).
  const thinmpi::block_layout twos(std::vector<int>(static_cast<std::size_t>(r.size), 2));
  std::vector<int> small(2 * static_cast<std::size_t>(r.size) - 1);
  const auto room = error_from([&] { world.allgatherv(iota_from(0, 2), small, twos); });
  EXPECT_EQ(room.error_class(), MPI_ERR_COUNT);
  EXPECT_NE(
      std::string(room.what()).find("too small for " + std::to_string(2 * r.size) + " x MPI_INT"),
      std::string::npos)
      << room.what();
}

TEST(Allgatherv, ExchangedCountsIntoANamedContainer) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::string mine(static_cast<std::size_t>(r.rank), static_cast<char>('a' + r.rank));
  using chars = std::vector<char, thinmpi::default_init_allocator<char>>;
  const thinmpi::varying<char, chars> all = world.allgatherv<chars>(mine, thinmpi::exchange_counts);
  std::string expected;
  for (int rank = 0; rank < r.size; ++rank)
    expected.append(static_cast<std::size_t>(rank), static_cast<char>('a' + rank));
  EXPECT_EQ(std::string(all.data.begin(), all.data.end()), expected);
  auto started = world.iallgatherv<std::string>(mine, thinmpi::exchange_counts);
  EXPECT_EQ(started.wait().data, expected);
}

TEST(Allgatherv, ExchangedCountsOfStringsAreReusable) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::string mine(static_cast<std::size_t>(r.rank), static_cast<char>('a' + r.rank));
  const thinmpi::varying<char> all = world.allgatherv(mine, thinmpi::exchange_counts);
  // The same in C: the counts first, then the data.
  std::vector<int> counts(static_cast<std::size_t>(r.size));
  const int count = static_cast<int>(mine.size());
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<char> data(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_CHAR, data.data(), counts.data(), displs.data(), MPI_CHAR,
                 MPI_COMM_WORLD);
  EXPECT_EQ(all.counts, counts);
  EXPECT_EQ(all.displs, displs);
  EXPECT_EQ(all.data, data);
  // The next call with the same shape: counts given, one MPI call.
  std::string again(all.data.size(), ' ');
  world.allgatherv(mine, again, all.counts, all.displs);
  EXPECT_EQ(again, std::string(data.begin(), data.end()));
}

TEST(Allgatherv, ExchangedCountsIntoAKeptVaryingReuseItsStorage) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> mine = contribution(r.rank);
  const thinmpi::varying<int> fresh = world.allgatherv(mine, thinmpi::exchange_counts);
  thinmpi::varying<int> kept;
  world.allgatherv(mine, kept, thinmpi::exchange_counts);
  EXPECT_EQ(kept.data, fresh.data);
  EXPECT_EQ(kept.counts, fresh.counts);
  EXPECT_EQ(kept.displs, fresh.displs);
  const int* const data = kept.data.data();
  const int* const counts = kept.counts.data();
  // The same shape again: the same storage (no allocation), the same result; then a smaller one.
  world.allgatherv(mine, kept, thinmpi::exchange_counts);
  EXPECT_EQ(kept.data, fresh.data);
  EXPECT_EQ(kept.data.data(), data);
  EXPECT_EQ(kept.counts.data(), counts);
  world.allgatherv(std::vector<int>{r.rank}, kept, thinmpi::exchange_counts);
  std::vector<int> ranks(static_cast<std::size_t>(r.size));
  std::iota(ranks.begin(), ranks.end(), 0);
  EXPECT_EQ(kept.data, ranks);
  EXPECT_EQ(kept.displs, ranks);
}

TEST(AllgatherErrors, ReceiveBufferTooSmallStatesBothSizes) {
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<int> small(2 * static_cast<std::size_t>(r.size) - 1);
  const auto e = error_from([&] { world.allgather(iota_from(0, 2), small); });
  EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
  EXPECT_EQ(e.operation(), "MPI_Allgather");
  const std::string needed = std::to_string(2 * r.size) + " x MPI_INT";
  EXPECT_NE(std::string(e.what()).find("the receive buffer of " + std::to_string(small.size()) +
                                       " x MPI_INT"),
            std::string::npos)
      << e.what();
  EXPECT_NE(std::string(e.what()).find("too small for " + needed), std::string::npos) << e.what();
  const std::vector<int> counts = contribution_counts(r.size);
  std::vector<int> tiny(0);
  if (r.size > 1) {
    EXPECT_EQ(
        error_from([&] { world.allgatherv(contribution(r.rank), tiny, counts); }).error_class(),
        MPI_ERR_COUNT);
  }
}

// recvcounts (length, sign, sum past INT_MAX) and allgather_in_place's blocks are the same on
// every rank (MPI requires it): a rank that finds them wrong cannot know the others did, so the
// job ends (root_only_abort.allgatherv_recvcounts_short_on_one); checked, every rank throws
// (AlikeErrors and CheckedCollectives.DisplacementsPastIntMaxAreCheckedBeforeMpi in
// collectives_consistency_checked_test). Displacements and this rank's own count are its own:
// an error in them ends the job too (root_only_abort.allgatherv_displs_too_short and
// .allgatherv_own_count_wrong).

TEST(Iallgather, BorrowedOwnedAndAllocating) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> mine = iota_from(r.rank * 10, 2);
  const std::vector<int> expected = c_allgather(mine, r.size);
  std::vector<int> borrowed(expected.size() + 3);
  auto into_borrowed = world.iallgather(mine, borrowed);
  auto into_owned = world.iallgather(std::vector<int>(mine), std::vector<int>(expected.size()));
  auto allocating = world.iallgather(r.rank);
  into_borrowed.wait();
  EXPECT_EQ(borrowed, expected);
  EXPECT_EQ(into_owned.wait(), expected);
  EXPECT_EQ(allocating.wait(), c_allgather({r.rank}, r.size));
  EXPECT_FALSE(allocating.active());
}

TEST(Iallgatherv, OwnsItsCountsAndDisplacements) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> mine = contribution(r.rank);
  auto counts = std::make_unique<std::vector<int>>(contribution_counts(r.size));
  std::vector<int> displs(counts->size());
  std::exclusive_scan(counts->begin(), counts->end(), displs.begin(), 0);
  const auto total = static_cast<std::size_t>(displs.back() + counts->back());
  const std::vector<int> expected = c_allgatherv(mine, *counts, displs, total);
  std::vector<int> packed(total);
  auto given = world.iallgatherv(mine, std::vector<int>(total), *counts, displs);
  auto computed = world.iallgatherv(mine, packed, *counts);
  counts.reset();  // the caller's arrays go; the requests keep theirs
  displs.assign(displs.size(), -7);
  EXPECT_EQ(given.wait(), expected);
  computed.wait();
  EXPECT_EQ(packed, expected);
}

TEST(Iallgatherv, ExchangedCountsInTwoStagesWithWaitAllAndP2p) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::string mine(static_cast<std::size_t>(r.rank) * 2, static_cast<char>('a' + r.rank));
  const thinmpi::varying<char> blocking = world.allgatherv(mine, thinmpi::exchange_counts);
  auto gathered = world.iallgatherv(mine, thinmpi::exchange_counts);
  int from_prev = -1;
  auto received = world.irecv(from_prev, r.prev(), 4);
  auto sent = world.isend(r.rank, r.next(), 4);
  thinmpi::wait_all(gathered, received, sent);
  EXPECT_EQ(from_prev, r.prev());
  EXPECT_FALSE(gathered.active());
  const thinmpi::varying<char> all = gathered.wait();
  EXPECT_EQ(all.data, blocking.data);
  EXPECT_EQ(all.counts, blocking.counts);
  EXPECT_EQ(all.displs, blocking.displs);
}

TEST(Iallgatherv, WaitAnyAndTestDriveBothStages) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<double> mine(static_cast<std::size_t>(r.rank % 2), 1.5 * r.rank);
  const auto blocking = world.allgatherv(mine, thinmpi::exchange_counts);
  std::vector<decltype(world.iallgatherv(mine, thinmpi::exchange_counts))> requests;
  requests.push_back(world.iallgatherv(mine, thinmpi::exchange_counts));
  requests.push_back(world.iallgatherv(mine, thinmpi::exchange_counts));
  const std::optional<std::size_t> any = thinmpi::wait_any(requests);
  ASSERT_TRUE(any.has_value());
  const std::size_t first = *any;
  EXPECT_FALSE(requests[first].active());
  EXPECT_EQ(requests[first].wait().data, blocking.data);
  auto& other = requests[1 - first];
  while (true) {
    if (auto done = other.test()) {
      EXPECT_EQ(done->data, blocking.data);
      break;
    }
  }
}

TEST(Iallgatherv, DroppedWhileActiveWaits) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> mine = contribution(r.rank);
  const std::vector<int> counts = contribution_counts(r.size);
  std::vector<int> all(static_cast<std::size_t>(std::reduce(counts.begin(), counts.end())));
  {
    auto dropped = world.iallgatherv(mine, all, counts);
    auto dropped_two_stage = world.iallgatherv(mine, thinmpi::exchange_counts);
  }  // both wait here, the two-stage one posting its second stage first
  std::vector<int> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  EXPECT_EQ(all, c_allgatherv(mine, counts, displs, all.size()));
}

#if THINMPI_HAS_PERSISTENT_COLLECTIVES
TEST(AllgatherInit, RoundsSeeTheCurrentData) {
  auto world = thinmpi::world();
  const ring r(world);
  int mine = 0;
  std::vector<int> all(static_cast<std::size_t>(r.size));
  auto gather = world.allgather_init(mine, all);
  for (int round = 0; round < 3; ++round) {
    mine = r.rank + 100 * round;
    gather.start();
    const std::span<int> seen = gather.wait();
    EXPECT_EQ(seen.size(), all.size());
    EXPECT_EQ(all, c_allgather({mine}, r.size));
  }
  const std::vector<int> counts = contribution_counts(r.size);
  std::vector<int> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<int> block = contribution(r.rank);
  auto gatherv = world.allgatherv_init(
      block, std::vector<int>(static_cast<std::size_t>(displs.back() + counts.back())), counts,
      displs);
  for (int round = 0; round < 2; ++round) {
    for (int& value : block)
      value += round;
    gatherv.start();
    const std::span<int> seen = gatherv.wait();
    const std::vector<int> expected = c_allgatherv(block, counts, displs, seen.size());
    EXPECT_EQ(std::vector<int>(seen.begin(), seen.end()), expected);
  }
}
#endif

}  // namespace
