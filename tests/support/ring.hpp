#pragma once
// Helpers shared by the MPI tests: each rank talks to its neighbours in a ring, which works for
// any number of ranks including one (a rank is then its own neighbour).

#include "thinmpi/thinmpi.hpp"

namespace thinmpi_test {

/// The rank this one sends to, and the rank it receives from.
struct ring {
  explicit ring(thinmpi::comm_view comm) : rank(comm.rank()), size(comm.size()) {}
  int rank;
  int size;
  [[nodiscard]] int next() const { return (rank + 1) % size; }
  [[nodiscard]] int prev() const { return (rank + size - 1) % size; }
};

}  // namespace thinmpi_test
