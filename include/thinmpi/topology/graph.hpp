#pragma once
/// \file
/// Distributed graph topologies: graph_view (a non-owning handle) and graph_communicator (owns
/// the communicator MPI_Dist_graph_create_adjacent or MPI_Dist_graph_create made, freed once):
/// the neighbor queries, plus every operation of comm_view and the neighborhood collectives,
/// whose blocks follow the order the in- and out-neighbors were given in.
///
///     const int left = (rank + size - 1) % size, right = (rank + 1) % size;
///     thinmpi::graph_communicator ring(world, {left, right}, {left, right});
///     std::vector<int> both = ring.neighbor_allgather(rank);  // {left, right}

#include <cstddef>
#include <string>
#include <vector>

#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/communicator/detail/owning.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/topology/detail/int_list.hpp"
#include "thinmpi/topology/detail/raise_topology.hpp"
#include "thinmpi/topology/neighborhood.hpp"

namespace thinmpi {

/// A non-owning handle of a communicator with a distributed graph topology. Copying it copies
/// the handle.
class graph_view : public neighborhood_view {
 public:
  /// The null communicator.
  graph_view() noexcept = default;
  /// Wraps comm, which must have a distributed graph topology (else an mpi_error,
  /// MPI_ERR_TOPOLOGY), and sets MPI_ERRORS_RETURN on it.
  explicit graph_view(MPI_Comm comm);

  /// Whether the edges carry weights.
  [[nodiscard]] bool weighted() const noexcept { return weighted_; }
  /// The ranks this one receives from, in the order of the neighborhood collectives' blocks
  /// (MPI_Dist_graph_neighbors).
  [[nodiscard]] std::vector<int> in_neighbors() const { return neighbors().sources; }
  /// The ranks this one sends to, in block order.
  [[nodiscard]] std::vector<int> out_neighbors() const { return neighbors().destinations; }
  /// The weights of the in-edges (empty for an unweighted graph).
  [[nodiscard]] std::vector<int> in_weights() const { return neighbors().source_weights; }
  /// The weights of the out-edges (empty for an unweighted graph).
  [[nodiscard]] std::vector<int> out_weights() const { return neighbors().destination_weights; }

 private:
  struct edges {
    std::vector<int> sources, source_weights, destinations, destination_weights;
  };
  /// MPI_Dist_graph_neighbors.
  [[nodiscard]] edges neighbors() const;
  friend class graph_communicator;
  /// A graph this library has just made on comm, of this rank's `in` and `out` edges
  /// (`weighted` where weights were given), its routes agreed (detail::agreed_graph_routes):
  /// nothing to ask MPI (MPI_Topo_test, MPI_Dist_graph_neighbors_count) nor to set (it
  /// inherited MPI_ERRORS_RETURN).
  graph_view(MPI_Comm comm, std::size_t in, std::size_t out, bool weighted,
             const detail::neighbor_routes& routes)
      : neighborhood_view(comm, detail::inherited_errors_return, static_cast<int>(in),
                          static_cast<int>(out), routes),
        weighted_(weighted) {}

  bool weighted_ = false;
};

namespace detail {

/// The arguments of a graph communicator's creation: neighbor ranks checked against the
/// communicator (an edge to a rank outside it is MPI_ERR_RANK naming it), weights against
/// their edges, before MPI is called.
class graph_args {
 public:
  graph_args(const char* operation, comm_view comm)
      : operation_(operation), comm_(comm.native()), ranks_(comm.size()) {}

  /// Every entry of `ranks` (named `what`) is a rank of the communicator.
  void check_ranks(const int_list<int>& ranks, const char* what) const {
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (ranks[i] < 0 || ranks[i] >= ranks_) {
        raise_topology(MPI_ERR_RANK, operation_, comm_,
                       std::string(what) + "[" + std::to_string(i) + "] is " +
                           std::to_string(ranks[i]) + "; the communicator has ranks 0 to " +
                           std::to_string(ranks_ - 1));
      }
    }
  }
  /// `list` has `entries` entries (those of `of`) and none negative.
  void check_entries(const int_list<int>& list, const char* what, std::size_t entries,
                     const char* of) const {
    if (list.size() != entries) {
      raise_topology(MPI_ERR_ARG, operation_, comm_,
                     std::string(what) + " has " + counted(list.size(), "entry", "entries") + "; " +
                         of + " has " + counted(entries, "entry", "entries"));
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i] < 0) {
        raise_topology(MPI_ERR_ARG, operation_, comm_,
                       std::string(what) + "[" + std::to_string(i) + "] is " +
                           std::to_string(list[i]) + "; it must not be negative");
      }
    }
  }
  void check(int rc) const { detail::check(rc, operation_, comm_); }

 private:
  const char* operation_;
  MPI_Comm comm_;
  int ranks_;
};

/// MPI's weights argument: MPI_UNWEIGHTED without weights, MPI_WEIGHTS_EMPTY for no edges.
inline const int* weights_of(const int_list<int>* weights) {
  if (weights == nullptr) return MPI_UNWEIGHTED;
  return weights->size() == 0 ? MPI_WEIGHTS_EMPTY : weights->data();
}

}  // namespace detail

/// A distributed graph communicator that owns its MPI communicator (freed once, when
/// destroyed). Move-only: copying would need a hidden MPI_Comm_dup.
class graph_communicator : public detail::owning<graph_view> {
 public:
  /// The null communicator.
  graph_communicator() noexcept = default;
  /// Each rank names the ranks it receives from and sends to
  /// (MPI_Dist_graph_create_adjacent); the edges must agree across ranks. An edge to a rank
  /// outside `comm` is an mpi_error naming it, before MPI is called.
  ///
  ///     std::vector<int> sources = {left}, destinations = {right};
  ///     thinmpi::graph_communicator g(world, sources, destinations);
  graph_communicator(comm_view comm, const detail::int_list<int>& sources,
                     const detail::int_list<int>& destinations, bool reorder = false)
      : graph_communicator(adjacent(comm, sources, nullptr, destinations, nullptr, reorder)) {}
  /// As above, with a non-negative weight per edge.
  graph_communicator(comm_view comm, const detail::int_list<int>& sources,
                     const detail::int_list<int>& source_weights,
                     const detail::int_list<int>& destinations,
                     const detail::int_list<int>& destination_weights, bool reorder = false)
      : graph_communicator(adjacent(comm, sources, &source_weights, destinations,
                                    &destination_weights, reorder)) {}
  /// Each rank names any edges, sources[i] -> the next degrees[i] entries of destinations
  /// (MPI_Dist_graph_create); MPI works out every rank's neighbors.
  ///
  ///     const int next = (rank + 1) % size;
  ///     auto g = thinmpi::graph_communicator::general(world, {rank}, {1}, {next});
  [[nodiscard]] static graph_communicator general(comm_view comm,
                                                  const detail::int_list<int>& sources,
                                                  const detail::int_list<int>& degrees,
                                                  const detail::int_list<int>& destinations,
                                                  bool reorder = false) {
    return graph_communicator(any_edges(comm, sources, degrees, destinations, nullptr, reorder));
  }
  /// As above, with a non-negative weight per edge (in the order of destinations).
  [[nodiscard]] static graph_communicator general(comm_view comm,
                                                  const detail::int_list<int>& sources,
                                                  const detail::int_list<int>& degrees,
                                                  const detail::int_list<int>& destinations,
                                                  const detail::int_list<int>& weights,
                                                  bool reorder = false) {
    return graph_communicator(any_edges(comm, sources, degrees, destinations, &weights, reorder));
  }
  /// Takes ownership of comm, which must have a distributed graph topology.
  [[nodiscard]] static graph_communicator adopt(MPI_Comm comm) {
    return graph_communicator(graph_view(comm));
  }

 private:
  explicit graph_communicator(graph_view view) noexcept : owning(view) {}

  static graph_view adjacent(comm_view comm, const detail::int_list<int>& sources,
                             const detail::int_list<int>* source_weights,
                             const detail::int_list<int>& destinations,
                             const detail::int_list<int>* destination_weights, bool reorder);
  static graph_view any_edges(comm_view comm, const detail::int_list<int>& sources,
                              const detail::int_list<int>& degrees,
                              const detail::int_list<int>& destinations,
                              const detail::int_list<int>* weights, bool reorder);
};

inline graph_view::graph_view(MPI_Comm comm)
    : neighborhood_view(comm, 0, 0, detail::foreign_graph_routes()) {
  if (comm == MPI_COMM_NULL) return;
  int kind = MPI_UNDEFINED;
  detail::check(MPI_Topo_test(comm, &kind), "MPI_Topo_test", comm);
  if (kind != MPI_DIST_GRAPH) {
    detail::raise_topology(MPI_ERR_TOPOLOGY, "thinmpi::graph_view", comm,
                           "the communicator has no distributed graph topology");
  }
  int weighted = 0;
  detail::check(MPI_Dist_graph_neighbors_count(comm, &in_degree_, &out_degree_, &weighted),
                "MPI_Dist_graph_neighbors_count", comm);
  weighted_ = weighted != 0;
}

inline graph_view::edges graph_view::neighbors() const {
  const auto in = static_cast<std::size_t>(in_degree_);
  const auto out = static_cast<std::size_t>(out_degree_);
  edges e{std::vector<int>(in), std::vector<int>(weighted_ ? in : 0), std::vector<int>(out),
          std::vector<int>(weighted_ ? out : 0)};
  int none = 0;  // where MPI may write nothing: a vector of no elements may have no address
  const auto at = [&none](std::vector<int>& v) { return v.empty() ? &none : v.data(); };
  int* source_weights = weighted_ ? at(e.source_weights) : MPI_UNWEIGHTED;
  int* destination_weights = weighted_ ? at(e.destination_weights) : MPI_UNWEIGHTED;
  detail::check(MPI_Dist_graph_neighbors(comm_, in_degree_, at(e.sources), source_weights,
                                         out_degree_, at(e.destinations), destination_weights),
                "MPI_Dist_graph_neighbors", comm_);
  return e;
}

inline graph_view graph_communicator::adjacent(comm_view comm, const detail::int_list<int>& sources,
                                               const detail::int_list<int>* source_weights,
                                               const detail::int_list<int>& destinations,
                                               const detail::int_list<int>* destination_weights,
                                               bool reorder) {
  const detail::graph_args args("MPI_Dist_graph_create_adjacent", comm);
  // The lists are this rank's own: a failed check ends the job, the others being inside the
  // creation (checked build: every rank throws; collectives/detail/root_checks.hpp).
  const detail::collective_call call{"MPI_Dist_graph_create_adjacent", comm.native()};
  detail::local_checks(call, [&] {
    args.check_ranks(sources, "sources");
    args.check_ranks(destinations, "destinations");
    if (source_weights != nullptr) {
      args.check_entries(*source_weights, "sourceweights", sources.size(), "sources");
      args.check_entries(*destination_weights, "destweights", destinations.size(), "destinations");
    }
  });
  detail::agree_if_checked(call);
  MPI_Comm out = MPI_COMM_NULL;
  args.check(MPI_Dist_graph_create_adjacent(
      comm.native(), sources.size_int(), sources.data(), detail::weights_of(source_weights),
      destinations.size_int(), destinations.data(), detail::weights_of(destination_weights),
      MPI_INFO_NULL, reorder ? 1 : 0, &out));
  return graph_view(out, sources.size(), destinations.size(), source_weights != nullptr,
                    detail::agreed_graph_routes(out, sources.span(), destinations.span()));
}

inline graph_view graph_communicator::any_edges(
    comm_view comm, const detail::int_list<int>& sources, const detail::int_list<int>& degrees,
    const detail::int_list<int>& destinations, const detail::int_list<int>* weights, bool reorder) {
  const detail::graph_args args("MPI_Dist_graph_create", comm);
  // As in adjacent(): the edges are this rank's own.
  const detail::collective_call call{"MPI_Dist_graph_create", comm.native()};
  detail::local_checks(call, [&] {
    args.check_ranks(sources, "sources");
    args.check_entries(degrees, "degrees", sources.size(), "sources");
    std::size_t edges = 0;
    for (std::size_t i = 0; i < degrees.size(); ++i)
      edges += static_cast<std::size_t>(degrees[i]);
    if (destinations.size() != edges) {
      detail::raise_topology(MPI_ERR_ARG, "MPI_Dist_graph_create", comm.native(),
                             "destinations has " +
                                 detail::counted(destinations.size(), "entry", "entries") +
                                 "; the degrees add up to " + std::to_string(edges));
    }
    args.check_ranks(destinations, "destinations");
    if (weights != nullptr) args.check_entries(*weights, "weights", edges, "destinations");
  });
  detail::agree_if_checked(call);
  MPI_Comm out = MPI_COMM_NULL;
  args.check(MPI_Dist_graph_create(comm.native(), sources.size_int(), sources.data(),
                                   degrees.data(), destinations.data(), detail::weights_of(weights),
                                   MPI_INFO_NULL, reorder ? 1 : 0, &out));
  graph_view made(out);  // MPI worked out this rank's lists: read them where they matter
  if constexpr (detail::mpi_pairs_graph_alltoall_repeats) return made;
  const edges lists = made.neighbors();
  return graph_view(out, lists.sources.size(), lists.destinations.size(), made.weighted(),
                    detail::agreed_graph_routes(out, lists.sources, lists.destinations));
}

}  // namespace thinmpi
