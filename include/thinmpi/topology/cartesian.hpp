#pragma once
/// \file
/// Cartesian process topologies: thinmpi::dims_create (MPI_Dims_create), cartesian_view (a
/// non-owning handle) and cartesian_communicator (owns the communicator MPI_Cart_create or
/// MPI_Cart_sub made, freed once): coordinates, ranks of coordinates, shifts and sub-grids,
/// plus every operation of comm_view and the neighborhood collectives.
///
///     auto world = thinmpi::world();
///     thinmpi::cartesian_communicator grid(world, thinmpi::dims_create(world.size(), 2),
///                                          {true, false});
///     auto [left, right] = grid.shift(0, 1);

#include <cstddef>
#include <initializer_list>
#include <span>
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

namespace detail {

/// dims_create on `chosen`, the caller's dims already copied: checks them, then
/// MPI_Dims_create fills the zeros in place.
inline void dims_create_in(int nodes, std::vector<int>& chosen) {
  long long given = 1;
  bool any_free = false;
  for (std::size_t d = 0; d < chosen.size(); ++d) {
    if (chosen[d] < 0) {
      raise_topology(MPI_ERR_DIMS, "MPI_Dims_create", MPI_COMM_NULL,
                     "dims[" + std::to_string(d) + "] is " + std::to_string(chosen[d]) +
                         "; it must be 0 (to choose) or a positive size");
    }
    any_free = any_free || chosen[d] == 0;
    given *= chosen[d] == 0 ? 1 : chosen[d];
  }
  if (nodes < 1 || (any_free ? nodes % given != 0 : given != nodes)) {
    raise_topology(MPI_ERR_DIMS, "MPI_Dims_create", MPI_COMM_NULL,
                   "the given dims (" + dims_text(chosen) + ") cannot make a grid of " +
                       counted(static_cast<std::size_t>(nodes), "rank", "ranks"));
  }
  check(MPI_Dims_create(nodes, static_cast<int>(chosen.size()), chosen.data()), "MPI_Dims_create");
}

}  // namespace detail

/// A balanced grid of `nodes` ranks in `dims.size()` dimensions (MPI_Dims_create): entries of
/// 0 are chosen, the others kept. Given entries that cannot make `nodes` (they do not divide
/// it, or all are given and do not multiply to it) are an mpi_error (MPI_ERR_DIMS).
///
/// On a grid of these dims, a neighborhood collective's blocks go, per dimension d, to the rank
/// below (slot 2d) then the rank above (slot 2d + 1) (cartesian_view::neighbors() lists them);
/// the block a rank sends towards +d lands in its neighbor's slot for -d. A periodic dimension
/// of 1 or 2 ranks (what dims_create gives for 1, 2 or a prime number of ranks) makes the rank
/// below and the rank above the same rank: thinmpi still delivers that order (docs/library.md,
/// "Neighbor order").
///
///     std::vector<int> dims = thinmpi::dims_create(12, {0, 3});  // {4, 3}
[[nodiscard]] inline std::vector<int> dims_create(int nodes, std::span<const int> dims) {
  std::vector<int> chosen(dims.begin(), dims.end());
  detail::dims_create_in(nodes, chosen);
  return chosen;
}
/// dims_create(12, {0, 3})
[[nodiscard]] inline std::vector<int> dims_create(int nodes, std::initializer_list<int> dims) {
  return dims_create(nodes, std::span<const int>(dims.begin(), dims.size()));
}
/// A balanced grid of `nodes` ranks in `ndims` dimensions, every size chosen.
///
///     std::vector<int> dims = thinmpi::dims_create(world.size(), 2);
[[nodiscard]] inline std::vector<int> dims_create(int nodes, int ndims) {
  if (ndims < 0) {
    detail::raise_topology(MPI_ERR_DIMS, "MPI_Dims_create", MPI_COMM_NULL,
                           "ndims is " + std::to_string(ndims) + "; it must not be negative");
  }
  std::vector<int> chosen(static_cast<std::size_t>(ndims), 0);  // the one allocation
  detail::dims_create_in(nodes, chosen);
  return chosen;
}

/// The ranks a shift along one dimension pairs this rank with (MPI_Cart_shift): receive from
/// `source`, send to `dest`; thinmpi::proc_null at an open edge of a non-periodic dimension.
///
///     std::vector<double> mine(n), theirs(n);
///     auto [source, dest] = grid.shift(0, 1);  grid.sendrecv(mine, dest, 0, theirs, source, 0);
struct shift_ranks {
  int source;  ///< the rank this one receives from
  int dest;    ///< the rank this one sends to
};

class cartesian_communicator;

/// A non-owning handle of a communicator with a Cartesian topology: the grid queries, every
/// operation of comm_view, and the neighborhood collectives, whose neighbors are, per
/// dimension, the rank below then the rank above (2 x ndims() blocks, thinmpi::proc_null ones
/// included). Copying it copies the handle.
class cartesian_view : public neighborhood_view {
 public:
  /// The null communicator (a rank left out of a grid smaller than its communicator).
  cartesian_view() noexcept = default;
  /// Wraps comm, which must have a Cartesian topology (else an mpi_error, MPI_ERR_TOPOLOGY),
  /// and sets MPI_ERRORS_RETURN on it; MPI_COMM_NULL gives the null communicator.
  explicit cartesian_view(MPI_Comm comm);

  /// The number of dimensions.
  [[nodiscard]] int ndims() const noexcept { return in_degree_ / 2; }
  /// The size of each dimension.
  [[nodiscard]] std::vector<int> dims() const { return grid().dims; }
  /// Whether each dimension wraps around.
  [[nodiscard]] std::vector<bool> periods() const;
  /// This rank's coordinates.
  [[nodiscard]] std::vector<int> coords() const { return grid().coords; }
  /// The coordinates of `rank` (MPI_Cart_coords); a rank outside the grid is an mpi_error.
  [[nodiscard]] std::vector<int> coords(int rank) const;
  /// The rank at `coords` (MPI_Cart_rank): one entry per dimension; on a periodic dimension
  /// any value wraps around, on the others one outside [0, size) is an mpi_error naming it.
  ///
  ///     int corner = grid.rank_of({0, 0});
  [[nodiscard]] int rank_of(const detail::int_list<int>& coords) const;
  /// The ranks to receive from and send to in a shift by `disp` along `dim` (MPI_Cart_shift).
  [[nodiscard]] shift_ranks shift(int dim, int disp) const;
  /// The neighbors of the neighborhood collectives in block order: per dimension d, the rank
  /// below (slot 2d) then the rank above (slot 2d + 1), thinmpi::proc_null at an open edge; a
  /// rank appears twice where a periodic dimension has 1 or 2 ranks. The block sent in slot s
  /// arrives in the neighbor's slot s ^ 1.
  ///
  ///     std::vector<int> order = grid.neighbors();  // {below0, above0, below1, above1}
  [[nodiscard]] std::vector<int> neighbors() const;
  /// The sub-grids keeping the dimensions marked true (MPI_Cart_sub): one per combination of
  /// the dropped coordinates; this rank gets the one it is in.
  ///
  ///     thinmpi::cartesian_communicator row = grid.sub({false, true});
  [[nodiscard]] cartesian_communicator sub(const detail::int_list<bool>& remain) const;

 private:
  friend class cartesian_communicator;
  /// A grid this library has just made of `dims`, periodic where `periods` says: nothing to
  /// ask MPI (MPI_Topo_test, MPI_Cart_get) nor to set (it inherited MPI_ERRORS_RETURN);
  /// MPI_COMM_NULL gives the null communicator.
  cartesian_view(MPI_Comm comm, std::span<const int> dims, std::span<const int> periods)
      : neighborhood_view(comm, detail::inherited_errors_return,
                          comm == MPI_COMM_NULL ? 0 : 2 * static_cast<int>(dims.size()),
                          comm == MPI_COMM_NULL ? 0 : 2 * static_cast<int>(dims.size()),
                          detail::cartesian_routes(dims, periods)) {}

  struct grid_state {
    std::vector<int> dims, periods, coords;
  };
  /// MPI_Cart_get.
  [[nodiscard]] grid_state grid() const;
  /// Throws MPI_ERR_COMM naming `operation` where this rank is not in the grid (the null
  /// communicator), where MPI would report a meaningless error or none.
  void require_grid(const char* operation) const {
    if (comm_ == MPI_COMM_NULL) [[unlikely]] {
      raise(MPI_ERR_COMM, operation,
            "this rank is not in the grid (the null communicator: the grid has fewer cells "
            "than the communicator it was made from had ranks, or it was moved from)");
    }
  }
  [[noreturn]] void raise(int code, const char* operation, std::string problem) const {
    detail::raise_topology(code, operation, comm_, std::move(problem));
  }
};

/// A Cartesian communicator that owns its MPI communicator (freed once, when destroyed).
/// Move-only: copying would need a hidden MPI_Comm_dup.
///
///     thinmpi::cartesian_communicator grid(world, {2, 2}, {true, true});
///     auto from_neighbors = grid.neighbor_allgather(grid.rank());
class cartesian_communicator : public detail::owning<cartesian_view> {
 public:
  /// The null communicator.
  cartesian_communicator() noexcept = default;
  /// A grid of `dims` over the ranks of `comm` (MPI_Cart_create), periodic where `periods`
  /// says so; with `reorder` MPI may give ranks new numbers. dims must be positive and
  /// multiply to at most comm.size() (else an mpi_error naming them, before MPI is called);
  /// ranks beyond the grid get the null communicator (is_null()).
  cartesian_communicator(comm_view comm, const detail::int_list<int>& dims,
                         const detail::int_list<bool>& periods, bool reorder = false);
  /// Takes ownership of comm, which must have a Cartesian topology.
  [[nodiscard]] static cartesian_communicator adopt(MPI_Comm comm) {
    return cartesian_communicator(cartesian_view(comm));
  }

 private:
  explicit cartesian_communicator(cartesian_view view) noexcept : owning(view) {}
};

inline cartesian_view::cartesian_view(MPI_Comm comm) : neighborhood_view(comm, 0, 0) {
  if (comm == MPI_COMM_NULL) return;
  int kind = MPI_UNDEFINED;
  detail::check(MPI_Topo_test(comm, &kind), "MPI_Topo_test", comm);
  if (kind != MPI_CART) {
    raise(MPI_ERR_TOPOLOGY, "thinmpi::cartesian_view",
          "the communicator has no Cartesian "
          "topology");
  }
  int dims = 0;
  detail::check(MPI_Cartdim_get(comm, &dims), "MPI_Cartdim_get", comm);
  in_degree_ = out_degree_ = 2 * dims;
  const grid_state g = grid();
  routes_ = detail::cartesian_routes(g.dims, g.periods);
}

inline cartesian_view::grid_state cartesian_view::grid() const {
  require_grid("MPI_Cart_get");
  const auto n = static_cast<std::size_t>(ndims());
  grid_state g{std::vector<int>(n), std::vector<int>(n), std::vector<int>(n)};
  detail::check(MPI_Cart_get(comm_, ndims(), g.dims.data(), g.periods.data(), g.coords.data()),
                "MPI_Cart_get", comm_);
  return g;
}

inline std::vector<bool> cartesian_view::periods() const {
  const std::vector<int> periodic = grid().periods;
  return {periodic.begin(), periodic.end()};
}

inline std::vector<int> cartesian_view::coords(int rank) const {
  require_grid("MPI_Cart_coords");
  const int ranks = size();
  if (rank < 0 || rank >= ranks) {
    raise(MPI_ERR_RANK, "MPI_Cart_coords",
          "rank " + std::to_string(rank) + " is not in the grid of " +
              detail::counted(static_cast<std::size_t>(ranks), "rank", "ranks"));
  }
  std::vector<int> at(static_cast<std::size_t>(ndims()));
  detail::check(MPI_Cart_coords(comm_, rank, ndims(), at.data()), "MPI_Cart_coords", comm_);
  return at;
}

inline int cartesian_view::rank_of(const detail::int_list<int>& coords) const {
  require_grid("MPI_Cart_rank");
  if (coords.size() != static_cast<std::size_t>(ndims())) {
    raise(MPI_ERR_ARG, "MPI_Cart_rank",
          "coords has " + detail::counted(coords.size(), "entry", "entries") + "; the grid has " +
              detail::counted(static_cast<std::size_t>(ndims()), "dimension", "dimensions"));
  }
  const grid_state g = grid();
  for (std::size_t d = 0; d < coords.size(); ++d) {
    if (g.periods[d] == 0 && (coords[d] < 0 || coords[d] >= g.dims[d])) {
      raise(MPI_ERR_ARG, "MPI_Cart_rank",
            "coords[" + std::to_string(d) + "] is " + std::to_string(coords[d]) + "; dimension " +
                std::to_string(d) + " is not periodic and has " + std::to_string(g.dims[d]) +
                " ranks (0 to " + std::to_string(g.dims[d] - 1) + ")");
    }
  }
  int rank = MPI_PROC_NULL;
  detail::check(MPI_Cart_rank(comm_, coords.data(), &rank), "MPI_Cart_rank", comm_);
  return rank;
}

inline shift_ranks cartesian_view::shift(int dim, int disp) const {
  require_grid("MPI_Cart_shift");
  if (dim < 0 || dim >= ndims()) {
    raise(MPI_ERR_DIMS, "MPI_Cart_shift",
          "dim is " + std::to_string(dim) + "; the grid has " +
              detail::counted(static_cast<std::size_t>(ndims()), "dimension", "dimensions"));
  }
  shift_ranks ranks{MPI_PROC_NULL, MPI_PROC_NULL};
  detail::check(MPI_Cart_shift(comm_, dim, disp, &ranks.source, &ranks.dest), "MPI_Cart_shift",
                comm_);
  return ranks;
}

inline std::vector<int> cartesian_view::neighbors() const {
  require_grid("MPI_Cart_shift");
  std::vector<int> order(static_cast<std::size_t>(2 * ndims()));
  for (int d = 0; d < ndims(); ++d) {
    const auto below = static_cast<std::size_t>(2 * d);
    detail::check(MPI_Cart_shift(comm_, d, 1, &order[below], &order[below + 1]), "MPI_Cart_shift",
                  comm_);
  }
  return order;
}

inline cartesian_communicator cartesian_view::sub(const detail::int_list<bool>& remain) const {
  require_grid("MPI_Cart_sub");
  // remain_dims is this rank's own: a wrong one on one rank alone would leave the others in
  // MPI_Cart_sub, so a failed check ends the job (checked build: every rank throws).
  const detail::collective_call call{"MPI_Cart_sub", comm_};
  detail::local_checks(call, [&] {
    if (remain.size() != static_cast<std::size_t>(ndims())) {
      raise(MPI_ERR_ARG, "MPI_Cart_sub",
            "remain_dims has " + detail::counted(remain.size(), "entry", "entries") +
                "; the grid has " +
                detail::counted(static_cast<std::size_t>(ndims()), "dimension", "dimensions"));
    }
  });
  detail::agree_if_checked(call);
  MPI_Comm out = MPI_COMM_NULL;
  detail::check(MPI_Cart_sub(comm_, remain.data(), &out), "MPI_Cart_sub", comm_);
  return cartesian_communicator::adopt(out);
}

namespace detail {

/// The checks of MPI_Cart_create's arguments (see cart_create).
inline void check_cart_args(comm_view comm, const int_list<int>& dims,
                            const int_list<bool>& periods) {
  const char* operation = "MPI_Cart_create";
  if (periods.size() != dims.size()) {
    raise_topology(MPI_ERR_ARG, operation, comm.native(),
                   "periods has " + counted(periods.size(), "entry", "entries") + "; dims has " +
                       counted(dims.size(), "entry", "entries"));
  }
  long long cells = 1;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] <= 0) {
      raise_topology(MPI_ERR_DIMS, operation, comm.native(),
                     "dims[" + std::to_string(d) + "] is " + std::to_string(dims[d]) +
                         "; every dimension needs at least one rank");
    }
    cells *= dims[d];
  }
  if (const int ranks = comm.size(); cells > ranks) {
    raise_topology(MPI_ERR_DIMS, operation, comm.native(),
                   "dims " + dims_text(dims.span()) + " = " + std::to_string(cells) +
                       " ranks; the communicator has " + std::to_string(ranks));
  }
}

/// MPI_Cart_create, its arguments checked first. Every rank passes its own dims and periods: a
/// rank whose check fails cannot know whether the others passed the same, and those that did
/// not are inside MPI_Cart_create already, so the job ends with the message (checked build:
/// every rank agrees first and throws, and the communicator goes on; collectives/detail/
/// root_checks.hpp).
inline MPI_Comm cart_create(comm_view comm, const int_list<int>& dims,
                            const int_list<bool>& periods, bool reorder) {
  const char* operation = "MPI_Cart_create";
  const collective_call call{operation, comm.native()};
  local_checks(call, [&] { check_cart_args(comm, dims, periods); });
  agree_if_checked(call);
  MPI_Comm out = MPI_COMM_NULL;
  check(MPI_Cart_create(comm.native(), dims.size_int(), dims.data(), periods.data(),
                        reorder ? 1 : 0, &out),
        operation, comm.native());
  return out;
}

}  // namespace detail

inline cartesian_communicator::cartesian_communicator(comm_view comm,
                                                      const detail::int_list<int>& dims,
                                                      const detail::int_list<bool>& periods,
                                                      bool reorder)
    : owning(cartesian_view(detail::cart_create(comm, dims, periods, reorder), dims.span(),
                            periods.span())) {}

}  // namespace thinmpi
