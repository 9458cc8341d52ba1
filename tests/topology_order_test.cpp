// Every neighborhood collective, in every form, delivers MPI's defined order on every topology,
// including those where a neighbor repeats: Cartesian grids of 1 to 3 dimensions whose
// dimensions have 1, 2, 3 or 4 ranks, periodic and not, and distributed graphs that name an
// edge twice or a rank itself. The reference is independent of MPI's neighborhood collectives:
// the neighbor lists from MPI_Cart_shift or MPI_Dist_graph_neighbors, the pairing the MPI
// standard defines (MPI-4.1 section 8.6: on a grid, the block sent towards +d lands in the
// neighbor's slot for -d and the other way round; on a graph, the k-th edge to a rank meets the
// k-th edge from it), and point-to-point messages with one tag per pairing key on a duplicate of
// the communicator. Open MPI 4.1.4 and MPICH 4.0.2 each get some of these wrong
// (topology/detail/neighbor_routes.hpp); thinmpi must not.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/neighbor_reference.hpp"
#include "support/ring.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::uz;

constexpr int sentinel = -1;

/// A topology under test: its communicator, its neighbor lists as MPI gives them with their
/// pairing keys (support/neighbor_reference.hpp), and a duplicate for the reference's messages.
struct topology_case {
  std::string name;
  std::unique_ptr<thinmpi::cartesian_communicator> grid;
  std::unique_ptr<thinmpi::graph_communicator> graph;
  thinmpi_test::neighbor_lists lists;
  std::unique_ptr<thinmpi_test::reference_comm> messages;

  [[nodiscard]] const thinmpi::neighborhood_view& topology() const {
    if (grid) return *grid;
    return *graph;
  }
  [[nodiscard]] int rank() const { return topology().rank(); }
  [[nodiscard]] std::size_t in() const { return lists.sources.size(); }
  [[nodiscard]] std::size_t out() const { return lists.destinations.size(); }
  void read_lists() {
    lists = thinmpi_test::lists_of(topology().native());
    messages = std::make_unique<thinmpi_test::reference_comm>(topology().native());
  }
};

/// The Cartesian case of dims and periods over the first ranks of the world (the others get
/// the null communicator and no case).
std::unique_ptr<topology_case> grid_case(const std::vector<int>& dims,
                                         const std::vector<int>& periods) {
  auto c = std::make_unique<topology_case>();
  c->grid = std::make_unique<thinmpi::cartesian_communicator>(thinmpi::world(), dims, periods);
  if (c->grid->is_null()) return nullptr;
  std::string name = "grid {";
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (d != 0) name.push_back(',');
    name.append(std::to_string(dims[d]));
    if (periods[d] != 0) name.push_back('p');
  }
  name.push_back('}');
  c->name = name;
  c->read_lists();
  return c;
}

/// A graph case.
std::unique_ptr<topology_case> graph_case(std::string name, thinmpi::graph_communicator graph) {
  auto c = std::make_unique<topology_case>();
  c->name = std::move(name);
  c->graph = std::make_unique<thinmpi::graph_communicator>(std::move(graph));
  c->read_lists();
  return c;
}

/// Every topology of the cross-check at this world size.
std::vector<std::unique_ptr<topology_case>> all_cases() {
  const int p = thinmpi::world().size();
  const int rank = thinmpi::world().rank();
  // Dimensions of 1 to 4 ranks, alone and beside dimensions of 1, at every combination of
  // periods; at 4 ranks a 2 x 2 grid (a neighbor repeated in both dimensions); grids smaller
  // than the world (the ranks left out get the null communicator and skip them). The wide runs
  // (8 and 16 ranks, THINMPI_WIDE_RANKS) take the ring of every rank, what dims_create gives
  // there beside a dimension of 2 ({p/2, 2}), and grids whose every dimension has 2 ranks
  // (2 x 2 x 2, 2 x 2 x 2 x 2: no, every and alternate dimensions periodic); the dimensions of
  // 1 are the 1-4 rank runs' (MPICH's oversubscribed ranks take seconds per grid there).
  std::vector<std::vector<int>> shapes = {{p}};
  if (p <= 4) {
    shapes.insert(shapes.end(), {{p, 1}, {1, p}, {1, 1, p}});
    if (p == 4) shapes.push_back({2, 2});
    if (p >= 3) shapes.push_back({2});
    if (p >= 4) shapes.push_back({3, 1});
  } else {
    shapes.push_back({p / 2, 2});
    shapes.push_back({2, 2, 2});
    if (p >= 16) shapes.push_back({2, 2, 2, 2});
  }
  std::vector<std::unique_ptr<topology_case>> cases;
  for (const auto& dims : shapes) {
    const std::size_t n = dims.size();
    const unsigned all_periodic = (1U << n) - 1;
    for (unsigned mask = 0; mask <= all_periodic; ++mask) {
      // Past 2 dimensions in the wide runs: none, every and alternate dimensions periodic.
      const bool alternate = mask == (0x5U & all_periodic) || mask == (0xAU & all_periodic);
      if (p > 4 && n > 2 && mask != 0 && mask != all_periodic && !alternate) continue;
      std::vector<int> periods(n);
      for (std::size_t d = 0; d < n; ++d)
        periods[d] = static_cast<int>((mask >> d) & 1U);
      auto c = grid_case(dims, periods);
      if (c) cases.push_back(std::move(c));
    }
  }
  const auto world = thinmpi::world();
  const int left = (rank + p - 1) % p;
  const int right = (rank + 1) % p;
  // A ring naming both neighbors on both sides: at 1 and 2 ranks they are one rank.
  cases.push_back(
      graph_case("ring", thinmpi::graph_communicator(world, {left, right}, {left, right})));
  // The ring and this rank itself twice, in another order on each side.
  cases.push_back(graph_case(
      "ring+self",
      thinmpi::graph_communicator(world, {rank, left, rank, right}, {right, rank, left, rank})));
  // The same, made in C and seen through a view (thinmpi did not make it, so it cannot know
  // whether another rank's lists repeat).
  const int c_sources[4] = {rank, left, rank, right};
  const int c_destinations[4] = {right, rank, left, rank};
  MPI_Comm c_graph = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(world.native(), 4, c_sources, MPI_UNWEIGHTED, 4, c_destinations,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c_graph);
  cases.push_back(graph_case("ring+self, adopted", thinmpi::graph_communicator::adopt(c_graph)));
  // Edges to the next rank three times and the one after twice, made by MPI from edges
  // (MPI_Dist_graph_create): MPI orders each rank's lists.
  const int next2 = (rank + 2) % p;
  cases.push_back(
      graph_case("multigraph", thinmpi::graph_communicator::general(
                                   world, {rank}, {5}, {right, next2, right, next2, right})));
  return cases;
}

/// The value of element e of the block a rank sends with pairing key `key` to `to`.
int value(int from, int to, int key, std::size_t e) {
  return 100000 * from + 1000 * to + 10 * key + static_cast<int>(e);
}
/// Elements in that block, for the v- and w-forms: 1 to 3, known to both ends.
int count_of(int from, int to, int key) {
  return 1 + (3 * from + 5 * to + key) % 3;
}

/// What arrives in each in-slot (support/neighbor_reference.hpp): `block(i)` is out-block i;
/// slot j receives `room(j)` elements. Slots of MPI_PROC_NULL sources stay `fill`.
std::vector<std::vector<int>> reference(const topology_case& c,
                                        const std::function<std::vector<int>(std::size_t)>& block,
                                        const std::function<std::size_t(std::size_t)>& room,
                                        int fill = sentinel) {
  std::vector<int> send;
  std::vector<int> sendcounts;
  std::vector<int> sdispls;
  for (std::size_t i = 0; i < c.out(); ++i) {
    const auto b = block(i);
    sdispls.push_back(static_cast<int>(send.size()));
    sendcounts.push_back(static_cast<int>(b.size()));
    send.insert(send.end(), b.begin(), b.end());
  }
  std::vector<int> recv;
  std::vector<int> recvcounts;
  std::vector<int> rdispls;
  for (std::size_t j = 0; j < c.in(); ++j) {
    rdispls.push_back(static_cast<int>(recv.size()));
    recvcounts.push_back(static_cast<int>(room(j)));
    recv.resize(recv.size() + room(j), fill);
  }
  thinmpi_test::reference_alltoallv(c.messages->get(), c.lists, send, sendcounts, sdispls, recv,
                                    recvcounts, rdispls);
  std::vector<std::vector<int>> received(c.in());
  for (std::size_t j = 0; j < c.in(); ++j) {
    const auto first = recv.begin() + rdispls[j];
    received[j].assign(first, first + recvcounts[j]);
  }
  return received;
}

std::vector<int> joined(const std::vector<std::vector<int>>& blocks) {
  std::vector<int> all;
  for (const auto& b : blocks)
    all.insert(all.end(), b.begin(), b.end());
  return all;
}

/// The equal blocks of a neighbor_alltoall (2 elements each) and what the reference says
/// arrives, round `round` (the persistent forms run two with other data).
struct alltoall_data {
  std::vector<int> send;
  std::vector<int> expected;  // sentinel in the slots of MPI_PROC_NULL sources
};
alltoall_data alltoall_of(const topology_case& c, int round) {
  constexpr std::size_t block = 2;
  const auto out_block = [&](std::size_t i) {
    std::vector<int> b(block);
    for (std::size_t e = 0; e < block; ++e) {
      b[e] = value(c.rank(), c.lists.destinations[i], c.lists.destination_keys[i], e) + round * 7;
    }
    return b;
  };
  alltoall_data d;
  for (std::size_t i = 0; i < c.out(); ++i) {
    const auto b = out_block(i);
    d.send.insert(d.send.end(), b.begin(), b.end());
  }
  d.expected = joined(reference(c, out_block, [](std::size_t) { return block; }));
  return d;
}

/// The varying blocks of a neighbor_alltoallv: counts, displacements with a gap of one
/// element before each block, and what arrives (sentinels in the gaps too).
struct alltoallv_data {
  std::vector<int> send, sendcounts, sdispls, recvcounts, rdispls, expected, packed_expected;
};
alltoallv_data alltoallv_of(const topology_case& c, int round) {
  alltoallv_data d;
  const auto out_block = [&](std::size_t i) {
    const int to = c.lists.destinations[i];
    const int n = to == MPI_PROC_NULL ? 1 : count_of(c.rank(), to, c.lists.destination_keys[i]);
    std::vector<int> b(static_cast<std::size_t>(n));
    for (std::size_t e = 0; e < b.size(); ++e) {
      b[e] = value(c.rank(), to, c.lists.destination_keys[i], e) + round * 7;
    }
    return b;
  };
  const auto room = [&](std::size_t j) {
    const int from = c.lists.sources[j];
    return static_cast<std::size_t>(
        from == MPI_PROC_NULL ? 1 : count_of(from, c.rank(), c.lists.source_keys[j]));
  };
  for (std::size_t i = 0; i < c.out(); ++i) {
    const auto b = out_block(i);
    d.send.push_back(sentinel);  // the gap
    d.sdispls.push_back(static_cast<int>(d.send.size()));
    d.sendcounts.push_back(static_cast<int>(b.size()));
    d.send.insert(d.send.end(), b.begin(), b.end());
  }
  const auto arrived = reference(c, out_block, room);
  for (std::size_t j = 0; j < c.in(); ++j) {
    d.expected.push_back(sentinel);
    d.rdispls.push_back(static_cast<int>(d.expected.size()));
    d.recvcounts.push_back(static_cast<int>(arrived[j].size()));
    d.expected.insert(d.expected.end(), arrived[j].begin(), arrived[j].end());
  }
  d.packed_expected = joined(arrived);
  return d;
}

/// Where a thinmpi form went wrong, for the failure message.
std::string where(const topology_case& c, const char* form) {
  return c.name + " at " + std::to_string(thinmpi::world().size()) + " ranks, rank " +
         std::to_string(thinmpi::world().rank()) + ": " + form;
}

/// Two rounds of a persistent alltoallv or alltoallw whose named buffers are `send` and `into`,
/// each with the data of alltoallv_of(round), against the reference.
template <class Request>
void varying_rounds(const topology_case& c, Request& persistent, std::vector<int>& send,
                    std::vector<int>& into, const char* form) {
  for (int round = 0; round < 2; ++round) {
    const auto r = alltoallv_of(c, round);
    send = r.send;
    std::fill(into.begin(), into.end(), sentinel);
    persistent.start();
    persistent.wait();
    EXPECT_EQ(into, r.expected) << where(c, form) << ", round " << round;
  }
}

/// Every form of the family on topology c, against the reference.
void check_alltoall(const topology_case* c) {
  {
    const auto& t = c->topology();
    {
      const auto d = alltoall_of(*c, 0);
      std::vector<int> into(d.expected.size(), sentinel);
      t.neighbor_alltoall(d.send, into);
      EXPECT_EQ(into, d.expected) << where(*c, "neighbor_alltoall");
      if (!d.send.empty()) {
        std::vector<int> zeroed = d.expected;  // the allocating form value-initializes
        for (std::size_t j = 0; j < c->in(); ++j) {
          if (c->lists.sources[j] == MPI_PROC_NULL) zeroed[2 * j] = zeroed[2 * j + 1] = 0;
        }
        EXPECT_EQ(t.neighbor_alltoall(d.send), zeroed) << where(*c, "neighbor_alltoall(send)");
      } else {
        // No out-neighbors: the allocating form cannot tell the block (its own test).
        std::vector<int> none;
        t.neighbor_alltoall(d.send, none);
      }
      std::vector<int> async(d.expected.size(), sentinel);
      auto request = t.ineighbor_alltoall(d.send, async);
      request.wait();
      EXPECT_EQ(async, d.expected) << where(*c, "ineighbor_alltoall");
    }
    {
      auto d = alltoall_of(*c, 0);
      std::vector<int> send = d.send;
      std::vector<int> into(d.expected.size(), sentinel);
      auto persistent = t.neighbor_alltoall_init(send, into);
      for (int round = 0; round < 2; ++round) {
        d = alltoall_of(*c, round);
        send = d.send;
        std::fill(into.begin(), into.end(), sentinel);
        persistent.start();
        persistent.wait();
        EXPECT_EQ(into, d.expected) << where(*c, "neighbor_alltoall_init, round ") << round;
      }
    }
  }
}

/// Every form of the family on topology c, against the reference.
void check_alltoallv(const topology_case* c) {
  {
    const auto& t = c->topology();
    auto d = alltoallv_of(*c, 0);
    std::vector<int> into(d.expected.size(), sentinel);
    t.neighbor_alltoallv(d.send, d.sendcounts, d.sdispls, into, d.recvcounts, d.rdispls);
    EXPECT_EQ(into, d.expected) << where(*c, "neighbor_alltoallv (displacements given)");

    std::vector<int> packed_send;
    for (std::size_t i = 0; i < d.sendcounts.size(); ++i) {
      const auto first = d.send.begin() + d.sdispls[i];
      packed_send.insert(packed_send.end(), first, first + d.sendcounts[i]);
    }
    std::vector<int> packed(d.packed_expected.size(), sentinel);
    t.neighbor_alltoallv(packed_send, d.sendcounts, packed, d.recvcounts);
    EXPECT_EQ(packed, d.packed_expected) << where(*c, "neighbor_alltoallv (packed)");

    std::vector<int> async(d.expected.size(), sentinel);
    auto request =
        t.ineighbor_alltoallv(d.send, d.sendcounts, d.sdispls, async, d.recvcounts, d.rdispls);
    request.wait();
    EXPECT_EQ(async, d.expected) << where(*c, "ineighbor_alltoallv");

    std::vector<int> async_packed(d.packed_expected.size(), sentinel);
    auto packed_request =
        t.ineighbor_alltoallv(packed_send, d.sendcounts, async_packed, d.recvcounts);
    packed_request.wait();
    EXPECT_EQ(async_packed, d.packed_expected) << where(*c, "ineighbor_alltoallv (packed)");

    // exchange_counts: the slots of MPI_PROC_NULL sources get no element.
    std::vector<int> exchanged_expected;
    std::vector<int> exchanged_counts;
    for (std::size_t j = 0, at = 0; j < c->in(); ++j) {
      const int n = d.recvcounts[j];
      const bool none = c->lists.sources[j] == MPI_PROC_NULL;
      exchanged_counts.push_back(none ? 0 : n);
      for (int e = 0; e < n && !none; ++e)
        exchanged_expected.push_back(d.packed_expected[at + static_cast<std::size_t>(e)]);
      at += static_cast<std::size_t>(n);
    }
    const auto exchanged =
        t.neighbor_alltoallv(packed_send, d.sendcounts, thinmpi::exchange_counts);
    EXPECT_EQ(exchanged.data, exchanged_expected)
        << where(*c, "neighbor_alltoallv exchange_counts");
    EXPECT_EQ(exchanged.counts, exchanged_counts)
        << where(*c, "neighbor_alltoallv exchange_counts");
    auto exchanging = t.ineighbor_alltoallv(packed_send, d.sendcounts, thinmpi::exchange_counts);
    const auto async_exchanged = exchanging.wait();
    EXPECT_EQ(async_exchanged.data, exchanged_expected)
        << where(*c, "ineighbor_alltoallv exchange_counts");

    std::vector<int> send = d.send;
    std::vector<int> persistent_into(d.expected.size(), sentinel);
    auto persistent = t.neighbor_alltoallv_init(send, d.sendcounts, d.sdispls, persistent_into,
                                                d.recvcounts, d.rdispls);
    varying_rounds(*c, persistent, send, persistent_into, "neighbor_alltoallv_init");
  }
}

/// Every form of the family on topology c, against the reference.
void check_alltoallw(const topology_case* c) {
  {
    const auto& t = c->topology();
    const auto d = alltoallv_of(*c, 0);
    const auto bytes = [](const std::vector<int>& displs) {
      std::vector<MPI_Aint> b;
      for (int x : displs)
        b.push_back(static_cast<MPI_Aint>(x) * static_cast<MPI_Aint>(sizeof(int)));
      return b;
    };
    const std::vector<MPI_Aint> sdispls = bytes(d.sdispls);
    const std::vector<MPI_Aint> rdispls = bytes(d.rdispls);
    const std::vector<MPI_Datatype> stypes(c->out(), MPI_INT);
    const std::vector<MPI_Datatype> rtypes(c->in(), MPI_INT);
    std::vector<int> into(d.expected.size(), sentinel);
    t.neighbor_alltoallw(d.send, d.sendcounts, sdispls, stypes, into, d.recvcounts, rdispls,
                         rtypes);
    EXPECT_EQ(into, d.expected) << where(*c, "neighbor_alltoallw");

    std::vector<int> async(d.expected.size(), sentinel);
    auto request = t.ineighbor_alltoallw(d.send, d.sendcounts, sdispls, stypes, async, d.recvcounts,
                                         rdispls, rtypes);
    request.wait();
    EXPECT_EQ(async, d.expected) << where(*c, "ineighbor_alltoallw");

    std::vector<int> send = d.send;
    std::vector<int> persistent_into(d.expected.size(), sentinel);
    auto persistent = t.neighbor_alltoallw_init(send, d.sendcounts, sdispls, stypes,
                                                persistent_into, d.recvcounts, rdispls, rtypes);
    varying_rounds(*c, persistent, send, persistent_into, "neighbor_alltoallw_init");
  }
}

/// Every form of the family on topology c, against the reference.
void check_allgather(const topology_case* c) {
  {
    const auto& t = c->topology();
    const int me = c->rank();
    // Every rank sends the same block to every out-neighbor: 2 elements, or 1 + me % 3 for v.
    const std::vector<int> mine = {value(me, 0, 0, 0), value(me, 0, 0, 1)};
    const auto expected = joined(reference(
        *c, [&](std::size_t) { return mine; }, [](std::size_t) { return 2; }));
    std::vector<int> into(expected.size(), sentinel);
    t.neighbor_allgather(mine, into);
    EXPECT_EQ(into, expected) << where(*c, "neighbor_allgather");
    std::vector<int> async(expected.size(), sentinel);
    auto request = t.ineighbor_allgather(mine, async);
    request.wait();
    EXPECT_EQ(async, expected) << where(*c, "ineighbor_allgather");
    std::vector<int> persistent_into(expected.size(), sentinel);
    auto persistent = t.neighbor_allgather_init(mine, persistent_into);
    persistent.start();
    persistent.wait();
    EXPECT_EQ(persistent_into, expected) << where(*c, "neighbor_allgather_init");

    const auto count = [](int rank) { return static_cast<std::size_t>(1 + rank % 3); };
    std::vector<int> varying(count(me));
    for (std::size_t e = 0; e < varying.size(); ++e)
      varying[e] = value(me, 0, 0, e);
    std::vector<int> recvcounts;
    for (int source : c->lists.sources)
      recvcounts.push_back(source == MPI_PROC_NULL ? 0 : static_cast<int>(count(source)));
    const auto varying_expected = joined(reference(
        *c, [&](std::size_t) { return varying; },
        [&](std::size_t j) { return static_cast<std::size_t>(recvcounts[j]); }));
    std::vector<int> v_into(varying_expected.size(), sentinel);
    t.neighbor_allgatherv(varying, v_into, recvcounts);
    EXPECT_EQ(v_into, varying_expected) << where(*c, "neighbor_allgatherv");
    const auto exchanged = t.neighbor_allgatherv(varying, thinmpi::exchange_counts);
    EXPECT_EQ(exchanged.data, varying_expected) << where(*c, "neighbor_allgatherv exchange_counts");
    auto exchanging = t.ineighbor_allgatherv(varying, thinmpi::exchange_counts);
    EXPECT_EQ(exchanging.wait().data, varying_expected)
        << where(*c, "ineighbor_allgatherv exchange_counts");
  }
}

TEST(NeighborOrder, EveryCollectiveInEveryFormOnEveryTopology) {
  for (const auto& c : all_cases()) {
    check_alltoall(c.get());
    check_alltoallv(c.get());
    check_alltoallw(c.get());
    check_allgather(c.get());
  }
}

/// A Cartesian grid whose neighbors are all distinct keeps MPI's one call: the routes choose
/// the matched exchange only where a neighbor repeats (the PMPI audit of wrapper-bench's
/// neighbors suite shows the calls; here, what the grid's shape decides).
TEST(NeighborOrder, RoutesFollowTheShape) {
  using thinmpi::detail::cartesian_routes;
  using thinmpi::detail::neighbor_family;
  using thinmpi::detail::neighbor_form;
  const std::vector<int> three = {3, 4};
  const std::vector<int> both = {1, 1};
  EXPECT_EQ(cartesian_routes(three, both).matched, 0);  // 3 x 4 torus: distinct
  const std::vector<int> open = {0, 0};
  const std::vector<int> small = {2, 1};
  EXPECT_EQ(cartesian_routes(small, open).matched, 0);  // open edges never repeat
  const auto repeated = cartesian_routes(small, both);
  for (auto family :
       {neighbor_family::alltoall, neighbor_family::alltoallv, neighbor_family::alltoallw}) {
    for (auto form :
         {neighbor_form::blocking, neighbor_form::nonblocking, neighbor_form::persistent}) {
      EXPECT_EQ(repeated.takes_matched(family, form),
                !thinmpi::detail::mpi_pairs_cartesian_repeats(family, form, 1));
    }
  }
}

/// The MPI calls a neighborhood alltoall makes, counted through the profiling interface: this
/// test binary defines the MPI functions below, which count and call their PMPI_ twins.
struct call_counts {
  int neighbor = 0;   ///< MPI_Neighbor_alltoall(v/w), MPI_Ineighbor_alltoall(v/w)
  int alltoallw = 0;  ///< MPI_Alltoallw, MPI_Ialltoallw: thinmpi's path where a neighbor repeats
};
call_counts counted;

TEST(NeighborOrder, ADistinctGridKeepsItsOneCallAndARepeatedOneTakesAlltoallw) {
  const auto world = thinmpi::world();
  const int p = world.size();
  // Distinct neighbors: a ring of 3 or more, or a grid that is not periodic.
  const thinmpi::cartesian_communicator distinct(world, {p}, {p >= 3});
  // Repeated: a periodic dimension of 1 rank beside it.
  const thinmpi::cartesian_communicator repeated(world, {p, 1}, {p >= 3, true});
  std::vector<int> send(2 * uz(distinct.out_degree()), world.rank());
  std::vector<int> into(send.size());
  std::vector<int> send4(4, world.rank());
  std::vector<int> into4(4);
  const std::vector<int> ones(2, 1), ones4(4, 1), at = {0, 1}, at4 = {0, 1, 2, 3};
  const auto calls = [](auto&& body) {
    counted = {};
    body();
    return counted;
  };
  // The distinct grid: every form is its own MPI call, never MPI_Alltoallw.
  auto c = calls([&] { distinct.neighbor_alltoall(send, into); });
  EXPECT_EQ(c.neighbor, 1);
  EXPECT_EQ(c.alltoallw, 0);
  c = calls([&] { distinct.ineighbor_alltoall(send, into).wait(); });
  EXPECT_EQ(c.neighbor, 1);
  EXPECT_EQ(c.alltoallw, 0);
  c = calls([&] { distinct.neighbor_alltoallv(send, ones, at, into, ones, at); });
  EXPECT_EQ(c.neighbor, 1);
  EXPECT_EQ(c.alltoallw, 0);
  c = calls([&] { distinct.ineighbor_alltoallv(send, ones, at, into, ones, at).wait(); });
  EXPECT_EQ(c.neighbor, 1);
  EXPECT_EQ(c.alltoallw, 0);
  // The repeated grid: a form this MPI library pairs right keeps its call; the others are one
  // MPI_Alltoallw each (routes, decided from the shape).
  const auto routes =
      thinmpi::detail::cartesian_routes(std::vector<int>{p, 1}, std::vector<int>{p >= 3, 1});
  using thinmpi::detail::neighbor_family;
  using thinmpi::detail::neighbor_form;
  const auto expect = [&](call_counts got, neighbor_family family, neighbor_form form) {
    const bool routed = routes.takes_matched(family, form);
    EXPECT_EQ(got.neighbor, routed ? 0 : 1);
    EXPECT_EQ(got.alltoallw, routed ? 1 : 0);
  };
  expect(calls([&] { repeated.neighbor_alltoall(send4, into4); }), neighbor_family::alltoall,
         neighbor_form::blocking);
  expect(calls([&] { repeated.ineighbor_alltoall(send4, into4).wait(); }),
         neighbor_family::alltoall, neighbor_form::nonblocking);
  expect(calls([&] { repeated.neighbor_alltoallv(send4, ones4, at4, into4, ones4, at4); }),
         neighbor_family::alltoallv, neighbor_form::blocking);
  expect(calls([&] { repeated.ineighbor_alltoallv(send4, ones4, at4, into4, ones4, at4).wait(); }),
         neighbor_family::alltoallv, neighbor_form::nonblocking);
  // A graph thinmpi made knows whether any rank names an edge twice (agreed when it was made,
  // on MPICH 4.0 only): the ring repeats its neighbor at 1 and 2 ranks.
  const int right = (world.rank() + 1) % p;
  const int left = (world.rank() + p - 1) % p;
  const thinmpi::graph_communicator ring(world, {left, right}, {left, right});
  const bool ring_routed = p <= 2 && !thinmpi::detail::mpi_pairs_graph_alltoall_repeats;
  std::vector<int> from_ring(send.size());
  c = calls([&] { ring.neighbor_alltoall(send, from_ring); });
  EXPECT_EQ(c.neighbor, ring_routed ? 0 : 1);
  EXPECT_EQ(c.alltoallw, ring_routed ? 1 : 0);
  // A view of a graph made elsewhere cannot know: there (MPICH 4.0) every neighbor_alltoall is
  // one MPI_Neighbor_alltoallw, still one neighborhood call.
  const thinmpi::graph_view adopted(ring.native());
  c = calls([&] { adopted.neighbor_alltoall(send, from_ring); });
  EXPECT_EQ(c.neighbor, 1);
  EXPECT_EQ(c.alltoallw, 0);
}

}  // namespace

// The profiling interface's side of the audit above (MPI-4.1 chapter 15): each counts, then
// calls the library's PMPI_ function.
extern "C" {
int MPI_Neighbor_alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                          MPI_Comm c) {
  ++counted.neighbor;
  return PMPI_Neighbor_alltoall(s, sn, st, r, rn, rt, c);
}
int MPI_Ineighbor_alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                           MPI_Comm c, MPI_Request* q) {
  ++counted.neighbor;
  return PMPI_Ineighbor_alltoall(s, sn, st, r, rn, rt, c, q);
}
int MPI_Neighbor_alltoallv(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                           const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c) {
  ++counted.neighbor;
  return PMPI_Neighbor_alltoallv(s, sn, sd, st, r, rn, rd, rt, c);
}
int MPI_Ineighbor_alltoallv(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                            const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c,
                            MPI_Request* q) {
  ++counted.neighbor;
  return PMPI_Ineighbor_alltoallv(s, sn, sd, st, r, rn, rd, rt, c, q);
}
int MPI_Neighbor_alltoallw(const void* s, const int sn[], const MPI_Aint sd[],
                           const MPI_Datatype st[], void* r, const int rn[], const MPI_Aint rd[],
                           const MPI_Datatype rt[], MPI_Comm c) {
  ++counted.neighbor;
  return PMPI_Neighbor_alltoallw(s, sn, sd, st, r, rn, rd, rt, c);
}
int MPI_Alltoallw(const void* s, const int sn[], const int sd[], const MPI_Datatype st[], void* r,
                  const int rn[], const int rd[], const MPI_Datatype rt[], MPI_Comm c) {
  ++counted.alltoallw;
  return PMPI_Alltoallw(s, sn, sd, st, r, rn, rd, rt, c);
}
int MPI_Ialltoallw(const void* s, const int sn[], const int sd[], const MPI_Datatype st[], void* r,
                   const int rn[], const int rd[], const MPI_Datatype rt[], MPI_Comm c,
                   MPI_Request* q) {
  ++counted.alltoallw;
  return PMPI_Ialltoallw(s, sn, sd, st, r, rn, rd, rt, c, q);
}
}
