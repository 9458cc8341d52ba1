#pragma once
// What a neighborhood alltoall must deliver, computed without MPI's neighborhood collectives:
// the topology's neighbor lists from MPI_Cart_shift or MPI_Dist_graph_neighbors, the pairing
// the MPI standard defines (MPI-4.1 section 8.6: on a Cartesian grid the block sent towards +d
// lands in the neighbor's slot for -d and the other way round, also where both are one rank; on
// a distributed graph the k-th edge to a rank meets the k-th edge from it), and point-to-point
// messages, one tag per pairing key, on a duplicate of the communicator. Open MPI 4.1.4 and
// MPICH 4.0.2 get the pairing wrong in some forms where a neighbor repeats
// (include/thinmpi/topology/detail/neighbor_routes.hpp), so the tests judge thinmpi against this.

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace thinmpi_test {

/// A topology's neighbors in block order and the key of each slot: blocks with equal keys to
/// and from the same rank meet.
struct neighbor_lists {
  std::vector<int> sources, destinations, source_keys, destination_keys;

  /// Whether a rank is a neighbor twice on either side (MPI_PROC_NULL does not count).
  [[nodiscard]] bool repeats() const {
    const auto twice = [](std::vector<int> ranks) {
      std::erase(ranks, MPI_PROC_NULL);
      std::sort(ranks.begin(), ranks.end());
      return std::adjacent_find(ranks.begin(), ranks.end()) != ranks.end();
    };
    return twice(sources) || twice(destinations);
  }
};

/// The neighbors of the Cartesian or distributed graph topology of `comm`.
inline neighbor_lists lists_of(MPI_Comm comm) {
  neighbor_lists lists;
  int kind = MPI_UNDEFINED;
  MPI_Topo_test(comm, &kind);
  if (kind == MPI_CART) {
    int ndims = 0;
    MPI_Cartdim_get(comm, &ndims);
    for (int d = 0; d < ndims; ++d) {
      int below = MPI_PROC_NULL;
      int above = MPI_PROC_NULL;
      MPI_Cart_shift(comm, d, 1, &below, &above);
      lists.sources.push_back(below);
      lists.sources.push_back(above);
    }
    lists.destinations = lists.sources;
    for (std::size_t s = 0; s < lists.sources.size(); ++s) {
      lists.destination_keys.push_back(static_cast<int>(s));
      lists.source_keys.push_back(static_cast<int>(s ^ 1U));
    }
    return lists;
  }
  int in = 0;
  int out = 0;
  int weighted = 0;
  MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
  lists.sources.resize(static_cast<std::size_t>(in) + 1);
  lists.destinations.resize(static_cast<std::size_t>(out) + 1);
  std::vector<int> in_weights(lists.sources.size());
  std::vector<int> out_weights(lists.destinations.size());
  MPI_Dist_graph_neighbors(comm, in, lists.sources.data(), in_weights.data(), out,
                           lists.destinations.data(), out_weights.data());
  lists.sources.pop_back();
  lists.destinations.pop_back();
  const auto occurrences = [](const std::vector<int>& ranks) {
    std::vector<int> keys;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      keys.push_back(static_cast<int>(
          std::count(ranks.begin(), ranks.begin() + static_cast<long>(i), ranks[i])));
    }
    return keys;
  };
  lists.source_keys = occurrences(lists.sources);
  lists.destination_keys = occurrences(lists.destinations);
  return lists;
}

/// One side of a neighborhood exchange as MPI_Neighbor_alltoallw describes it.
struct exchange_side {
  std::span<const int> counts;
  std::span<const MPI_Aint> byte_displs;
  std::span<const MPI_Datatype> types;
};

/// What MPI_Neighbor_alltoallw(send, sent..., recv, received...) on `comm` must do, done with
/// point-to-point messages on `messages` (a duplicate of `comm`, which keeps them apart from the
/// program's): out-block i goes to destinations[i] with tag destination_keys[i]; in-slot j
/// receives from sources[j] with tag source_keys[j]; MPI_PROC_NULL slots are left alone.
inline void reference_alltoallw(MPI_Comm messages, const neighbor_lists& lists, const void* send,
                                const exchange_side& sent, void* recv,
                                const exchange_side& received) {
  std::vector<MPI_Request> requests;
  for (std::size_t j = 0; j < lists.sources.size(); ++j) {
    requests.emplace_back();
    MPI_Irecv(static_cast<char*>(recv) + received.byte_displs[j], received.counts[j],
              received.types[j], lists.sources[j], lists.source_keys[j], messages,
              &requests.back());
  }
  for (std::size_t i = 0; i < lists.destinations.size(); ++i) {
    requests.emplace_back();
    MPI_Isend(static_cast<const char*>(send) + sent.byte_displs[i], sent.counts[i], sent.types[i],
              lists.destinations[i], lists.destination_keys[i], messages, &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

/// reference_alltoallw for blocks of ints: counts[i] ints at element displacement displs[i].
inline void reference_alltoallv(MPI_Comm messages, const neighbor_lists& lists,
                                const std::vector<int>& send, std::span<const int> sendcounts,
                                std::span<const int> sdispls, std::vector<int>& recv,
                                std::span<const int> recvcounts, std::span<const int> rdispls) {
  const auto bytes = [](std::span<const int> displs) {
    std::vector<MPI_Aint> b;
    for (int d : displs)
      b.push_back(static_cast<MPI_Aint>(d) * static_cast<MPI_Aint>(sizeof(int)));
    return b;
  };
  const std::vector<MPI_Aint> sbytes = bytes(sdispls);
  const std::vector<MPI_Aint> rbytes = bytes(rdispls);
  const std::vector<MPI_Datatype> stypes(sendcounts.size(), MPI_INT);
  const std::vector<MPI_Datatype> rtypes(recvcounts.size(), MPI_INT);
  static int nothing = 0;
  reference_alltoallw(messages, lists, send.empty() ? &nothing : send.data(),
                      {sendcounts, sbytes, stypes}, recv.empty() ? &nothing : recv.data(),
                      {recvcounts, rbytes, rtypes});
}

/// A duplicate of `comm` for reference messages, freed when it goes.
class reference_comm {
 public:
  explicit reference_comm(MPI_Comm comm) { MPI_Comm_dup(comm, &comm_); }
  reference_comm(const reference_comm&) = delete;
  reference_comm& operator=(const reference_comm&) = delete;
  ~reference_comm() { MPI_Comm_free(&comm_); }
  [[nodiscard]] MPI_Comm get() const noexcept { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace thinmpi_test
