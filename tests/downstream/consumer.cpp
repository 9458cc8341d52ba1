// A program of a project that uses thinmpi from outside: built by the find_package, the
// add_subdirectory and the pkg-config consumers in this directory, then run on two ranks.

#include <cstdio>
#include <vector>

#include <thinmpi/thinmpi.hpp>

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  if (world.rank() == 0) {
    world.send(std::vector<int>{1, 2, 3}, 1, 0);
  } else if (world.rank() == 1) {
    const auto values = world.recv<std::vector<int>>(0, 0);
    std::printf("consumer: rank 1 received %zu values\n", values.size());
  }
}
