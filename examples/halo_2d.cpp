// The 2D Jacobi heat equation (examples/halo_2d.hpp) on a plate of 16 x 16 cells per rank,
// swept until the total change is at most 1, checked against a sequential computation of
// the whole plate (the same number of sweeps) on every rank.
//
// Then the same plate rolled into a cylinder: dimension 1 (the columns) periodic, so the
// left edge's neighbour is the right edge. Its halo is filled by one neighbor_alltoallw of the
// borders as sub-array views (no packing copy), 50 sweeps, checked against a sequential solve
// of the cylinder. On 1, 2 and 3 ranks dims_create gives a dimension of 1 rank there, on 4 a
// dimension of 2: a rank is its own left and right neighbour, or the same rank is both, and the
// block sent right must land in the neighbour's halo on the left (MPI-4.1 section 8.6), which
// thinmpi delivers whatever the MPI library does (docs/library.md, "Neighbor order").
//
//   mpiexec -n 4 ./example_halo_2d

#include <array>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <utility>
#include <vector>

#include "halo_2d.hpp"

namespace {

/// The cylinder's halo exchange: per dimension the neighbour below then above (rows: up, down;
/// columns: left, right), each block a border row or column of u sent as one element of its
/// sub-array datatype, each received into the halo on the facing side.
struct cylinder_halo {
  cylinder_halo(std::vector<double>& u, int n) {
    const std::size_t side = static_cast<std::size_t>(n) + 2;
    const auto block = [&](std::size_t row, std::size_t col, std::size_t rows, std::size_t cols) {
      const auto view = thinmpi::subarray(u, {side, side}, {rows, cols}, {row, col});
      types.push_back(view.datatype());
      return reinterpret_cast<const char*>(view.address()) -
             reinterpret_cast<const char*>(u.data());
    };
    const auto m = static_cast<std::size_t>(n);
    // Sent: the top and bottom interior rows, the left and right interior columns.
    for (const auto& [row, col, rows, cols] :
         {std::array<std::size_t, 4>{1, 1, 1, m}, {m, 1, 1, m}, {1, 1, m, 1}, {1, m, m, 1}}) {
      sdispls.push_back(block(row, col, rows, cols));
    }
    send_types.swap(types);
    // Received: the halo row above, below, the halo column left, right.
    for (const auto& [row, col, rows, cols] : {std::array<std::size_t, 4>{0, 1, 1, m},
                                               {m + 1, 1, 1, m},
                                               {1, 0, m, 1},
                                               {1, m + 1, m, 1}}) {
      rdispls.push_back(block(row, col, rows, cols));
    }
  }
  std::vector<int> counts = std::vector<int>(4, 1);
  std::vector<MPI_Aint> sdispls, rdispls;
  std::vector<MPI_Datatype> send_types, types;
};

/// The cylinder on the ranks' grid, `sweeps` sweeps; whether every rank's block matches the
/// sequential solve.
bool cylinder_matches(thinmpi::comm_view world, int n, int sweeps) {
  const std::vector<int> dims = thinmpi::dims_create(world.size(), 2);
  const thinmpi::cartesian_communicator grid(world, dims, {false, true});
  const std::vector<int> at = grid.coords();
  const int rows = dims[0] * n, cols = dims[1] * n;
  std::vector<double> u, next;
  halo_example::fill(u, n, n, at[0] * n, at[1] * n, rows, cols);
  next = u;
  const cylinder_halo first(u, n), second(next, n);
  for (int k = 0; k < sweeps; ++k) {
    const cylinder_halo& h = k % 2 == 0 ? first : second;
    grid.neighbor_alltoallw(u, h.counts, h.sdispls, h.send_types, u, h.counts, h.rdispls, h.types);
    static_cast<void>(halo_example::sweep(u, next, static_cast<std::size_t>(n)));
    std::swap(u, next);
  }
  // The whole cylinder by one process: the halo columns wrap around before each sweep.
  std::vector<double> plate, plate_next;
  halo_example::fill(plate, rows, cols, 0, 0, rows, cols);
  plate_next = plate;
  const auto w = static_cast<std::size_t>(cols + 2);
  for (int k = 0; k < sweeps; ++k) {
    for (std::size_t i = 1; i <= static_cast<std::size_t>(rows); ++i) {
      plate[i * w] = plate[i * w + static_cast<std::size_t>(cols)];
      plate[i * w + static_cast<std::size_t>(cols) + 1] = plate[i * w + 1];
    }
    static_cast<void>(halo_example::sweep_plate(plate, plate_next, rows, cols));
    std::swap(plate, plate_next);
  }
  return halo_example::interior(u, n) == halo_example::block_of(plate, cols, at, n);
}

}  // namespace

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const int n = 16;
  const halo_example::grid g(world);
  std::vector<double> u, next;
  halo_example::start_block(g, u, n);

  const int sweeps = halo_example::solve(g, u, next, n, 20000, 1.0);

  const std::vector<int> dims = g.comm.dims();
  const bool same = halo_example::interior(u, n) ==
                    halo_example::sequential_block(dims, g.comm.coords(), n, sweeps);
  const bool ok = world.allreduce(same, std::logical_and<>{});
  const bool cylinder_ok = world.allreduce(cylinder_matches(world, n, 50), std::logical_and<>{});
  // The same sweeps again, the halo exchange set up once as persistent requests.
  halo_example::start_block(g, u, n);
  halo_example::solve_persistent(g, u, next, n, sweeps);
  const bool persistent_same = halo_example::interior(u, n) ==
                               halo_example::sequential_block(dims, g.comm.coords(), n, sweeps);
  const bool persistent_ok = world.allreduce(persistent_same, std::logical_and<>{});
  if (world.rank() == 0) {
    std::printf("halo_2d: %d ranks (%d x %d), plate %d x %d, %d sweeps, %s\n", dims[0] * dims[1],
                dims[0], dims[1], dims[0] * n, dims[1] * n, sweeps,
                ok ? "matches the sequential computation" : "WRONG");
    std::printf("halo_2d: the plate as a cylinder (columns periodic), 50 sweeps, %s\n",
                cylinder_ok ? "matches the sequential computation" : "WRONG");
    std::printf("halo_2d: persistent requests, %d sweeps, %s\n", sweeps,
                persistent_ok ? "matches the sequential computation" : "WRONG");
  }
  return ok && cylinder_ok && persistent_ok ? 0 : 1;
}
