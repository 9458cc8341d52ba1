#pragma once
/// \file
/// What a window and its epochs share: the MPI_Win, every rank's window size (for origin-side
/// bounds checks), and which epochs this rank has open on it (so that an epoch of the wrong
/// kind, or a free inside an epoch, is an error before MPI sees it). Windows and epochs hold it
/// through a std::shared_ptr: an epoch that outlives its window finds the window freed and does
/// nothing, instead of calling MPI on a freed handle.

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"

namespace thinmpi::detail {

/// The access epoch this rank has open on a window (at most one kind at a time; several lock
/// epochs on different targets may be open together).
enum class access_kind { none, fence, lock, lock_all, start };

struct window_state {
  MPI_Win win = MPI_WIN_NULL;
  int rank = 0;
  int size = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;  ///< the element datatype, for error reports
  /// Elements of each rank's window, from the allgather at creation; empty for a dynamic window.
  std::vector<std::size_t> extents;
  access_kind access = access_kind::none;
  std::vector<int> locked;  ///< targets of the open lock epochs
  bool exposed = false;     ///< a post (exposure) epoch is open

  [[nodiscard]] rma_site site(const char* operation) const {
    return rma_site{.operation = operation, .rank = rank, .size = size, .type = type};
  }
  /// Throws a synchronization error thinmpi found before calling MPI.
  [[noreturn]] void refuse(const char* operation, int code, std::string problem) const {
    rma_site where = site(operation);
    where.problem = std::move(problem);
    raise_rma(code, where);
  }

  /// The epochs open on this rank, in words ("a fence epoch", ...); empty when none is.
  [[nodiscard]] std::string open_epochs() const {
    std::string text;
    switch (access) {
      case access_kind::none:
        break;
      case access_kind::fence:
        text = "a fence epoch";
        break;
      case access_kind::lock: {
        text = "a lock epoch on rank";
        for (std::size_t i = 0; i < locked.size(); ++i)
          text += (i == 0 ? " " : ", ") + std::to_string(locked[i]);
        break;
      }
      case access_kind::lock_all:
        text = "a lock_all epoch";
        break;
      case access_kind::start:
        text = "an access epoch (start)";
        break;
    }
    if (exposed) text += std::string(text.empty() ? "" : " and ") + "an exposure epoch (post)";
    return text;
  }

  /// Throws MPI_ERR_RANK unless target is a rank of the window (or MPI_PROC_NULL). Inline on
  /// every operation's path: two compares, the message built out of line.
  [[gnu::always_inline]] void check_rank(const char* operation, int target) const {
    if ((target < 0 || target >= size) && target != MPI_PROC_NULL) [[unlikely]] {
      raise_bad_rank(operation, target);
    }
  }
  [[noreturn, gnu::cold, gnu::noinline]] void raise_bad_rank(const char* operation,
                                                             int target) const {
    rma_site where = site(operation);
    where.target = target;
    where.problem = "the window has ranks 0 to " + std::to_string(size - 1);
    raise_rma(MPI_ERR_RANK, where);
  }
  /// Throws MPI_ERR_RMA_SYNC unless nothing is open but what `allowed_with` allows.
  void require_free_for(const char* operation, const char* what, bool exposure_ok) const {
    const bool busy = access != access_kind::none || (exposed && !exposure_ok);
    if (busy) [[unlikely]] {
      refuse(operation, MPI_ERR_RMA_SYNC,
             std::string("cannot open ") + what + " while " + open_epochs() +
                 " is open on this rank; end it first");
    }
  }

  void open_fence(const char* operation) {
    require_free_for(operation, "a fence epoch", false);
    access = access_kind::fence;
  }
  void open_lock(const char* operation, int target) {
    check_rank(operation, target);
    if (access != access_kind::none && access != access_kind::lock) [[unlikely]] {
      refuse(operation, MPI_ERR_RMA_SYNC,
             "cannot lock rank " + std::to_string(target) + " while " + open_epochs() +
                 " is open on this rank; end it first");
    }
    if (std::find(locked.begin(), locked.end(), target) != locked.end()) [[unlikely]] {
      refuse(operation, MPI_ERR_RMA_SYNC,
             "rank " + std::to_string(target) +
                 " is locked already by another lock epoch of this rank; unlock it first");
    }
    locked.push_back(target);
    access = access_kind::lock;
  }
  void close_lock(int target) noexcept {
    locked.erase(std::remove(locked.begin(), locked.end(), target), locked.end());
    if (locked.empty()) access = access_kind::none;
  }
  void open_lock_all(const char* operation) {
    require_free_for(operation, "a lock_all epoch", true);
    access = access_kind::lock_all;
  }
  void open_start(const char* operation) {
    require_free_for(operation, "an access epoch (start)", true);
    access = access_kind::start;
  }
  void open_post(const char* operation) {
    if (exposed || access == access_kind::fence) [[unlikely]] {
      refuse(operation, MPI_ERR_RMA_SYNC,
             "cannot open an exposure epoch (post) while " + open_epochs() +
                 " is open on this rank; end it first");
    }
    exposed = true;
  }
  void close_access() noexcept { access = access_kind::none; }

  /// Throws MPI_ERR_RMA_SYNC if an epoch is open: MPI_Win_free would be erroneous.
  void require_no_epoch(const char* operation) const {
    if (access != access_kind::none || exposed) [[unlikely]] {
      refuse(operation, MPI_ERR_RMA_SYNC,
             "cannot free the window while " + open_epochs() +
                 " is open on this rank; end it first (the window stays usable)");
    }
  }
};

}  // namespace thinmpi::detail
