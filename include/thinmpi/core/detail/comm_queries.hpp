#pragma once
/// \file
/// Rank and size of a communicator for the families that need them (local MPI queries, no
/// communication): a rooted collective asks whether it is the root, a returning collective how
/// many blocks its result holds.
///
/// MPI_COMM_WORLD's rank and size are asked once and kept: they cannot change while MPI runs
/// (the world is made by MPI_Init and never freed), so a collective on world() makes the MPI
/// calls that C makes, as a KaMPIng or MPL communicator that keeps its size does. Any other
/// communicator is asked each time: a handle can be freed behind a comm_view and reused for a
/// communicator of another size, which a kept answer would not see.

#include <atomic>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// MPI_COMM_WORLD's rank and size once asked, -1 before (threads may ask at once; each stores
/// what MPI answered, the same value).
inline std::atomic<int> world_rank_kept{-1};
inline std::atomic<int> world_size_kept{-1};

/// The error of a failed MPI_Comm_rank or MPI_Comm_size, out of line and cold: the queries
/// below build no error context on their hot path (before, each query was a call whose frame
/// held it: some 15 instructions a query where the kept answer takes 4).
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_query(int rc, const char* operation,
                                                               MPI_Comm comm) {
  raise(rc, error_site{.operation = operation, .comm = comm});
}

/// What MPI_Comm_rank or MPI_Comm_size (Query) answers for comm; MPI_COMM_WORLD's is asked
/// once and kept in `kept`. Inline: on the world a compare and a load.
template <int (*Query)(MPI_Comm, int*)>
[[nodiscard, gnu::always_inline]] inline int kept_query(MPI_Comm comm, std::atomic<int>& kept,
                                                        const char* operation) {
  const bool world = comm == MPI_COMM_WORLD;
  if (world) {
    if (const int value = kept.load(std::memory_order_relaxed); value >= 0) [[likely]] {
      return value;
    }
  }
  int value = 0;
  if (const int rc = Query(comm, &value); rc != MPI_SUCCESS) [[unlikely]] {
    raise_query(rc, operation, comm);
  }
  if (world) kept.store(value, std::memory_order_relaxed);
  return value;
}

/// This process's rank in comm (MPI_Comm_rank; MPI_COMM_WORLD's asked once).
[[nodiscard, gnu::always_inline]] inline int rank_in(MPI_Comm comm) {
  return kept_query<&MPI_Comm_rank>(comm, world_rank_kept, "MPI_Comm_rank");
}

/// The number of ranks in comm (MPI_Comm_size; MPI_COMM_WORLD's asked once).
[[nodiscard, gnu::always_inline]] inline int size_of(MPI_Comm comm) {
  return kept_query<&MPI_Comm_size>(comm, world_size_kept, "MPI_Comm_size");
}

}  // namespace thinmpi::detail
