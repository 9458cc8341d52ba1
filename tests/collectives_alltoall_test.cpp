// alltoall and alltoallv: every form checked against the same computation in plain C MPI, with
// zero-length blocks, structs and strings; bad input is an mpi_error raised before MPI is
// called; nonblocking forms own what MPI reads until they complete.

#include <gtest/gtest.h>

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
using thinmpi_test::ring;

struct cell {
  short from;
  short to;
  double weight;
};

std::size_t as_size(int n) {
  return static_cast<std::size_t>(n);
}

/// Block d of this rank's send buffer, `block` elements for each rank: rank*100 + d*10 + k.
std::vector<int> blocks_for_each(const ring& r, int block) {
  std::vector<int> out;
  for (int d = 0; d < r.size; ++d) {
    for (int k = 0; k < block; ++k)
      out.push_back(r.rank * 100 + d * 10 + k);
  }
  return out;
}

std::vector<int> c_alltoall(const std::vector<int>& out, int size) {
  std::vector<int> in(out.size());
  const int block = static_cast<int>(out.size()) / size;
  MPI_Alltoall(out.data(), block, MPI_INT, in.data(), block, MPI_INT, MPI_COMM_WORLD);
  return in;
}

/// The uneven pattern: rank s sends (s + d) % 3 elements to rank d (some of them none).
int pattern_count(int s, int d) {
  return (s + d) % 3;
}

struct uneven {
  std::vector<int> out;
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::size_t received = 0;
};

uneven uneven_pattern(const ring& r) {
  uneven u;
  int sent = 0;
  int arrived = 0;
  for (int d = 0; d < r.size; ++d) {
    u.send_counts.push_back(pattern_count(r.rank, d));
    u.send_displs.push_back(sent);
    for (int k = 0; k < u.send_counts.back(); ++k)
      u.out.push_back(r.rank * 100 + d * 10 + k);
    sent += u.send_counts.back();
    u.recv_counts.push_back(pattern_count(d, r.rank));
    u.recv_displs.push_back(arrived);
    arrived += u.recv_counts.back();
  }
  u.received = as_size(arrived);
  return u;
}

std::vector<int> c_alltoallv(const uneven& u) {
  std::vector<int> in(u.received);
  MPI_Alltoallv(u.out.data(), u.send_counts.data(), u.send_displs.data(), MPI_INT, in.data(),
                u.recv_counts.data(), u.recv_displs.data(), MPI_INT, MPI_COMM_WORLD);
  return in;
}

TEST(Alltoall, IntoABufferAndAllocatingMatchC) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> out = blocks_for_each(r, 2);
  const std::vector<int> expected = c_alltoall(out, r.size);
  std::vector<int> in(out.size() + 4, -1);
  world.alltoall(out, in);
  EXPECT_EQ(in, expected);  // shrunk to what arrived
  EXPECT_EQ(world.alltoall(out), expected);
  EXPECT_EQ(expected[1], r.rank * 10 + 1);  // block 0 came from rank 0, meant for this rank
}

TEST(Alltoall, StructsAndStrings) {
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<cell> cells;
  for (int d = 0; d < r.size; ++d) {
    cells.push_back({static_cast<short>(r.rank), static_cast<short>(d), 0.25 * d});
  }
  const std::vector<cell> got = world.alltoall(cells);
  ASSERT_EQ(got.size(), as_size(r.size));
  for (std::size_t s = 0; s < got.size(); ++s) {
    EXPECT_EQ(got[s].from, static_cast<short>(s));
    EXPECT_EQ(got[s].to, r.rank);
    EXPECT_EQ(got[s].weight, 0.25 * r.rank);
  }
  std::string letters;
  for (int d = 0; d < r.size; ++d)
    letters += static_cast<char>('a' + r.rank * 4 + d);
  std::string received(letters.size(), ' ');
  world.alltoall(letters, received);
  std::string expected(letters.size(), ' ');
  MPI_Alltoall(letters.data(), 1, MPI_CHAR, expected.data(), 1, MPI_CHAR, MPI_COMM_WORLD);
  EXPECT_EQ(received, expected);
}

TEST(Alltoall, InPlaceMatchesC) {
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<int> buffer = blocks_for_each(r, 3);
  std::vector<int> c_buffer = buffer;
  world.alltoall_in_place(buffer);
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, c_buffer.data(), 3, MPI_INT, MPI_COMM_WORLD);
  EXPECT_EQ(buffer, c_buffer);
}

TEST(Alltoallv, CountsAndDisplacementsGivenMatchC) {
  auto world = thinmpi::world();
  const ring r(world);
  const uneven u = uneven_pattern(r);
  std::vector<int> in(u.received + 3, -1);
  world.alltoallv(u.out, u.send_counts, u.send_displs, in, u.recv_counts, u.recv_displs);
  EXPECT_EQ(in, c_alltoallv(u));
}

TEST(Alltoallv, CountsGivenLaysBlocksEndToEnd) {
  auto world = thinmpi::world();
  const ring r(world);
  const uneven u = uneven_pattern(r);
  std::vector<int> in(u.received);
  world.alltoallv(u.out, u.send_counts, in, u.recv_counts);
  EXPECT_EQ(in, c_alltoallv(u));
}

TEST(Alltoallv, BlockLayoutsBuiltOnceMatchC) {
  auto world = thinmpi::world();
  const ring r(world);
  const uneven u = uneven_pattern(r);
  const thinmpi::block_layout sent(u.send_counts, u.send_displs);
  const thinmpi::block_layout received(u.recv_counts);  // laid end to end, as u.recv_displs
  for (int round = 0; round < 2; ++round) {
    std::vector<int> in(u.received + 3, -1);
    world.alltoallv(u.out, sent, in, received);
    EXPECT_EQ(in, c_alltoallv(u));  // shrunk to the extent
  }
  // A receive buffer too small on every rank: each completes into scratch, then throws.
  if (u.received > 0) {
    std::vector<int> small(u.received - 1);
    const auto e = error_from([&] { world.alltoallv(u.out, sent, small, received); });
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
    EXPECT_NE(std::string(e.what()).find("the blocks of the receive layout"), std::string::npos)
        << e.what();
  } else {
    std::vector<int> empty;
    world.alltoallv(u.out, sent, empty, received);  // still this rank's part of the call
  }
}

TEST(Alltoallv, ExchangedCountsMatchCAndAreReusable) {
  auto world = thinmpi::world();
  const ring r(world);
  const uneven u = uneven_pattern(r);
  const thinmpi::varying<int> got = world.alltoallv(u.out, u.send_counts, thinmpi::exchange_counts);
  // The same in C: the counts first, then the data.
  std::vector<int> counts(as_size(r.size));
  MPI_Alltoall(u.send_counts.data(), 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  EXPECT_EQ(got.counts, counts);
  EXPECT_EQ(got.counts, u.recv_counts);
  EXPECT_EQ(got.displs, u.recv_displs);
  EXPECT_EQ(got.data, c_alltoallv(u));
  std::vector<int> again(got.data.size());
  world.alltoallv(u.out, u.send_counts, u.send_displs, again, got.counts, got.displs);
  EXPECT_EQ(again, got.data);
}

TEST(Alltoallv, ExchangedCountsIntoAKeptVaryingReuseItsStorage) {
  auto world = thinmpi::world();
  const ring r(world);
  const uneven u = uneven_pattern(r);
  thinmpi::varying<int> kept;
  for (int round = 0; round < 2; ++round) {
    world.alltoallv(u.out, u.send_counts, kept, thinmpi::exchange_counts);
    EXPECT_EQ(kept.data, c_alltoallv(u));
    EXPECT_EQ(kept.counts, u.recv_counts);
    EXPECT_EQ(kept.displs, u.recv_displs);
  }
}

TEST(Alltoallv, ExchangedCountsIntoANamedContainer) {
  auto world = thinmpi::world();
  const ring r(world);
  const uneven u = uneven_pattern(r);
  using ints = std::vector<int, thinmpi::default_init_allocator<int>>;
  const thinmpi::varying<int, ints> got =
      world.alltoallv<ints>(u.out, u.send_counts, thinmpi::exchange_counts);
  EXPECT_EQ(got.counts, u.recv_counts);
  EXPECT_EQ(std::vector<int>(got.data.begin(), got.data.end()), c_alltoallv(u));
  auto started = world.ialltoallv<ints>(u.out, u.send_counts, thinmpi::exchange_counts);
  const thinmpi::varying<int, ints> waited = started.wait();
  EXPECT_EQ(waited.data, got.data);
}

TEST(Alltoallv, StringsOfDifferentLengths) {
  auto world = thinmpi::world();
  const ring r(world);
  // Rank s sends s copies of its letter to every rank.
  const std::string out(as_size(r.rank * r.size), static_cast<char>('a' + r.rank));
  const std::vector<int> counts(as_size(r.size), r.rank);
  const thinmpi::varying<char> got = world.alltoallv(out, counts, thinmpi::exchange_counts);
  std::string expected;
  for (int s = 0; s < r.size; ++s)
    expected += std::string(as_size(s), static_cast<char>('a' + s));
  EXPECT_EQ(std::string(got.data.begin(), got.data.end()), expected);
}

TEST(AlltoallErrors, BuffersTooSmallStateBothSizes) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> out = blocks_for_each(r, 2);
  std::vector<int> small(out.size() - 1);
  const auto e = error_from([&] { world.alltoall(out, small); });
  EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
  EXPECT_EQ(e.operation(), "MPI_Alltoall");
  EXPECT_NE(std::string(e.what()).find("the receive buffer of " + std::to_string(small.size()) +
                                       " x MPI_INT = " + std::to_string(4 * small.size()) +
                                       " bytes is too small for " + std::to_string(out.size()) +
                                       " x MPI_INT"),
            std::string::npos)
      << e.what();
  // A send buffer too small for sendcounts is this rank's own error: it ends the job
  // (root_only_abort.alltoallv_send_too_small; every rank throws in
  // collectives_consistency_checked_test). A buffer that is not size() equal blocks is one every
  // rank must pass alike: the job ends too (root_only_abort.alltoall_uneven_on_one; checked,
  // AlikeErrors there).
}

// Every alltoallv count and displacement array is this rank's own (MPI lets them differ per
// rank), so one of the wrong length or sign, or displacements past INT_MAX where no _c call
// exists, end the job: faults/root_only_local_cases.hpp has them (alltoallv_sendcounts_too_long,
// alltoallv_recvcounts_too_short, alltoallv_exchanged_counts_too_short,
// alltoallv_negative_rdispls, alltoallv_exchanged_negative_count), run as launched programs
// (root_only_abort.*) and, checked, in collectives_consistency_checked_test, which also has
// the displacements past INT_MAX (CheckedCollectives.DisplacementsPastIntMax...).

TEST(Ialltoall, BorrowedOwnedAndAllocating) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> out = blocks_for_each(r, 2);
  const std::vector<int> expected = c_alltoall(out, r.size);
  std::vector<int> borrowed(out.size());
  auto into_borrowed = world.ialltoall(out, borrowed);
  auto into_owned = world.ialltoall(std::vector<int>(out), std::vector<int>(out.size() + 2));
  auto allocating = world.ialltoall(out);
  into_borrowed.wait();
  EXPECT_EQ(borrowed, expected);
  EXPECT_EQ(into_owned.wait(), expected);
  EXPECT_EQ(allocating.wait(), expected);
}

TEST(Ialltoallv, OwnsItsCountsAndDisplacements) {
  auto world = thinmpi::world();
  const ring r(world);
  auto u = std::make_unique<uneven>(uneven_pattern(r));
  const std::vector<int> expected = c_alltoallv(*u);
  std::vector<int> packed(u->received);
  // The send data is moved in (the request owns it); only the counts and displacements are
  // the caller's, and they go before the wait.
  auto given = world.ialltoallv(std::vector<int>(u->out), u->send_counts, u->send_displs,
                                std::vector<int>(u->received), u->recv_counts, u->recv_displs);
  auto computed =
      world.ialltoallv(std::vector<int>(u->out), u->send_counts, packed, u->recv_counts);
  const std::vector<int> kept_out = u->out;
  auto exchanged = world.ialltoallv(kept_out, u->send_counts, thinmpi::exchange_counts);
  u.reset();  // the caller's counts and displacements go; the requests keep theirs
  EXPECT_EQ(given.wait(), expected);
  computed.wait();
  EXPECT_EQ(packed, expected);
  EXPECT_EQ(exchanged.wait().data, expected);
}

TEST(Ialltoallv, TwoStagesWithWaitAllAndP2pAndDropped) {
  auto world = thinmpi::world();
  const ring r(world);
  const uneven u = uneven_pattern(r);
  const std::vector<int> expected = c_alltoallv(u);
  auto exchanged = world.ialltoallv(u.out, u.send_counts, thinmpi::exchange_counts);
  int from_prev = -1;
  auto received = world.irecv(from_prev, r.prev(), 5);
  auto sent = world.isend(r.rank, r.next(), 5);
  thinmpi::wait_all(exchanged, received, sent);
  EXPECT_EQ(from_prev, r.prev());
  const thinmpi::varying<int> got = exchanged.wait();
  EXPECT_EQ(got.data, expected);
  std::vector<int> in(u.received);
  {
    auto dropped = world.ialltoallv(u.out, u.send_counts, in, u.recv_counts);
    auto dropped_two_stage = world.ialltoallv(u.out, u.send_counts, thinmpi::exchange_counts);
  }  // both wait here
  EXPECT_EQ(in, expected);
}

#if THINMPI_HAS_PERSISTENT_COLLECTIVES
TEST(AlltoallInit, RoundsSeeTheCurrentData) {
  auto world = thinmpi::world();
  const ring r(world);
  std::vector<int> out = blocks_for_each(r, 1);
  std::vector<int> in(out.size());
  auto exchange = world.alltoall_init(out, in);
  for (int round = 0; round < 3; ++round) {
    for (int& value : out)
      value += 1000;
    exchange.start();
    EXPECT_EQ(exchange.wait().size(), in.size());
    EXPECT_EQ(in, c_alltoall(out, r.size));
  }
  uneven u = uneven_pattern(r);
  auto exchangev = world.alltoallv_init(u.out, u.send_counts, u.send_displs,
                                        std::vector<int>(u.received), u.recv_counts, u.recv_displs);
  for (int round = 0; round < 2; ++round) {
    for (int& value : u.out)
      value += 7;
    exchangev.start();
    const std::span<int> seen = exchangev.wait();
    EXPECT_EQ(std::vector<int>(seen.begin(), seen.end()), c_alltoallv(u));
  }
}
#endif

}  // namespace
