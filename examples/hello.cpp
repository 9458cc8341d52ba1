// Every rank says where it runs, and which MPI library it uses.
//
//   mpiexec -n 4 ./example_hello

#include <cstdio>

#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  std::printf("hello from rank %d of %d on %s\n", world.rank(), world.size(),
              thinmpi::processor_name().c_str());
  if (world.rank() == 0) std::printf("MPI library: %s\n", thinmpi::library_version().c_str());
}
