#pragma once
/// \file
/// A 2D Jacobi heat equation with thinmpi: the steady temperature of a plate whose top edge is
/// held at 1 and whose other edges are held at 0, on a grid of ranks (thinmpi::dims_create and
/// a cartesian_communicator). Each rank owns an n x n block of the plate with a one-cell halo
/// around it, row-major in (n + 2) x (n + 2) doubles; every sweep fills the halo from the four
/// neighbours (four sendrecv: the rows are spans, the columns strided views, sent from and
/// received into the grid itself with no packing copy), updates the block, and adds up the
/// change (allreduce). The grid is not periodic: at the plate's edge shift() gives
/// thinmpi::proc_null, so the halo on that side keeps the fixed boundary temperature.
///
/// examples/halo_2d.cpp runs it and checks it against a sequential computation;
/// wrapper-bench runs it against bench/programs/halo_2d.c (the same formulas, in C). The lines
/// between the START and END markers are the ones scripts/count_lines.py counts: making the
/// grid of ranks and exchanging the halos, as in the C version.

#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace halo_example {

/// The plate's temperature at (row, col) before the first sweep; rows -1 and plate_rows and
/// columns -1 and plate_cols are its fixed edges: 1 along the top, 0 elsewhere
/// (bench/programs/programs.h has the same).
inline double initial(int row, int col, int plate_rows, int plate_cols) {
  if (row < 0) return 1.0;
  if (row >= plate_rows || col < 0 || col >= plate_cols) return 0.0;
  return static_cast<double>((row * 7 + col * 13) % 17) / 16.0;
}

//> START HALO THINMPI
/// The grid of ranks (not periodic) and this rank's neighbours: rows.source above, rows.dest
/// below, cols.source left, cols.dest right.
struct grid {
  explicit grid(thinmpi::comm_view world)
      : comm(world, thinmpi::dims_create(world.size(), 2), {false, false}),
        rows(comm.shift(0, 1)),
        cols(comm.shift(1, 1)) {}
  thinmpi::cartesian_communicator comm;
  thinmpi::shift_ranks rows, cols;
};

/// Rows and columns 0, 1, n and n + 1 of one (n + 2) x (n + 2) row-major buffer: the halo, the
/// border, the border and the halo on each side. Made once per buffer, as the C version makes
/// its column datatype once: making a column view looks its MPI datatype up in a cache under a
/// mutex, 0.10-0.13 us each on the loaded 2-core test machine, four times a sweep otherwise.
struct borders {
  borders(std::vector<double>& u, std::size_t n) {
    for (const std::size_t i : {std::size_t{0}, std::size_t{1}, n, n + 1}) {
      rows.push_back(std::span(u).subspan(i * (n + 2) + 1, n));
      cols.push_back(thinmpi::strided(std::span(u).subspan(n + 2 + i), n, n + 2));
    }
  }
  std::vector<std::span<double>> rows;
  std::vector<thinmpi::strided_view<double>> cols;
};

/// Fills the halo of a buffer from the four neighbours.
inline void exchange_halos(const grid& g, const borders& b) {
  g.comm.sendrecv(b.rows[1], g.rows.source, 0, b.rows[3], g.rows.dest, 0);
  g.comm.sendrecv(b.rows[2], g.rows.dest, 1, b.rows[0], g.rows.source, 1);
  g.comm.sendrecv(b.cols[1], g.cols.source, 2, b.cols[3], g.cols.dest, 2);
  g.comm.sendrecv(b.cols[2], g.cols.dest, 3, b.cols[0], g.cols.source, 3);
}
//> END

/// One Jacobi sweep of rows x cols cells (with their halo: a rank's block, or the whole plate
/// by one process) from u into next; returns the sum of the changes.
inline double sweep_cells(const std::vector<double>& u, std::vector<double>& next, std::size_t rows,
                          std::size_t cols) {
  const std::size_t w = cols + 2;
  double change = 0;
  for (std::size_t i = 1; i <= rows; ++i) {
    for (std::size_t j = 1; j <= cols; ++j) {
      const double v =
          0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
      const double d = v - u[i * w + j];
      change += d < 0 ? -d : d;
      next[i * w + j] = v;
    }
  }
  return change;
}

/// One Jacobi sweep of the n x n block from u into next; returns the sum of the changes.
inline double sweep(const std::vector<double>& u, std::vector<double>& next, std::size_t n) {
  return sweep_cells(u, next, n, n);
}

/// Sets u to rows x cols cells (and their halo) whose first interior cell is the plate's
/// (first_row, first_col), at their starting temperatures.
inline void fill(std::vector<double>& u, int rows, int cols, int first_row, int first_col,
                 int plate_rows, int plate_cols) {
  u.resize(static_cast<std::size_t>(rows + 2) * static_cast<std::size_t>(cols + 2));
  std::size_t at = 0;
  for (int i = 0; i < rows + 2; ++i) {
    for (int j = 0; j < cols + 2; ++j) {
      u[at++] = initial(first_row + i - 1, first_col + j - 1, plate_rows, plate_cols);
    }
  }
}

/// Sets u to this rank's block of n x n cells (with its halo) at the starting temperatures.
inline void start_block(const grid& g, std::vector<double>& u, int n) {
  const std::vector<int> dims = g.comm.dims(), at = g.comm.coords();
  fill(u, n, n, at[0] * n, at[1] * n, dims[0] * n, dims[1] * n);
}

/// Sweeps u until the plate's total change is at most `tolerance` or `max_sweeps` sweeps are
/// done (next is the second buffer, of u's size); returns the number of sweeps.
inline int solve(const grid& g, std::vector<double>& u, std::vector<double>& next, int n,
                 int max_sweeps, double tolerance) {
  next = u;  // the plate's edges are in both buffers
  const auto side = static_cast<std::size_t>(n);
  const borders first(u, side), second(next, side);  // u and next swap buffers every sweep
  double total = tolerance + 1;
  int sweeps = 0;
  for (; sweeps < max_sweeps && total > tolerance; ++sweeps) {
    exchange_halos(g, sweeps % 2 == 0 ? first : second);
    const double change = sweep(u, next, side);
    total = g.comm.allreduce(change, std::plus<>{});
    std::swap(u, next);
  }
  return sweeps;
}

/// The same halo exchange set up once (issue 32): for one buffer's borders, the four
/// receives and four sends as persistent requests (MPI_Recv_init / MPI_Send_init), which every
/// sweep starts (MPI_Start) and completes together (wait_all), instead of four sendrecv calls.
/// The borders are borrowed: the buffer must not move while the requests live.
class persistent_halo {
 public:
  persistent_halo(const grid& g, const borders& b) {
    row_recvs_.push_back(g.comm.recv_init(b.rows[3], g.rows.dest, 0));
    row_recvs_.push_back(g.comm.recv_init(b.rows[0], g.rows.source, 1));
    col_recvs_.push_back(g.comm.recv_init(b.cols[3], g.cols.dest, 2));
    col_recvs_.push_back(g.comm.recv_init(b.cols[0], g.cols.source, 3));
    row_sends_.push_back(g.comm.send_init(b.rows[1], g.rows.source, 0));
    row_sends_.push_back(g.comm.send_init(b.rows[2], g.rows.dest, 1));
    col_sends_.push_back(g.comm.send_init(b.cols[1], g.cols.source, 2));
    col_sends_.push_back(g.comm.send_init(b.cols[2], g.cols.dest, 3));
  }
  /// Fills the halo: starts every request, then waits for them all.
  void exchange() {
    for (auto& r : row_recvs_)
      r.start();
    for (auto& r : col_recvs_)
      r.start();
    for (auto& s : row_sends_)
      s.start();
    for (auto& s : col_sends_)
      s.start();
    thinmpi::wait_all(row_recvs_);
    thinmpi::wait_all(col_recvs_);
    thinmpi::wait_all(row_sends_);
    thinmpi::wait_all(col_sends_);
  }

 private:
  template <class Border>
  using receive =
      decltype(std::declval<thinmpi::comm_view&>().recv_init(std::declval<const Border&>(), 0, 0));
  template <class Border>
  using send =
      decltype(std::declval<thinmpi::comm_view&>().send_init(std::declval<const Border&>(), 0, 0));
  std::vector<receive<std::span<double>>> row_recvs_;
  std::vector<receive<thinmpi::strided_view<double>>> col_recvs_;
  std::vector<send<std::span<double>>> row_sends_;
  std::vector<send<thinmpi::strided_view<double>>> col_sends_;
};

/// solve() with persistent requests, for exactly `sweeps` sweeps.
inline void solve_persistent(const grid& g, std::vector<double>& u, std::vector<double>& next,
                             int n, int sweeps) {
  next = u;
  const auto side = static_cast<std::size_t>(n);
  const borders first(u, side), second(next, side);
  persistent_halo halos[2] = {persistent_halo(g, first), persistent_halo(g, second)};
  for (int k = 0; k < sweeps; ++k) {
    halos[k % 2].exchange();
    static_cast<void>(sweep(u, next, side));
    u.swap(next);  // swap keeps both buffers where the requests point
  }
}

/// sweep_cells of a whole rows x cols plate.
inline double sweep_plate(const std::vector<double>& u, std::vector<double>& next, int rows,
                          int cols) {
  return sweep_cells(u, next, static_cast<std::size_t>(rows), static_cast<std::size_t>(cols));
}

/// The n x n block at block coordinates `at` of a whole plate of `cols` columns (with its halo).
inline std::vector<double> block_of(const std::vector<double>& plate, int cols,
                                    const std::vector<int>& at, int n) {
  const auto w = static_cast<std::size_t>(cols + 2);
  std::vector<double> block;
  for (int i = 0; i < n; ++i) {
    const auto first = plate.begin() +
                       static_cast<std::ptrdiff_t>(static_cast<std::size_t>(at[0] * n + i + 1) * w +
                                                   static_cast<std::size_t>(at[1] * n + 1));
    block.insert(block.end(), first, first + n);
  }
  return block;
}

/// The block of n x n cells at block coordinates `at` after `sweeps` sweeps of the whole
/// plate (dims[0] x dims[1] blocks) by one process: what the ranks must have computed.
inline std::vector<double> sequential_block(const std::vector<int>& dims,
                                            const std::vector<int>& at, int n, int sweeps) {
  const int rows = dims[0] * n, cols = dims[1] * n;
  std::vector<double> u;
  fill(u, rows, cols, 0, 0, rows, cols);
  std::vector<double> next = u;
  for (int k = 0; k < sweeps; ++k) {
    static_cast<void>(sweep_plate(u, next, rows, cols));
    std::swap(u, next);
  }
  return block_of(u, cols, at, n);
}

/// The n x n interior of a block with its halo.
inline std::vector<double> interior(const std::vector<double>& u, int n) {
  std::vector<double> block;
  const auto w = static_cast<std::size_t>(n + 2);
  for (std::size_t i = 1; i <= static_cast<std::size_t>(n); ++i) {
    const auto first = u.begin() + static_cast<std::ptrdiff_t>(i * w + 1);
    block.insert(block.end(), first, first + n);
  }
  return block;
}

}  // namespace halo_example
