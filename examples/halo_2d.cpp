// The 2D Jacobi heat equation (examples/halo_2d.hpp) on a plate of 16 x 16 cells per rank,
// swept until the total change is at most 1, checked against a sequential computation of
// the whole plate (the same number of sweeps) on every rank.
//
//   mpiexec -n 4 ./example_halo_2d

#include <cstdio>
#include <functional>
#include <vector>

#include "halo_2d.hpp"

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
  if (world.rank() == 0)
    std::printf("halo_2d: %d ranks (%d x %d), plate %d x %d, %d sweeps, %s\n", dims[0] * dims[1],
                dims[0], dims[1], dims[0] * n, dims[1] * n, sweeps,
                ok ? "matches the sequential computation" : "WRONG");
  return ok ? 0 : 1;
}
