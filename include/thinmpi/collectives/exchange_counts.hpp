#pragma once
/// \file
/// thinmpi::exchange_counts, the argument that makes a v-collective exchange its counts first,
/// and thinmpi::varying, what such a call returns.

#include <vector>

namespace thinmpi {

/// Passed to a v-collective (allgatherv, alltoallv, gatherv, scatterv) in place of counts: the
/// ranks first exchange their counts (one MPI_Allgather / MPI_Alltoall / MPI_Gather /
/// MPI_Scatter of one int each), then make the v-call. The cost is in the call's form:
///
///     auto all = world.allgatherv(mine, thinmpi::exchange_counts);  // 2 MPI calls
struct exchange_counts_t {
  explicit exchange_counts_t() = default;
};
/// See exchange_counts_t.
inline constexpr exchange_counts_t exchange_counts{};

/// What a v-collective that exchanged its counts received: the data, and each rank's count and
/// displacement (in elements), to reuse on the next call with the same shape (one MPI call).
template <class E>
struct varying {
  std::vector<E> data;      ///< every rank's block, in rank order
  std::vector<int> counts;  ///< elements from each rank
  std::vector<int> displs;  ///< where each rank's block starts in data
};

}  // namespace thinmpi
