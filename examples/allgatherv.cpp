// The KaMPIng paper's first program: every rank contributes a vector of its own length and every
// rank gets the concatenation. thinmpi says in the call that the counts are exchanged first (one
// MPI_Allgather of the counts, one MPI_Allgatherv); the counts and displacements come back too.
//
//   mpiexec -n 4 ./example_allgatherv

#include <cstdio>
#include <vector>

#include "thinmpi/thinmpi.hpp"

template <class T>
std::vector<T> get_whole_vector(thinmpi::comm_view comm, const std::vector<T>& v_local) {
  //> START VECTOR_ALLGATHER THINMPI
  return comm.allgatherv(v_local, thinmpi::exchange_counts).data;
  //> END
}

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  const int rank = world.rank();
  const std::vector<int> mine(static_cast<std::size_t>(rank) + 1, rank);  // rank r: r + 1 times r

  const std::vector<int> all = get_whole_vector(world, mine);

  std::vector<int> expected;
  for (int r = 0; r < world.size(); ++r)
    expected.insert(expected.end(), static_cast<std::size_t>(r) + 1, r);
  if (all != expected) return std::printf("rank %d: WRONG\n", rank), 1;
  if (rank == world.size() - 1) {
    std::printf("rank %d has all %zu values:", rank, all.size());
    for (const int value : all)
      std::printf(" %d", value);
    std::printf("\n");
  }
}
