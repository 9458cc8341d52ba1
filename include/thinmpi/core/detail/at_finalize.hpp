#pragma once
/// \file
/// Frees the MPI handles thinmpi creates for the life of the program (committed derived
/// datatypes, user reduction operations) when MPI_Finalize runs, so that MPI and the leak
/// checkers report nothing left behind.
///
/// The hook is the standard's: an attribute on MPI_COMM_SELF, whose delete function
/// MPI_Finalize calls before anything else. One registry per handle kind, one attribute each,
/// set on the first handle registered.

#include <mutex>
#include <vector>

#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi::detail {

/// The handles of one kind to free at MPI_Finalize with Free (MPI_Type_free, MPI_Op_free).
template <class Handle, int (*Free)(Handle*)>
class finalize_registry {
 public:
  /// Registers handle to be freed at MPI_Finalize (thread-safe).
  static void add(Handle handle) {
    finalize_registry& r = instance();
    const std::lock_guard lock(r.mutex_);
    r.handles_.push_back(handle);
    if (r.hooked_) return;
    int key = MPI_KEYVAL_INVALID;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &free_all, &key, nullptr) != MPI_SUCCESS)
      return;  // the handles then live until the process ends, as they would without the hook
    r.hooked_ = MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr) == MPI_SUCCESS;
    // The attribute keeps the keyval alive until MPI_Finalize deletes it; freeing our handle
    // now lets MPI release it then (LeakSanitizer found it leaked otherwise).
    MPI_Comm_free_keyval(&key);
  }

 private:
  static finalize_registry& instance() {
    static finalize_registry registry;
    return registry;
  }

  static int free_all(MPI_Comm, int, void*, void*) {
    finalize_registry& r = instance();
    const std::lock_guard lock(r.mutex_);
    for (Handle& handle : r.handles_)
      Free(&handle);
    r.handles_.clear();
    r.hooked_ = false;
    return MPI_SUCCESS;
  }

  std::mutex mutex_;
  std::vector<Handle> handles_;
  bool hooked_ = false;
};

}  // namespace thinmpi::detail
