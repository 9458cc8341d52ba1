#pragma once
/// \file
/// Rank and size of a communicator for the families that need them (local MPI queries, no
/// communication): a rooted collective asks whether it is the root.

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// This process's rank in comm (MPI_Comm_rank).
[[nodiscard]] inline int rank_in(MPI_Comm comm) {
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", comm);
  return rank;
}

/// The number of ranks in comm (MPI_Comm_size).
[[nodiscard]] inline int size_of(MPI_Comm comm) {
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size", comm);
  return size;
}

}  // namespace thinmpi::detail
