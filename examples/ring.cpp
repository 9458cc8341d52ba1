// A token goes once around the ring of ranks; each rank appends its rank to a string it
// receives bounded by a buffer it reuses (one MPI_Recv each, no allocation on the hot path).
//
//   mpiexec -n 4 ./example_ring

#include <cstdio>
#include <string>

#include "thinmpi/thinmpi.hpp"

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const int rank = world.rank();
  const int size = world.size();
  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;

  std::string token(256, '\0');  // the bound: a receive takes up to 256 characters
  if (rank == 0) {
    auto sent = world.isend(std::string("0"), next, 0);
    world.recv(token, prev, 0);  // shrinks to what arrived
    sent.wait();
    std::printf("the token came back as \"%s\"\n", token.c_str());
  } else {
    world.recv(token, prev, 0);
    token += " " + std::to_string(rank);
    world.send(token, next, 0);
  }
}
