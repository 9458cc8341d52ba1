#pragma once
/// \file
/// General active-target synchronization (post/start/complete/wait) on groups of the window's
/// ranks: a target exposes its window to a group of origins with win.post(origins) and waits
/// for them with wait(); an origin accesses a group of targets with win.start(targets) and
/// ends with complete(). Groups are lists of ranks of the window's communicator.
///
///     auto win = thinmpi::window<int>::allocate(world, 1);
///     const int mine = rank;
///     auto exposure = win.post({left});      // left may access this rank's window
///     auto access = win.start({right});      // this rank accesses right's window
///     access.put(mine, right, 0);
///     access.complete();                     // the put is complete at this origin
///     exposure.wait();                       // left's put into this window has landed
///
/// The ranks of a group wait for this rank (a target in MPI_Win_wait, an origin in
/// MPI_Win_start or MPI_Win_complete), and only the groups say which: so an error this rank
/// finds in post or start (a rank outside the window or listed twice, an epoch that excludes
/// this one, an assertion the call does not take) ends the job, in the checked build too, as
/// MPI's own failure of post or start does. A group that names valid ranks but does not match
/// the partners' (origin 0 starts {1}, rank 1 posts {2}) hangs as in C: no rank can see it.

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/rma/detail/epoch_base.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"
#include "thinmpi/rma/detail/window_state.hpp"
#include "thinmpi/rma/modes.hpp"
#include "thinmpi/rma/operations.hpp"

namespace thinmpi {
namespace detail {

/// "a group lists each rank of the window once, and not MPI_PROC_NULL" [MPI_ERR_RANK]: the job
/// ends (the partners wait for this rank: end_pairwise).
[[noreturn, gnu::cold, gnu::noinline]] inline void refuse_member(const window_state& state,
                                                                 const char* operation,
                                                                 int member) {
  rma_site where = state.bad_rank_site(operation, member);
  if (state.has_rank(member)) {
    where.problem = "a group lists each rank of the window once, and not MPI_PROC_NULL";
  }
  state.end_pairwise(MPI_ERR_RANK, where);
}

/// The group of `ranks` of the window (MPI_Group_incl on MPI_Win_get_group); the caller frees
/// it. A rank outside the window, listed twice or MPI_PROC_NULL ends the job naming it.
inline MPI_Group window_group(const window_state& state, const char* operation,
                              std::span<const int> ranks) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const auto before = ranks.begin() + static_cast<std::ptrdiff_t>(i);
    if (!state.has_rank(ranks[i]) || ranks[i] == MPI_PROC_NULL ||
        std::find(ranks.begin(), before, ranks[i]) != before) [[unlikely]] {
      refuse_member(state, operation, ranks[i]);
    }
  }
  MPI_Group all = MPI_GROUP_NULL;
  MPI_Group chosen = MPI_GROUP_NULL;
  int rc = MPI_Win_get_group(state.win, &all);
  if (rc == MPI_SUCCESS) {
    rc = MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &chosen);
    MPI_Group_free(&all);
  }
  if (rc != MPI_SUCCESS) [[unlikely]] {
    state.mpi_failed_inside(rc, operation);
  }
  return chosen;
}

/// Post and start's checks of what only this rank knows (an epoch open that excludes this one,
/// an assertion the call does not take), before its group's: the job ends (end_pairwise).
[[noreturn, gnu::cold, gnu::noinline]] inline void refuse_pairwise(const window_state& state,
                                                                   const char* operation,
                                                                   const char* what, int bits,
                                                                   int takes,
                                                                   const char* takes_words) {
  rma_site where = state.site(operation);
  if ((bits & ~takes) != 0) {
    where.problem = assertion_refused(bits & ~takes, operation, takes_words);
    state.end_pairwise(MPI_ERR_ASSERT, where);
  }
  where.problem = state.busy_with(what);
  state.end_pairwise(MPI_ERR_RMA_SYNC, where);
}

}  // namespace detail

/// An access epoch on a group of targets of a window of T (MPI_Win_start ... MPI_Win_complete):
/// the operations of rma_operations, to the ranks of the group only. Move-only. Destroyed while
/// open, it completes (MPI_Win_complete) and drops an error MPI reports; call complete() to
/// hear it.
template <class T, class Disp>
class [[nodiscard]] access_epoch : public detail::epoch_base,
                                   public rma_operations<access_epoch<T, Disp>, T, Disp>,
                                   public detail::no_request_operations {
 public:
  /// Starts accessing `targets` (MPI_Win_start); for window::start().
  access_epoch(std::shared_ptr<detail::window_state> state, std::span<const int> targets,
               rma_mode mode)
      : epoch_base(state), targets_(targets.begin(), targets.end()) {
    const int bits = static_cast<int>(mode);
    if (state_->access != detail::access_kind::none || (bits & ~MPI_MODE_NOCHECK) != 0)
        [[unlikely]] {
      detail::refuse_pairwise(*state_, "MPI_Win_start", "open an access epoch (start)", bits,
                              MPI_MODE_NOCHECK, "nocheck");
    }
    MPI_Group group = detail::window_group(*state_, "MPI_Win_start", targets);
    const int rc = MPI_Win_start(group, bits, state_->win);
    MPI_Group_free(&group);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->mpi_failed_inside(rc, "MPI_Win_start");
    }
    state_->access = detail::access_kind::start;
    std::sort(targets_.begin(), targets_.end());
    mark_open();
  }
  /// Takes the epoch over; the moved-from one is closed and ends nothing.
  access_epoch(access_epoch&&) noexcept = default;
  ~access_epoch() {
    finish_quietly(&MPI_Win_complete, [](detail::window_state& state) { state.close_access(); });
  }

  /// Ends the epoch (MPI_Win_complete): every operation is complete at this origin (at the
  /// targets once their wait() returns). Throws thinmpi::mpi_error if MPI fails; the epoch is
  /// closed either way.
  void complete() {
    finish("MPI_Win_complete", &MPI_Win_complete,
           [](detail::window_state& state) { state.close_access(); });
  }

  /// For the operations: only the ranks of the group may be accessed.
  [[gnu::always_inline]] const detail::window_state& permit(const char* operation,
                                                            int target) const {
    const detail::window_state& state = open_state(operation);
    if (!std::binary_search(targets_.begin(), targets_.end(), target) && target != MPI_PROC_NULL)
        [[unlikely]] {
      raise_not_in_group(operation, target);
    }
    return state;
  }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void raise_not_in_group(const char* operation,
                                                                 int target) const {
    state_->check_rank(operation, target);  // a rank outside the window is MPI_ERR_RANK
    detail::rma_site where = state_->site(operation);
    where.target = target;
    where.problem = "the target is not in the group this access epoch started with (" +
                    std::to_string(targets_.size()) + " ranks)";
    state_->raise(MPI_ERR_RMA_SYNC, where);
  }

  std::vector<int> targets_;
};

/// An exposure epoch of this rank's window to a group of origins (MPI_Win_post ...
/// MPI_Win_wait): it has no operations, since the origins access this window. Move-only.
/// Destroyed while open, it waits (MPI_Win_wait) and drops an error MPI reports; call wait()
/// to hear it.
class [[nodiscard]] exposure_epoch : public detail::epoch_base,
                                     public detail::no_exposure_operations {
 public:
  /// Exposes the window to `origins` (MPI_Win_post); for window::post().
  exposure_epoch(std::shared_ptr<detail::window_state> state, std::span<const int> origins,
                 rma_mode mode)
      : epoch_base(state) {
    constexpr int takes = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT;
    const int bits = static_cast<int>(mode);
    if (state_->exposed || state_->access == detail::access_kind::fence || (bits & ~takes) != 0)
        [[unlikely]] {
      detail::refuse_pairwise(*state_, "MPI_Win_post", "open an exposure epoch (post)", bits, takes,
                              "nocheck, nostore and noput");
    }
    MPI_Group group = detail::window_group(*state_, "MPI_Win_post", origins);
    const int rc = MPI_Win_post(group, bits, state_->win);
    MPI_Group_free(&group);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state_->mpi_failed_inside(rc, "MPI_Win_post");
    }
    state_->exposed = true;
    mark_open();
  }
  /// Takes the epoch over; the moved-from one is closed and ends nothing.
  exposure_epoch(exposure_epoch&&) noexcept = default;
  ~exposure_epoch() {
    finish_quietly(&MPI_Win_wait, [](detail::window_state& state) { state.exposed = false; });
  }

  /// Ends the epoch once every origin of the group has completed (MPI_Win_wait): their
  /// operations have landed in this window. Throws thinmpi::mpi_error if MPI fails; the epoch
  /// is closed either way.
  void wait() {
    finish("MPI_Win_wait", &MPI_Win_wait,
           [](detail::window_state& state) { state.exposed = false; });
  }
  /// Ends the epoch if every origin has completed (MPI_Win_test), and says whether it did;
  /// never blocks.
  [[nodiscard]] bool test() {
    const detail::window_state& state = open_state("MPI_Win_test");
    int flag = 0;
    check_sync(MPI_Win_test(state.win, &flag), "MPI_Win_test");
    if (flag != 0) {
      finish(
          "MPI_Win_test", [](MPI_Win) { return MPI_SUCCESS; },
          [](detail::window_state& s) { s.exposed = false; });
    }
    return flag != 0;
  }
};

}  // namespace thinmpi
