#pragma once
// One-sided communication (include/thinmpi/rma/) with an argument only one rank has wrong, in
// a call every rank of the window enters (a window's creation, a fence, free) or inside a fence
// epoch, where every rank is (rma/detail/window_state.hpp): unchecked the rank ends the job;
// with THINMPI_CHECKED_COLLECTIVES=1 every rank throws, the others at their next fence, and
// the window goes on (rma_cases(), also in root_only::cases()). And the mistakes that end the
// job in both builds (rma_ending_cases(), launched only): post and start, whose partners no
// agreement reaches, a fence of an epoch that has ended, a window moved from. The rank with
// the bad argument is `bad`, the last rank. Included by root_only_cases.hpp.

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace root_only {

/// Where window_of() keeps its window.
inline std::optional<thinmpi::window<int>>& window_slot() {
  static std::optional<thinmpi::window<int>> slot;
  return slot;
}

/// A window of 4 ints of every rank of `w`, made once on first use by every rank alike; the
/// cases that keep a window use it, so that the next epoch on it shows it goes on. It is freed
/// (collectively) when MPI_Finalize deletes an attribute of MPI_COMM_SELF, before anything
/// else: a window still alive there makes MPICH 4.0.2 over UCX abort ("ucp_rcache: destroying
/// inuse region").
inline thinmpi::window<int>& window_of(thinmpi::comm_view w) {
  auto& slot = window_slot();
  if (!slot) {
    slot.emplace(thinmpi::window<int>::allocate(w, 4));
    int key = MPI_KEYVAL_INVALID;
    const auto free_window = [](MPI_Comm, int, void*, void*) {
      window_slot().reset();
      return MPI_SUCCESS;
    };
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_window, &key, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr);
    MPI_Comm_free_keyval(&key);
  }
  return *slot;
}

/// A correct fence epoch on window_of(w) after a case: every rank puts 700 + rank into element
/// 2 of the next rank's part; whether this rank then holds its previous rank's value.
inline bool next_epoch_gets_its_own(thinmpi::comm_view w) {
  auto& win = window_of(w);
  const int size = w.size();
  const int mine = 700 + w.rank();
  {
    auto epoch = win.fence();
    epoch.put(mine, (w.rank() + 1) % size, 2);
    epoch.end();
  }
  const bool got = win.local()[2] == 700 + (w.rank() + size - 1) % size;
  w.barrier();  // before the next case's epoch writes the window again
  return got;
}

/// A lock_all epoch of window_of(w) on the rank `bad` only (the epoch open there by mistake).
inline std::optional<thinmpi::lock_all_epoch<int, std::size_t>> lock_all_on(thinmpi::comm_view w,
                                                                            int bad) {
  std::optional<thinmpi::lock_all_epoch<int, std::size_t>> open_here;
  if (w.rank() == bad) open_here.emplace(window_of(w).lock_all());
  return open_here;
}

inline const std::vector<bad_call>& rma_cases() {
  using thinmpi::comm_view;
  using thinmpi::rma_mode;
  static const std::vector<bad_call> all{
      {"window_allocate_size_overflow", false, MPI_ERR_SIZE, "do not fit a window",
       [](comm_view w, int bad) {
         auto win = thinmpi::window<int>::allocate(w, w.rank() == bad ? SIZE_MAX / 2 : 4);
       }},
      {"window_create_null_memory", false, MPI_ERR_BASE, "elements and a null data()",
       [](comm_view w, int bad) {
         std::vector<int> mine(4);
         const std::span<int> memory =
             w.rank() == bad ? std::span<int>(static_cast<int*>(nullptr), 4) : std::span(mine);
         auto win = thinmpi::window<int>::create(w, memory);
       }},
      {"shared_allocate_size_overflow", false, MPI_ERR_SIZE, "do not fit a window",
       [](comm_view w, int bad) {
         auto win = thinmpi::shared_window<int>::allocate(w, w.rank() == bad ? SIZE_MAX / 2 : 4);
       }},
      {"fence_inside_lock_all", false, MPI_ERR_RMA_SYNC,
       "cannot open a fence epoch while a lock_all epoch is open",
       [](comm_view w, int bad) {
         const auto open_here = lock_all_on(w, bad);
         auto epoch = window_of(w).fence();
         epoch.end();
       }},
      {"lock_all_inside_fence", false, MPI_ERR_RMA_SYNC,
       "cannot open a lock_all epoch while a fence epoch is open",
       [](comm_view w, int bad) {
         auto& win = window_of(w);
         auto epoch = win.fence();
         if (w.rank() == bad) auto inner = win.lock_all();
         epoch.end();
       }},
      {"fence_assertion_nocheck", false, MPI_ERR_ASSERT,
       "rma_mode::nocheck (MPI_MODE_NOCHECK) is not an assertion MPI_Win_fence takes",
       [](comm_view w, int bad) {
         auto epoch = window_of(w).fence(w.rank() == bad ? rma_mode::nocheck : rma_mode::none);
         epoch.end();
       }},
      {"fence_inner_assertion", false, MPI_ERR_ASSERT, "is not an assertion MPI_Win_fence takes",
       [](comm_view w, int bad) {
         auto epoch = window_of(w).fence();
         epoch.fence(w.rank() == bad ? rma_mode::nocheck : rma_mode::none);
         epoch.end();
       }},
      {"fence_on_moved_epoch", false, MPI_ERR_RMA_SYNC,
       "this epoch was moved from; use the epoch it was moved to",
       [](comm_view w, int bad) {
         auto epoch = window_of(w).fence();
         auto moved = std::move(epoch);
         (w.rank() == bad ? epoch : moved).fence();
         moved.end();
       }},
      {"put_outside_window_in_fence", false, MPI_ERR_RANK, "is not in the window, whose",
       [](comm_view w, int bad) {
         const int mine = w.rank();
         auto epoch = window_of(w).fence();
         epoch.put(mine, w.rank() == bad ? w.size() : (w.rank() + 1) % w.size(), 0);
         epoch.fence();
         epoch.end();
       }},
      {"get_past_window_in_fence", false, MPI_ERR_RMA_RANGE, "lie past the end of the window",
       [](comm_view w, int bad) {
         std::vector<int> into(2);
         auto epoch = window_of(w).fence();
         epoch.get(into, (w.rank() + 1) % w.size(), w.rank() == bad ? 3 : 0);
         epoch.end();
       }},
      {"free_inside_epoch", false, MPI_ERR_RMA_SYNC,
       "cannot free the window while a lock_all epoch is open",
       [](comm_view w, int bad) {
         const auto open_here = lock_all_on(w, bad);
         window_of(w).free();
       }},
  };
  return all;
}

/// Post/start/complete/wait around a ring: each rank exposes its window to its left rank and
/// accesses its right rank's, with the groups (and start's assertion) given.
inline void ring_epoch(thinmpi::comm_view w, const std::vector<int>& origins,
                       const std::vector<int>& targets, thinmpi::rma_mode start_mode) {
  auto& win = window_of(w);
  auto exposure = win.post(origins);
  auto access = win.start(targets, start_mode);
  access.complete();
  exposure.wait();
}

/// The mistakes that end the job in both builds: none is in cases(), so the checked test does
/// not run them; faults/root_only_abort.cpp launches them.
inline const std::vector<bad_call>& rma_ending_cases() {
  using thinmpi::comm_view;
  using thinmpi::rma_mode;
  static const std::vector<bad_call> all{
      {"start_rank_outside", false, MPI_ERR_RANK, "is not in the window, whose",
       [](comm_view w, int bad) {
         const int left = (w.rank() + w.size() - 1) % w.size();
         const int right = w.rank() + 1;  // the mistake: no wrap-around on the last rank
         ring_epoch(w, {left}, {w.rank() == bad ? right : right % w.size()}, rma_mode::none);
       }},
      {"post_rank_listed_twice", false, MPI_ERR_RANK, "a group lists each rank of the window once",
       [](comm_view w, int bad) {
         const int left = (w.rank() + w.size() - 1) % w.size();
         const std::vector<int> origins =
             w.rank() == bad ? std::vector<int>{left, left} : std::vector<int>{left};
         ring_epoch(w, origins, {(w.rank() + 1) % w.size()}, rma_mode::none);
       }},
      {"start_assertion_noput", false, MPI_ERR_ASSERT, "are not assertions MPI_Win_start takes",
       [](comm_view w, int bad) {
         const int left = (w.rank() + w.size() - 1) % w.size();
         ring_epoch(w, {left}, {(w.rank() + 1) % w.size()},
                    w.rank() == bad ? rma_mode::noput : rma_mode::none);
       }},
      {"fence_on_ended_epoch", false, MPI_ERR_RMA_SYNC, "the epoch has ended",
       [](comm_view w, int bad) {
         auto epoch = window_of(w).fence();
         if (w.rank() == bad) epoch.end();
         epoch.fence();
         epoch.end();
       }},
      {"fence_on_moved_window", false, MPI_ERR_WIN, "this window was moved from",
       [](comm_view w, int bad) {
         auto win = thinmpi::window<int>::allocate(w, 4);
         auto moved = std::move(win);
         auto epoch = (w.rank() == bad ? win : moved).fence();
         epoch.end();
       }},
  };
  return all;
}

}  // namespace root_only
