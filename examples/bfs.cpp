// Breadth-first search (examples/bfs.hpp) on a generated graph of 50,000 vertices per rank, the
// partition a distributed graph communicator, checked against a sequential BFS of the whole
// graph on every rank.
//
//   mpiexec -n 4 ./example_bfs

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <vector>

#include "bfs.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const bfs_example::vertex local_n = 50000;
  const bfs_example::partition part = bfs_example::make_partition(world, local_n);
  std::vector<std::vector<bfs_example::vertex>> found;  // a bucket per out-neighbour

  const std::vector<int> levels = bfs_example::bfs(part, local_n, 0, found);

  const auto vertices = local_n * static_cast<bfs_example::vertex>(world.size());
  const std::vector<int> expected = bfs_example::sequential_bfs(vertices, 0);
  const auto first = expected.begin() + static_cast<std::ptrdiff_t>(local_n) * world.rank();
  const bool same = std::equal(levels.begin(), levels.end(), first);
  const bool ok = world.allreduce(same, std::logical_and<>{});
  int reached = 0;
  for (const int level : levels)
    reached += level >= 0;
  const int total = world.allreduce(reached, std::plus<>{});
  if (world.rank() == 0)
    std::printf("bfs: %d of %llu vertices reached, %s\n", total,
                static_cast<unsigned long long>(vertices),
                ok ? "levels match the sequential BFS" : "WRONG");
  return ok ? 0 : 1;
}
