#pragma once
// Helpers shared by the MPI tests: each rank talks to its neighbours in a ring, which works for
// any number of ranks including one (a rank is then its own neighbour).

#include <cstddef>
#include <numeric>
#include <vector>

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

/// A rank, size or count as a std::size_t (they are never negative where the tests use this).
inline std::size_t uz(int value) {
  return static_cast<std::size_t>(value);
}

/// n consecutive ints from start: a payload each rank can predict for any other.
inline std::vector<int> iota_from(int start, std::size_t n) {
  std::vector<int> values(n);
  std::iota(values.begin(), values.end(), start);
  return values;
}

}  // namespace thinmpi_test
