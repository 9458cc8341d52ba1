// Process topologies and the neighborhood collectives: Cartesian grids (rings, 2D tori periodic
// and not, sub-grids) and distributed graphs (adjacent, weighted, general, asymmetric), every
// neighborhood collective in its blocking, nonblocking and persistent forms and with exchanged
// counts, each checked against the same call in plain C MPI on the same communicator; bad input
// is an mpi_error naming it, and the communicator works afterwards.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "support/neighbor_reference.hpp"
#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::error_from;
using thinmpi_test::iota_from;
using thinmpi_test::mentions;
using thinmpi_test::ring;
using thinmpi_test::uz;

/// Whether a C reference runs the blocking call or its nonblocking twin. Where a rank's
/// neighbors coincide (a periodic dimension of 1 or 2 ranks, a graph edge named twice) C's calls
/// are not the reference: Open MPI 4.1.4's nonblocking and persistent forms and MPICH 4.0.2's
/// alltoallv/w (and alltoall on graphs) pair those blocks wrongly, and thinmpi takes its own
/// path there. So these helpers give MPI's definition instead, by point-to-point
/// (support/neighbor_reference.hpp), where a neighbor repeats, and C's call of the same form
/// elsewhere.
enum class form { blocking, nonblocking };

/// Waits for a C nonblocking call's request.
void c_wait(MPI_Request request) {
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

/// A buffer's address for C, never null: MPICH 4.0.2 rejects a null buffer of a rank with no
/// neighbors on that side (MPI_ERR_BUFFER), as thinmpi's calls avoid too.
template <class T>
T* address_of(std::vector<T>& buffer) {
  static T nothing{};
  return buffer.empty() ? &nothing : buffer.data();
}

/// The displacements of `blocks` blocks of `block` elements laid end to end.
std::vector<int> even_displs(std::size_t blocks, int block) {
  std::vector<int> displs(blocks);
  for (std::size_t i = 0; i < blocks; ++i)
    displs[i] = static_cast<int>(i) * block;
  return displs;
}

/// What MPI_(I)neighbor_alltoall of `send` (out-degree equal blocks) must give into `received`
/// (whose blocks from MPI_PROC_NULL neighbors keep what they held): C's call, or where a
/// neighbor repeats the reference.
std::vector<int> c_neighbor_alltoall(MPI_Comm comm, std::vector<int> send, int block,
                                     std::vector<int> received, form how = form::blocking) {
  if (const auto lists = thinmpi_test::lists_of(comm); lists.repeats()) {
    const thinmpi_test::reference_comm messages(comm);
    const std::vector<int> out_counts(lists.destinations.size(), block);
    const std::vector<int> in_counts(lists.sources.size(), block);
    thinmpi_test::reference_alltoallv(messages.get(), lists, send, out_counts,
                                      even_displs(out_counts.size(), block), received, in_counts,
                                      even_displs(in_counts.size(), block));
    return received;
  }
  if (how == form::blocking) {
    MPI_Neighbor_alltoall(address_of(send), block, MPI_INT, address_of(received), block, MPI_INT,
                          comm);
  } else {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ineighbor_alltoall(address_of(send), block, MPI_INT, address_of(received), block, MPI_INT,
                           comm, &request);
    c_wait(request);
  }
  return received;
}

/// What C's MPI_Neighbor_allgather of `send` gives into `received`.
std::vector<int> c_neighbor_allgather(MPI_Comm comm, const std::vector<int>& send,
                                      std::vector<int> received) {
  MPI_Neighbor_allgather(send.data(), static_cast<int>(send.size()), MPI_INT, received.data(),
                         static_cast<int>(send.size()), MPI_INT, comm);
  return received;
}

/// A 2D grid of every rank, periodic as asked.
thinmpi::cartesian_communicator grid_2d(bool periodic) {
  auto world = thinmpi::world();
  return {world, thinmpi::dims_create(world.size(), 2), {periodic, periodic}};
}

/// Block i for out-neighbor i: `block` ints, rank*1000 + i*10 + k.
std::vector<int> blocks_for(int rank, int out_degree, int block) {
  std::vector<int> send;
  for (int i = 0; i < out_degree; ++i) {
    for (int k = 0; k < block; ++k)
      send.push_back(rank * 1000 + i * 10 + k);
  }
  return send;
}

TEST(DimsCreate, MatchesC) {
  const int size = thinmpi::world().size();
  std::vector<int> expected(2, 0);
  MPI_Dims_create(size, 2, expected.data());
  EXPECT_EQ(thinmpi::dims_create(size, 2), expected);
  EXPECT_EQ(thinmpi::dims_create(12, {0, 3}), (std::vector<int>{4, 3}));
  EXPECT_EQ(thinmpi::dims_create(8, {0}), (std::vector<int>{8}));
  EXPECT_EQ(thinmpi::dims_create(6, std::vector<int>{2, 0, 1}), (std::vector<int>{2, 3, 1}));
}

TEST(DimsCreate, DimsThatCannotMakeTheGridAreAnError) {
  const auto e = error_from([] { static_cast<void>(thinmpi::dims_create(6, {4, 0})); });
  EXPECT_EQ(e.error_class(), MPI_ERR_DIMS);
  EXPECT_TRUE(mentions(e.what(), "the given dims (4 x 0) cannot make a grid of 6 ranks"));
  EXPECT_EQ(error_from([] {
              static_cast<void>(thinmpi::dims_create(6, {2, 2}));
            }).error_class(),
            MPI_ERR_DIMS);
  EXPECT_TRUE(mentions(error_from([] {
                         static_cast<void>(thinmpi::dims_create(4, {-1, 0}));
                       }).what(),
                       "dims[0] is -1"));
}

TEST(Cartesian, RingQueriesMatchC) {
  auto world = thinmpi::world();
  const ring r(world);
  thinmpi::cartesian_communicator grid(world, {r.size}, {true});
  EXPECT_FALSE(grid.is_null());
  EXPECT_EQ(grid.ndims(), 1);
  EXPECT_EQ(grid.in_degree(), 2);
  EXPECT_EQ(grid.out_degree(), 2);
  EXPECT_EQ(grid.dims(), std::vector<int>{r.size});
  EXPECT_EQ(grid.periods(), std::vector<bool>{true});
  EXPECT_EQ(grid.coords(), std::vector<int>{grid.rank()});
  const auto [source, dest] = grid.shift(0, 1);
  int c_source = 0;
  int c_dest = 0;
  MPI_Cart_shift(grid.native(), 0, 1, &c_source, &c_dest);
  EXPECT_EQ(source, c_source);
  EXPECT_EQ(dest, c_dest);
  EXPECT_EQ(grid.rank_of({grid.rank() + r.size}), grid.rank());  // periodic: wraps around
  EXPECT_EQ(grid.rank_of({grid.rank() - 1}), c_source);
  // The neighborhood: the rank below, then the rank above.
  EXPECT_EQ(grid.neighbor_allgather(grid.rank()), (std::vector<int>{c_source, c_dest}));
}

TEST(Cartesian, TorusQueriesMatchC) {
  for (const bool periodic : {true, false}) {
    auto grid = grid_2d(periodic);
    const std::vector<int> dims = grid.dims();
    const std::vector<int> periods{periodic ? 1 : 0, periodic ? 1 : 0};
    MPI_Comm c_grid = MPI_COMM_NULL;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims.data(), periods.data(), 0, &c_grid);
    EXPECT_EQ(grid.periods(), (std::vector<bool>{periodic, periodic}));
    for (int rank = 0; rank < grid.size(); ++rank) {
      std::vector<int> c_coords(2);
      MPI_Cart_coords(c_grid, rank, 2, c_coords.data());
      EXPECT_EQ(grid.coords(rank), c_coords);
      EXPECT_EQ(grid.rank_of(c_coords), rank);
    }
    for (int dim = 0; dim < 2; ++dim) {
      for (const int disp : {1, -1, 2}) {
        int c_source = 0;
        int c_dest = 0;
        MPI_Cart_shift(c_grid, dim, disp, &c_source, &c_dest);
        const thinmpi::shift_ranks s = grid.shift(dim, disp);
        EXPECT_EQ(s.source, c_source);
        EXPECT_EQ(s.dest, c_dest);
      }
    }
    if (!periodic) {
      EXPECT_EQ(grid.shift(0, dims[0]).dest, thinmpi::proc_null);  // past the open edge
    }
    MPI_Comm_free(&c_grid);
  }
}

TEST(Cartesian, SubGridsMatchC) {
  auto grid = grid_2d(false);
  thinmpi::cartesian_communicator row = grid.sub({false, true});
  MPI_Comm c_row = MPI_COMM_NULL;
  const int remain[2] = {0, 1};
  MPI_Cart_sub(grid.native(), remain, &c_row);
  int c_size = 0;
  int c_rank = 0;
  MPI_Comm_size(c_row, &c_size);
  MPI_Comm_rank(c_row, &c_rank);
  EXPECT_EQ(row.ndims(), 1);
  EXPECT_EQ(row.size(), c_size);
  EXPECT_EQ(row.rank(), c_rank);
  EXPECT_EQ(row.dims(), std::vector<int>{grid.dims()[1]});
  EXPECT_EQ(row.coords(), std::vector<int>{grid.coords()[1]});
  // Every rank of a row has the same first coordinate.
  const std::vector<int> firsts = row.allgather(grid.coords()[0]);
  EXPECT_TRUE(std::all_of(firsts.begin(), firsts.end(), [&](int x) { return x == firsts[0]; }));
  MPI_Comm_free(&c_row);
}

TEST(Cartesian, AGridSmallerThanTheCommunicatorLeavesTheRestNull) {
  auto world = thinmpi::world();
  thinmpi::cartesian_communicator one(world, {1}, {false});
  EXPECT_EQ(one.is_null(), world.rank() != 0);
  if (!one.is_null()) {
    EXPECT_EQ(one.neighbor_allgather(7), (std::vector<int>{0, 0}));
    EXPECT_EQ(one.neighbors(), (std::vector<int>{thinmpi::proc_null, thinmpi::proc_null}));
    return;
  }
  // A rank left out has no grid to ask: each query says so (it used to say "dim is 0; the grid
  // has 0 dimensions" for shift()).
  const auto not_in = [](const thinmpi::mpi_error& e) {
    return e.error_class() == MPI_ERR_COMM && mentions(e.what(), "this rank is not in the grid");
  };
  EXPECT_TRUE(not_in(error_from([&] { static_cast<void>(one.shift(0, 1)); })));
  EXPECT_TRUE(not_in(error_from([&] { static_cast<void>(one.coords()); })));
  EXPECT_TRUE(not_in(error_from([&] { static_cast<void>(one.dims()); })));
  EXPECT_TRUE(not_in(error_from([&] { static_cast<void>(one.rank_of({0})); })));
  EXPECT_TRUE(not_in(error_from([&] { static_cast<void>(one.neighbors()); })));
}

/// neighbors() lists the blocks' order: per dimension the rank below, then the rank above.
TEST(Cartesian, NeighborsListTheBlockOrder) {
  auto grid = grid_2d(true);
  std::vector<int> expected;
  for (int d = 0; d < grid.ndims(); ++d) {
    int below = MPI_PROC_NULL;
    int above = MPI_PROC_NULL;
    MPI_Cart_shift(grid.native(), d, 1, &below, &above);
    expected.push_back(below);
    expected.push_back(above);
  }
  EXPECT_EQ(grid.neighbors(), expected);
  // The rank in slot s of the allgather is neighbors()[s].
  EXPECT_EQ(grid.neighbor_allgather(grid.rank()), expected);
}

TEST(Cartesian, ViewsAdoptionAndMoves) {
  auto world = thinmpi::world();
  const int dims[1] = {world.size()};
  const int periods[1] = {1};
  MPI_Comm c_grid = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c_grid);
  const thinmpi::cartesian_view view(c_grid);  // does not own it
  EXPECT_EQ(view.in_degree(), 2);
  EXPECT_EQ(view.dims(), std::vector<int>{world.size()});
  thinmpi::cartesian_communicator owned = thinmpi::cartesian_communicator::adopt(c_grid);
  thinmpi::cartesian_communicator moved = std::move(owned);
  EXPECT_TRUE(owned.is_null());  // NOLINT(bugprone-use-after-move): moved-from is null
  EXPECT_EQ(moved.native(), c_grid);
  MPI_Comm released = moved.release();
  EXPECT_TRUE(moved.is_null());
  MPI_Comm_free(&released);
  // A communicator without a Cartesian topology is not a grid.
  const auto e = error_from([&] { thinmpi::cartesian_view not_a_grid(world.native()); });
  EXPECT_EQ(e.error_class(), MPI_ERR_TOPOLOGY);
  EXPECT_TRUE(mentions(e.what(), "no Cartesian topology"));
}

TEST(CartesianErrors, BadInputNamesItAndTheGridStillWorks) {
  auto world = thinmpi::world();
  const ring r(world);
  // The constructors' and sub()'s arguments are each rank's own: wrong, they end the job, or
  // with THINMPI_CHECKED_COLLECTIVES every rank throws (faults/root_only_topology_cases.hpp,
  // run by root_only_abort and collectives_consistency_checked_test). The queries are local.
  auto grid = grid_2d(false);
  const std::vector<int> dims = grid.dims();
  const auto outside = error_from([&] { static_cast<void>(grid.rank_of({dims[0], 0})); });
  EXPECT_EQ(outside.error_class(), MPI_ERR_ARG);
  EXPECT_TRUE(mentions(
      outside.what(), "coords[0] is " + std::to_string(dims[0]) + "; dimension 0 is not periodic"));
  EXPECT_TRUE(mentions(error_from([&] { static_cast<void>(grid.rank_of({0})); }).what(),
                       "coords has 1 entry; the grid has 2 dimensions"));
  EXPECT_EQ(error_from([&] { static_cast<void>(grid.coords(r.size)); }).error_class(),
            MPI_ERR_RANK);
  EXPECT_TRUE(mentions(error_from([&] { static_cast<void>(grid.shift(2, 1)); }).what(),
                       "dim is 2; the grid has 2 dimensions"));
  // A neighborhood collective's arrays and send buffer are the rank's own: wrong, they end the
  // job (faults/root_only_neighbor_cases.hpp); a receive buffer too small is received into
  // scratch on every rank here, then thrown.
  std::vector<int> into(8);
  EXPECT_TRUE(mentions(error_from([&] { grid.neighbor_allgather(iota_from(0, 3), into); }).what(),
                       "too small"));
  // The grid still works.
  const std::vector<int> from_each = grid.neighbor_allgather(grid.rank());
  EXPECT_EQ(from_each, c_neighbor_allgather(grid.native(), {grid.rank()}, std::vector<int>(4)));
}

// A receive buffer too small in a blocking neighborhood collective: the rank still takes part,
// into scratch, then throws MPI_ERR_COUNT (here on every rank, as every rank's is too small);
// the neighbors' blocks are not left in flight, so the next call gets its own data.
TEST(NeighborhoodErrors, TooSmallReceiveBuffersCompleteIntoScratch) {
  auto grid = grid_2d(true);
  const std::vector<int> two_each(4, 2);
  const std::vector<int> at{0, 2, 4, 6};
  std::vector<int> into(7);
  const std::vector<int> send(8, grid.rank());
  const std::vector<std::pair<const char*, std::function<void()>>> calls{
      {"neighbor_allgather", [&] { grid.neighbor_allgather(std::vector<int>(2, 1), into); }},
      {"neighbor_allgatherv", [&] { grid.neighbor_allgatherv(iota_from(0, 2), into, two_each); }},
      {"neighbor_allgatherv at displs",
       [&] { grid.neighbor_allgatherv(iota_from(0, 2), into, two_each, at); }},
      {"neighbor_alltoall", [&] { grid.neighbor_alltoall(send, into); }},
      {"neighbor_alltoallv", [&] { grid.neighbor_alltoallv(send, two_each, into, two_each); }},
      {"neighbor_alltoallv at displs",
       [&] { grid.neighbor_alltoallv(send, two_each, at, into, two_each, at); }},
  };
  for (const auto& [name, call] : calls) {
    SCOPED_TRACE(name);
    const auto e = error_from(call);
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
    EXPECT_TRUE(mentions(e.what(),
                         "the receive buffer of 7 x MPI_INT = 28 bytes is too small for "
                         "8 x MPI_INT = 32 bytes"));
    const std::vector<int> from_each = grid.neighbor_allgather(grid.rank());
    EXPECT_EQ(from_each, c_neighbor_allgather(grid.native(), {grid.rank()}, std::vector<int>(4)));
  }
}

// Counts that differ between neighbors are MPI's error, not a check thinmpi can make (a rank
// does not know what its neighbors send): the last rank expects 1 int from each neighbor where
// they send 2. Open MPI 4.1.4 reports it on that rank only (MPI_ERR_OTHER "known error not in
// list" at 2 ranks, MPI_ERR_IN_STATUS at 4); MPICH 4.0.2 reports nothing and leaves that rank's
// buffer unwritten. Either way the others return with their data, and nothing stays in flight
// for the next call.
TEST(NeighborhoodErrors, CountsThatDifferBetweenNeighborsAreMpisTruncation) {
  auto world = thinmpi::world();
  if (world.size() < 2) GTEST_SKIP() << "needs a neighbor that is another rank";
  const ring r(world);
  const thinmpi::cartesian_communicator ring_grid(world, {r.size}, {true});
  const bool short_here = r.rank == r.size - 1;
  const bool open_mpi = thinmpi::library_version().find("Open MPI") != std::string::npos;
  const std::vector<int> counts(2, short_here ? 1 : 2);
  std::vector<int> into(4, -1);
  bool threw = false;
  try {
    ring_grid.neighbor_allgatherv(std::vector<int>{r.rank, r.rank}, into, counts);
  } catch (const thinmpi::mpi_error& e) {
    threw = true;
    const int error_class = e.error_class();
    EXPECT_TRUE(error_class == MPI_ERR_TRUNCATE || error_class == MPI_ERR_OTHER ||
                error_class == MPI_ERR_IN_STATUS)
        << e.what();
  }
  if (short_here) {
    EXPECT_EQ(threw, open_mpi);
  } else {
    EXPECT_FALSE(threw);
    EXPECT_EQ(into, (std::vector<int>{r.prev(), r.prev(), r.next(), r.next()}));
  }
  EXPECT_EQ(ring_grid.neighbor_allgather(r.rank), (std::vector<int>{r.prev(), r.next()}));
}

// Every sentence that counts says it in the singular for one (core/detail/raise.hpp's counted).
TEST(Messages, CountsAreSingularForOne) {
  EXPECT_EQ(thinmpi::detail::counted(1, "entry", "entries"), "1 entry");
  EXPECT_EQ(thinmpi::detail::counted(0, "entry", "entries"), "0 entries");
  EXPECT_EQ(thinmpi::detail::counted(3, "in-neighbor", "in-neighbors"), "3 in-neighbors");
  EXPECT_EQ(thinmpi::detail::describe_elements(1, MPI_CHAR), "1 x MPI_CHAR = 1 byte");
  EXPECT_EQ(thinmpi::detail::describe_elements(2, MPI_CHAR), "2 x MPI_CHAR = 2 bytes");
  EXPECT_EQ(thinmpi::detail::in_neighbors(1).counted_degree(), "1 in-neighbor");
  auto grid = grid_2d(false);
  EXPECT_TRUE(mentions(error_from([&] {
                         static_cast<void>(grid.rank_of({0, 0, 0}));
                       }).what(),
                       "coords has 3 entries; the grid has 2 dimensions"));
}

TEST(NeighborAllgather, EveryFormMatchesCOnRingsAndTori) {
  for (const bool periodic : {true, false}) {
    auto grid = grid_2d(periodic);
    const std::vector<int> mine = iota_from(grid.rank() * 100, 3);
    const std::vector<int> expected =
        c_neighbor_allgather(grid.native(), mine, std::vector<int>(12, -1));
    std::vector<int> into(12, -1);  // blocks of MPI_PROC_NULL neighbors stay -1
    grid.neighbor_allgather(mine, into);
    EXPECT_EQ(into, expected);
    std::vector<int> larger(20, -1);
    grid.neighbor_allgather(mine, larger);
    EXPECT_EQ(larger, expected);
    auto borrowed_into = std::vector<int>(12, -1);
    auto borrowed = grid.ineighbor_allgather(mine, borrowed_into);
    borrowed.wait();
    EXPECT_EQ(borrowed_into, expected);
    auto owned = grid.ineighbor_allgather(std::vector<int>(mine), std::vector<int>(12, -1));
    EXPECT_EQ(owned.wait(), expected);
    if (periodic) {
      EXPECT_EQ(grid.ineighbor_allgather(mine).wait(), expected);
    }
    // Persistent: each round sends what `round_data` holds then.
    std::vector<int> round_data = mine;
    std::vector<int> round_into(12, -1);
    auto rounds = grid.neighbor_allgather_init(round_data, round_into);
    for (int round = 0; round < 3; ++round) {
      for (int& x : round_data)
        x += 1;
      rounds.start();
      const std::span<int> got = rounds.wait();
      EXPECT_EQ(std::vector<int>(got.begin(), got.end()),
                c_neighbor_allgather(grid.native(), round_data, std::vector<int>(12, -1)))
          << "round " << round;
    }
  }
}

TEST(NeighborAllgatherv, EveryFormMatchesC) {
  for (const bool periodic : {true, false}) {
    auto grid = grid_2d(periodic);
    // Rank r sends r % 3 + 1 elements; a neighbor's count is what it sends (0 for proc_null).
    const auto mine = iota_from(grid.rank() * 10, uz(grid.rank() % 3 + 1));
    std::vector<int> counts;
    for (int dim = 0; dim < 2; ++dim) {
      const auto [below, above] = grid.shift(dim, 1);
      for (const int n : {below, above})
        counts.push_back(n < 0 ? 0 : n % 3 + 1);
    }
    std::vector<int> displs(4);
    std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
    const auto total = uz(displs.back() + counts.back());
    std::vector<int> expected(total, -1);
    MPI_Neighbor_allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_INT, expected.data(),
                            counts.data(), displs.data(), MPI_INT, grid.native());
    std::vector<int> into(total, -1);
    grid.neighbor_allgatherv(mine, into, counts, displs);
    EXPECT_EQ(into, expected);
    std::vector<int> packed(total + 3, -1);
    grid.neighbor_allgatherv(mine, packed, counts);
    EXPECT_EQ(packed, expected);
    const thinmpi::varying<int> exchanged =
        grid.neighbor_allgatherv(mine, thinmpi::exchange_counts);
    EXPECT_EQ(exchanged.counts, counts);
    EXPECT_EQ(exchanged.displs, displs);
    std::vector<int> zeros_for_null = expected;  // varying's blocks from proc_null are empty
    EXPECT_EQ(exchanged.data, zeros_for_null);
    auto started = grid.ineighbor_allgatherv(mine, thinmpi::exchange_counts);
    EXPECT_EQ(started.wait().data, expected);
    EXPECT_EQ(grid.ineighbor_allgatherv(mine, std::vector<int>(total), counts, displs).wait(),
              expected);
    EXPECT_EQ(grid.ineighbor_allgatherv(mine, std::vector<int>(total), counts).wait(), expected);
    std::vector<int> round_into(total);
    auto rounds = grid.neighbor_allgatherv_init(mine, round_into, counts, displs);
    auto packed_rounds = grid.neighbor_allgatherv_init(mine, std::vector<int>(total), counts);
    for (int round = 0; round < 2; ++round) {
      rounds.start();
      rounds.wait();
      EXPECT_EQ(round_into, expected);
      packed_rounds.start();
      const std::span<int> got = packed_rounds.wait();
      EXPECT_EQ(std::vector<int>(got.begin(), got.end()), expected);
    }
  }
}

TEST(NeighborAlltoall, EveryFormMatchesC) {
  for (const bool periodic : {true, false}) {
    auto grid = grid_2d(periodic);
    const std::vector<int> send = blocks_for(grid.rank(), 4, 2);
    const std::vector<int> expected =
        c_neighbor_alltoall(grid.native(), send, 2, std::vector<int>(8, -1));
    const std::vector<int> expected_i =
        c_neighbor_alltoall(grid.native(), send, 2, std::vector<int>(8, -1), form::nonblocking);
    std::vector<int> into(8, -1);
    grid.neighbor_alltoall(send, into);
    EXPECT_EQ(into, expected);
    if (periodic) {
      EXPECT_EQ(grid.neighbor_alltoall(send), expected);
      EXPECT_EQ(grid.ineighbor_alltoall(send).wait(), expected_i);
    }
    EXPECT_EQ(grid.ineighbor_alltoall(send, std::vector<int>(8, -1)).wait(), expected_i);
    std::vector<int> borrowed(8, -1);
    auto request = grid.ineighbor_alltoall(send, borrowed);
    thinmpi::wait_all(request);
    EXPECT_EQ(borrowed, expected_i);
    std::vector<int> round_send = send;
    std::vector<int> round_into(8, -1);
    auto rounds = grid.neighbor_alltoall_init(round_send, round_into);
    for (int round = 0; round < 3; ++round) {
      for (int& x : round_send)
        x += 7;
      rounds.start();
      rounds.wait();
      EXPECT_EQ(round_into, c_neighbor_alltoall(grid.native(), round_send, 2,
                                                std::vector<int>(8, -1), form::nonblocking))
          << "round " << round;
    }
  }
}

/// What C's neighbor_alltoallv with the receive counts exchanged first gives: the counts, their
/// displacements and the data, both calls in the blocking or the nonblocking form.
struct c_exchanged {
  std::vector<int> counts;
  std::vector<int> displs;
  std::vector<int> data;
};
c_exchanged c_neighbor_alltoallv(MPI_Comm comm, const std::vector<int>& send,
                                 const std::vector<int>& sendcounts, int in_degree, form how) {
  std::vector<int> sdispls(sendcounts.size());
  std::exclusive_scan(sendcounts.begin(), sendcounts.end(), sdispls.begin(), 0);
  c_exchanged got{c_neighbor_alltoall(comm, sendcounts, 1, std::vector<int>(uz(in_degree)), how),
                  std::vector<int>(uz(in_degree)),
                  {}};
  std::exclusive_scan(got.counts.begin(), got.counts.end(), got.displs.begin(), 0);
  got.data.resize(uz(std::reduce(got.counts.begin(), got.counts.end())));
  if (const auto lists = thinmpi_test::lists_of(comm); lists.repeats()) {
    const thinmpi_test::reference_comm messages(comm);
    thinmpi_test::reference_alltoallv(messages.get(), lists, send, sendcounts, sdispls, got.data,
                                      got.counts, got.displs);
  } else if (how == form::blocking) {
    MPI_Neighbor_alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, got.data.data(),
                           got.counts.data(), got.displs.data(), MPI_INT, comm);
  } else {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ineighbor_alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT,
                            got.data.data(), got.counts.data(), got.displs.data(), MPI_INT, comm,
                            &request);
    c_wait(request);
  }
  return got;
}

TEST(NeighborAlltoallv, EveryFormMatchesC) {
  for (const bool periodic : {true, false}) {
    auto grid = grid_2d(periodic);
    const std::vector<int> sendcounts{1, 2, 3, 4};  // to out-neighbor i: i + 1 elements
    std::vector<int> sdispls(4);
    std::exclusive_scan(sendcounts.begin(), sendcounts.end(), sdispls.begin(), 0);
    const std::vector<int> send = iota_from(grid.rank() * 100, 10);
    const c_exchanged c = c_neighbor_alltoallv(grid.native(), send, sendcounts, 4, form::blocking);
    const c_exchanged c_i =
        c_neighbor_alltoallv(grid.native(), send, sendcounts, 4, form::nonblocking);
    // Blocking: counts given, with and without displacements, and exchanged.
    // Filled as C's result is (MPICH 4.0.2 may send fewer elements than the exchanged counts
    // where neighbors coincide).
    std::vector<int> into(c.data.size(), 0);
    grid.neighbor_alltoallv(send, sendcounts, sdispls, into, c.counts, c.displs);
    EXPECT_EQ(into, c.data);
    std::vector<int> packed(c.data.size() + 4, 0);
    grid.neighbor_alltoallv(send, sendcounts, packed, c.counts);
    EXPECT_EQ(packed, c.data);
    const auto exchanged = grid.neighbor_alltoallv(send, sendcounts, thinmpi::exchange_counts);
    EXPECT_EQ(exchanged.counts, c.counts);
    EXPECT_EQ(exchanged.displs, c.displs);
    EXPECT_EQ(exchanged.data, c.data);
    // Nonblocking.
    auto started = grid.ineighbor_alltoallv(send, sendcounts, thinmpi::exchange_counts);
    EXPECT_EQ(started.wait().data, c_i.data);
    const std::size_t total = c_i.data.size();
    EXPECT_EQ(grid.ineighbor_alltoallv(send, sendcounts, sdispls, std::vector<int>(total),
                                       c_i.counts, c_i.displs)
                  .wait(),
              c_i.data);
    EXPECT_EQ(
        grid.ineighbor_alltoallv(send, sendcounts, std::vector<int>(total), c_i.counts).wait(),
        c_i.data);
    // Persistent (paired as the nonblocking form).
    std::vector<int> round_send = send;
    std::vector<int> round_into(total);
    auto rounds = grid.neighbor_alltoallv_init(round_send, sendcounts, sdispls, round_into,
                                               c_i.counts, c_i.displs);
    auto packed_rounds =
        grid.neighbor_alltoallv_init(send, sendcounts, std::vector<int>(total), c_i.counts);
    for (int round = 0; round < 2; ++round) {
      rounds.start();
      packed_rounds.start();
      rounds.wait();
      const std::span<int> got = packed_rounds.wait();
      EXPECT_EQ(round_into, c_i.data);
      EXPECT_EQ(std::vector<int>(got.begin(), got.end()), c_i.data);
    }
  }
}

/// The halo of a row-major n x n field with a ghost ring: the border rows and columns go to the
/// neighbors as strided MPI datatypes (no packing copy), the ghosts are filled from theirs.
struct halo_types {
  explicit halo_types(int n) {
    const int width = n + 2;
    MPI_Type_vector(n, 1, width, MPI_INT, &column);
    MPI_Type_contiguous(n, MPI_INT, &row);
    MPI_Type_commit(&column);
    MPI_Type_commit(&row);
    const auto at = [width](int y, int x) {
      return static_cast<MPI_Aint>((y * width + x) * static_cast<int>(sizeof(int)));
    };
    // Neighbor order: dim 0 below, above (rows); dim 1 below, above (columns).
    types = {row, row, column, column};
    sdispls = {at(1, 1), at(n, 1), at(1, 1), at(1, n)};
    rdispls = {at(0, 1), at(n + 1, 1), at(1, 0), at(1, n + 1)};
  }
  halo_types(const halo_types&) = delete;
  halo_types& operator=(const halo_types&) = delete;
  ~halo_types() {
    MPI_Type_free(&column);
    MPI_Type_free(&row);
  }
  MPI_Datatype column = MPI_DATATYPE_NULL;
  MPI_Datatype row = MPI_DATATYPE_NULL;
  std::vector<MPI_Datatype> types;
  std::vector<MPI_Aint> sdispls;
  std::vector<MPI_Aint> rdispls;
  std::vector<int> counts{1, 1, 1, 1};
};

TEST(NeighborAlltoallw, StridedHalosMatchC) {
  for (const bool periodic : {true, false}) {
    auto grid = grid_2d(periodic);
    constexpr int n = 3;
    const halo_types h(n);
    std::vector<int> field(uz((n + 2) * (n + 2)), -1);
    for (int y = 1; y <= n; ++y) {
      for (int x = 1; x <= n; ++x)
        field[uz(y * (n + 2) + x)] = grid.rank() * 100 + y * 10 + x;
    }
    std::vector<int> expected = field;
    std::vector<int> expected_i = field;
    if (const auto lists = thinmpi_test::lists_of(grid.native()); lists.repeats()) {
      // C's calls pair wrongly here (see `form`): MPI's definition, by point-to-point.
      const thinmpi_test::reference_comm messages(grid.native());
      thinmpi_test::reference_alltoallw(messages.get(), lists, field.data(),
                                        {h.counts, h.sdispls, h.types}, expected.data(),
                                        {h.counts, h.rdispls, h.types});
      expected_i = expected;
    } else {
      MPI_Neighbor_alltoallw(field.data(), h.counts.data(), h.sdispls.data(), h.types.data(),
                             expected.data(), h.counts.data(), h.rdispls.data(), h.types.data(),
                             grid.native());
      MPI_Request request = MPI_REQUEST_NULL;
      MPI_Ineighbor_alltoallw(field.data(), h.counts.data(), h.sdispls.data(), h.types.data(),
                              expected_i.data(), h.counts.data(), h.rdispls.data(), h.types.data(),
                              grid.native(), &request);
      c_wait(request);
    }
    // Independently of any MPI call: each ghost row and column holds the neighbor's border.
    const auto lists = thinmpi_test::lists_of(grid.native());
    for (int x = 1; x <= n; ++x) {
      const auto ghost = [&](int y, int from, int their_y) {
        if (from != MPI_PROC_NULL) {
          EXPECT_EQ(expected[uz(y * (n + 2) + x)], from * 100 + their_y * 10 + x);
        }
      };
      ghost(0, lists.sources[0], n);      // below: its top interior row
      ghost(n + 1, lists.sources[1], 1);  // above: its bottom interior row
    }
    std::vector<int> into = field;
    grid.neighbor_alltoallw(field, h.counts, h.sdispls, h.types, into, h.counts, h.rdispls,
                            h.types);
    EXPECT_EQ(into, expected);
    std::vector<int> started_into = field;
    auto started = grid.ineighbor_alltoallw(field, h.counts, h.sdispls, h.types, started_into,
                                            h.counts, h.rdispls, h.types);
    started.wait();
    EXPECT_EQ(started_into, expected_i);
    EXPECT_EQ(grid.ineighbor_alltoallw(field, h.counts, h.sdispls, h.types, std::vector<int>(field),
                                       h.counts, h.rdispls, h.types)
                  .wait(),
              expected_i);
    // In one buffer, persistent: the ghosts are refreshed each round from the interior.
    std::vector<int> same = field;
    auto rounds = grid.neighbor_alltoallw_init(same, h.counts, h.sdispls, h.types, same, h.counts,
                                               h.rdispls, h.types);
    for (int round = 0; round < 2; ++round) {
      rounds.start();
      rounds.wait();
      EXPECT_EQ(same, expected_i);
    }
  }
}

/// The ring as a distributed graph: in from prev and next, out to prev and next.
TEST(Graph, AdjacentRingMatchesC) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> both{r.prev(), r.next()};
  thinmpi::graph_communicator g(world, both, both, false);
  EXPECT_FALSE(g.weighted());
  EXPECT_EQ(g.in_degree(), 2);
  EXPECT_EQ(g.out_degree(), 2);
  EXPECT_EQ(g.in_neighbors(), both);
  EXPECT_EQ(g.out_neighbors(), both);
  EXPECT_TRUE(g.in_weights().empty());
  EXPECT_EQ(g.neighbor_allgather(g.rank()), both);
  const std::vector<int> send = blocks_for(g.rank(), 2, 3);
  EXPECT_EQ(g.neighbor_alltoall(send),
            c_neighbor_alltoall(g.native(), send, 3, std::vector<int>(6, -1)));
  // Every plain operation works on it too.
  EXPECT_EQ(g.allreduce(1, std::plus<>{}), r.size);
}

TEST(Graph, WeightedEdgesAreReported) {
  auto world = thinmpi::world();
  const ring r(world);
  const std::vector<int> in{r.prev()};
  const std::vector<int> out{r.next()};
  thinmpi::graph_communicator g(world, in, {r.prev() + 1}, out, {r.rank + 1}, false);
  EXPECT_TRUE(g.weighted());
  EXPECT_EQ(g.in_neighbors(), in);
  EXPECT_EQ(g.out_neighbors(), out);
  EXPECT_EQ(g.in_weights(), std::vector<int>{r.prev() + 1});
  EXPECT_EQ(g.out_weights(), std::vector<int>{r.rank + 1});
  EXPECT_EQ(g.neighbor_allgather(g.rank() * 2), std::vector<int>{r.prev() * 2});
}

TEST(Graph, GeneralGraphLearnsItsNeighbors) {
  auto world = thinmpi::world();
  const ring r(world);
  // Rank 0 declares every edge r -> r+1; the others none.
  std::vector<int> sources;
  std::vector<int> degrees;
  std::vector<int> destinations;
  if (r.rank == 0) {
    for (int rank = 0; rank < r.size; ++rank) {
      sources.push_back(rank);
      degrees.push_back(1);
      destinations.push_back((rank + 1) % r.size);
    }
  }
  auto g = thinmpi::graph_communicator::general(world, sources, degrees, destinations, false);
  EXPECT_EQ(g.in_neighbors(), std::vector<int>{r.prev()});
  EXPECT_EQ(g.out_neighbors(), std::vector<int>{r.next()});
  auto weighted =
      thinmpi::graph_communicator::general(world, {r.rank}, {1}, {r.next()}, {5}, false);
  EXPECT_EQ(weighted.in_weights(), std::vector<int>{5});
  const auto v = weighted.neighbor_alltoallv(
      iota_from(r.rank, uz(r.rank + 1)), std::vector<int>{r.rank + 1}, thinmpi::exchange_counts);
  EXPECT_EQ(v.counts, std::vector<int>{r.prev() + 1});
  EXPECT_EQ(v.data, iota_from(r.prev(), uz(r.prev() + 1)));
}

TEST(Graph, AStarHasDifferentInAndOutDegrees) {
  auto world = thinmpi::world();
  const ring r(world);
  // Rank 0 sends to every other rank and receives from none; the others receive from 0.
  std::vector<int> sources;
  std::vector<int> destinations;
  if (r.rank == 0) {
    for (int rank = 1; rank < r.size; ++rank)
      destinations.push_back(rank);
  } else {
    sources.push_back(0);
  }
  thinmpi::graph_communicator star(world, sources, destinations);
  EXPECT_EQ(star.in_degree(), r.rank == 0 ? 0 : 1);
  EXPECT_EQ(star.out_degree(), r.rank == 0 ? r.size - 1 : 0);
  const std::vector<int> send = r.rank == 0 ? blocks_for(0, r.size - 1, 2) : std::vector<int>{};
  std::vector<int> into(r.rank == 0 ? 0 : 2, -1);
  star.neighbor_alltoall(send, into);
  EXPECT_EQ(into, c_neighbor_alltoall(star.native(), send, 2, std::vector<int>(into.size(), -1)));
  if (r.rank != 0) {
    EXPECT_EQ(into, (std::vector<int>{(r.rank - 1) * 10, (r.rank - 1) * 10 + 1}));
  }
  const auto gathered = star.neighbor_allgatherv(iota_from(0, 3), thinmpi::exchange_counts);
  EXPECT_EQ(gathered.data, r.rank == 0 ? std::vector<int>{} : iota_from(0, 3));
}

TEST(Graph, Views) {
  auto world = thinmpi::world();
  const ring r(world);
  // Bad edges are each rank's own: they end the job, or checked every rank throws
  // (faults/root_only_topology_cases.hpp).
  const auto not_a_graph = error_from([&] { thinmpi::graph_view v(world.native()); });
  EXPECT_EQ(not_a_graph.error_class(), MPI_ERR_TOPOLOGY);
  // The communicator works after every error above; a view of a graph made in C.
  const int source = r.prev();
  const int dest = r.next();
  MPI_Comm c_graph = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &source, MPI_UNWEIGHTED, 1, &dest,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c_graph);
  const thinmpi::graph_view view(c_graph);
  EXPECT_EQ(view.neighbor_allgather(world.rank()), std::vector<int>{r.prev()});
  const thinmpi::neighborhood_view& any = view;
  EXPECT_EQ(any.in_degree(), 1);
  thinmpi::graph_communicator owned = thinmpi::graph_communicator::adopt(c_graph);
  EXPECT_EQ(owned.out_neighbors(), std::vector<int>{r.next()});
}

}  // namespace
