#pragma once
// The neighborhood collectives (include/thinmpi/topology/) called on every rank with an
// argument only one rank has wrong: its receive buffer, its own counts, displacements or send
// buffer (topology/detail/neighbor_checks.hpp). Every argument of a neighborhood collective is
// the rank's own, so each case is a rank-local one: the blocking forms complete a receive
// buffer that is too small into scratch and throw; everything else ends the job. The rank with
// the bad argument is `bad`, the last rank. They run on a periodic ring of every rank (two in-
// and two out-neighbors, prev and next; both are the other rank at 2 ranks), or on a chain
// 0 -> 1 -> ... -> last where the last rank has no out-neighbors. Included by
// root_only_cases.hpp, whose cases() lists these after the other collectives' ones.

#include <mpi.h>

#include <climits>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace root_only {

/// The periodic ring of every rank of `w` (made once, on first use, by every rank alike; not
/// reordered, so a rank is the same in the ring as in `w`).
inline const thinmpi::cartesian_communicator& ring_of(thinmpi::comm_view w) {
  static const thinmpi::cartesian_communicator ring(w, {w.size()}, {true});
  return ring;
}
/// The chain 0 -> 1 -> ... -> size() - 1: the last rank has an in-neighbor and no out-neighbor.
inline const thinmpi::graph_communicator& chain_of(thinmpi::comm_view w) {
  static const thinmpi::graph_communicator chain = [&] {
    const int me = w.rank();
    std::vector<int> sources;
    std::vector<int> destinations;
    if (me > 0) sources.push_back(me - 1);
    if (me + 1 < w.size()) destinations.push_back(me + 1);
    return thinmpi::graph_communicator(w, sources, destinations);
  }();
  return chain;
}

/// `n` ints on every rank, `n - 1` on `bad`.
inline std::vector<int> one_short_on(int rank, int bad, std::size_t n) {
  return std::vector<int>(rank == bad ? n - 1 : n, -1);
}

inline const std::vector<bad_call>& neighbor_cases() {
  using thinmpi::comm_view;
  constexpr int count = MPI_ERR_COUNT;
  constexpr int arg = MPI_ERR_ARG;
  const char* small = "is too small for";
  // Two ints to each of the ring's two neighbors, at 0 and 2.
  static const std::vector<int> two_each{2, 2};
  static const std::vector<int> at{0, 2};
  static const std::vector<bad_call> all{
      // A receive buffer too small (blocking forms): the rank takes part into scratch, then
      // throws; its neighbors complete with their own data.
      {"neighbor_allgather_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into = one_short_on(ring.rank(), bad, 4);
         ring.neighbor_allgather(std::vector<int>(2, ring.rank()), into);
       }},
      {"neighbor_allgatherv_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into = one_short_on(ring.rank(), bad, 4);
         ring.neighbor_allgatherv(std::vector<int>(2, ring.rank()), into, two_each, at);
       }},
      {"neighbor_allgatherv_displs_past_into", true, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into(4, -1);
         const std::vector<int> far{0, ring.rank() == bad ? 100 : 2};
         ring.neighbor_allgatherv(std::vector<int>(2, ring.rank()), into, two_each, far);
       }},
      {"neighbor_allgatherv_packed_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into = one_short_on(ring.rank(), bad, 4);
         ring.neighbor_allgatherv(std::vector<int>(2, ring.rank()), into, two_each);
       }},
      {"neighbor_alltoall_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into = one_short_on(ring.rank(), bad, 4);
         ring.neighbor_alltoall(std::vector<int>(4, ring.rank()), into);
       }},
      {"neighbor_alltoallv_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into = one_short_on(ring.rank(), bad, 4);
         ring.neighbor_alltoallv(std::vector<int>(4, ring.rank()), two_each, at, into, two_each,
                                 at);
       }},
      {"neighbor_alltoallv_packed_into_too_small", true, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into = one_short_on(ring.rank(), bad, 4);
         ring.neighbor_alltoallv(std::vector<int>(4, ring.rank()), two_each, into, two_each);
       }},
      // This rank's own arrays or send buffer, a nonblocking or persistent call's buffer, or a
      // scratch it would have to claim gigabytes for: the job ends (checked: every rank throws).
      {"neighbor_allgatherv_counts_too_short", false, arg, "recvcounts has 1 entry;",
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into(4, -1);
         const std::vector<int> counts(ring.rank() == bad ? 1 : 2, 2);
         ring.neighbor_allgatherv(std::vector<int>(2, ring.rank()), into, counts, at);
       }},
      {"neighbor_allgatherv_negative_displs", false, arg, "displs[1] is -1",
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into(4, -1);
         const std::vector<int> displs{0, ring.rank() == bad ? -1 : 2};
         ring.neighbor_allgatherv(std::vector<int>(2, ring.rank()), into, two_each, displs);
       }},
      {"neighbor_allgatherv_claimed_huge", false, count, small,
       [](comm_view w, int bad) {
         // The bad rank claims 2^29 ints from each neighbor (2 GiB of scratch), which send 1.
         const auto& ring = ring_of(w);
         std::vector<int> into(2, -1);
         const std::vector<int> counts(2, ring.rank() == bad ? 1 << 29 : 1);
         const std::vector<int> displs{0, ring.rank() == bad ? 0 : 1};
         ring.neighbor_allgatherv(ring.rank(), into, counts, displs);
       }},
      {"neighbor_alltoall_send_uneven", false, count, "is not 2 equal blocks",
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into(4, -1);
         ring.neighbor_alltoall(std::vector<int>(ring.rank() == bad ? 5 : 4, 1), into);
       }},
      {"neighbor_alltoall_no_out_neighbors", false, count, "this rank has no out-neighbors",
       [](comm_view w, int) {
         static_cast<void>(chain_of(w).neighbor_alltoall(std::vector<int>(2, w.rank())));
       }},
      {"neighbor_alltoallv_sendcounts_too_long", false, arg, "sendcounts has 3 entries",
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into(4, -1);
         const std::vector<int> counts(ring.rank() == bad ? 3 : 2, 2);
         ring.neighbor_alltoallv(std::vector<int>(6, 1), counts, into, two_each);
       }},
      {"neighbor_alltoallv_negative_rdispls", false, arg, "rdispls[0] is -1",
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into(4, -1);
         const std::vector<int> rdispls{ring.rank() == bad ? -1 : 0, 2};
         ring.neighbor_alltoallv(std::vector<int>(4, 1), two_each, at, into, two_each, rdispls);
       }},
      {"neighbor_alltoallv_send_too_small", false, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> into(4, -1);
         ring.neighbor_alltoallv(one_short_on(ring.rank(), bad, 4), two_each, at, into, two_each,
                                 at);
       }},
      {"neighbor_alltoallv_exchanged_counts_too_short", false, arg, "sendcounts has 1 entry;",
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         const std::vector<int> counts(ring.rank() == bad ? 1 : 2, 2);
         static_cast<void>(
             ring.neighbor_alltoallv(std::vector<int>(4, 1), counts, thinmpi::exchange_counts));
       }},
      {"neighbor_alltoallw_recvcounts_too_short", false, arg, "recvcounts has 1 entry;",
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> send(2, ring.rank());
         std::vector<int> into(2, -1);
         const std::vector<int> ones(2, 1);
         const std::vector<int> recvcounts(ring.rank() == bad ? 1 : 2, 1);
         const std::vector<MPI_Aint> displs{0, sizeof(int)};
         const std::vector<MPI_Datatype> types(2, MPI_INT);
         ring.neighbor_alltoallw(send, ones, displs, types, into, recvcounts, displs, types);
       }},
      {"ineighbor_allgather_into_too_small", false, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         static_cast<void>(ring.ineighbor_allgather(std::vector<int>(2, ring.rank()),
                                                    one_short_on(ring.rank(), bad, 4))
                               .wait());
       }},
      {"ineighbor_alltoallv_into_too_small", false, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         static_cast<void>(ring.ineighbor_alltoallv(std::vector<int>(4, 1), two_each,
                                                    one_short_on(ring.rank(), bad, 4), two_each)
                               .wait());
       }},
      {"neighbor_alltoall_init_into_too_small", false, count, small,
       [](comm_view w, int bad) {
         const auto& ring = ring_of(w);
         std::vector<int> send(4, 1);
         std::vector<int> into = one_short_on(ring.rank(), bad, 4);
         auto rounds = ring.neighbor_alltoall_init(send, into);
         rounds.start();
         static_cast<void>(rounds.wait());
       }},
  };
  return all;
}

}  // namespace root_only
