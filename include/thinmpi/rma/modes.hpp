#pragma once
/// \file
/// The small vocabulary of one-sided communication: the lock types of a passive-target epoch,
/// the assertions an epoch may be opened or closed with, and a window's memory model.

#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi {

/// How a passive-target epoch locks its rank (MPI_Win_lock): shared locks of several origins
/// coexist, an exclusive lock excludes every other.
enum class lock_type : int {
  shared = MPI_LOCK_SHARED,       ///< MPI_LOCK_SHARED
  exclusive = MPI_LOCK_EXCLUSIVE  ///< MPI_LOCK_EXCLUSIVE
};

/// The assertions (MPI_MODE_*) an epoch is opened or closed with, combined with `|`. Each
/// synchronization call accepts only some of them; MPI reports the others.
///
///     auto win = thinmpi::window<double>::allocate(world, n);
///     auto epoch = win.fence(thinmpi::rma_mode::noprecede | thinmpi::rma_mode::nostore);
enum class rma_mode : int {
  none = 0,                        ///< no assertion
  nocheck = MPI_MODE_NOCHECK,      ///< lock, start, post: no conflicting epoch exists
  nostore = MPI_MODE_NOSTORE,      ///< fence, post: no local stores since the last sync
  noput = MPI_MODE_NOPUT,          ///< fence, post: no puts or accumulates until the next
  noprecede = MPI_MODE_NOPRECEDE,  ///< fence: no operations before it to complete
  nosucceed = MPI_MODE_NOSUCCEED   ///< fence: no epoch begins after it
};

/// Both assertions.
[[nodiscard]] constexpr rma_mode operator|(rma_mode a, rma_mode b) noexcept {
  return static_cast<rma_mode>(static_cast<int>(a) | static_cast<int>(b));
}

/// A window's memory model (MPI_WIN_MODEL): in the unified model the public and private copies
/// of the window are one memory, in the separate model a passive-target epoch must call sync()
/// (MPI_Win_sync) before local loads and stores see remote updates, and the other way round.
enum class memory_model {
  unified,  ///< MPI_WIN_UNIFIED
  separate  ///< MPI_WIN_SEPARATE
};

}  // namespace thinmpi
