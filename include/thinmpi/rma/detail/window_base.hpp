#pragma once
/// \file
/// What every window kind (window, shared_window, dynamic_window) shares: the MPI_Win, freed
/// once and collectively; the memory model; the factories of the epochs, which alone carry
/// the one-sided operations; and, where a caller looks for an operation on the window itself,
/// a one-sentence explanation instead.

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/requests/detail/request_access.hpp"
#include "thinmpi/rma/detail/window_state.hpp"
#include "thinmpi/rma/fence.hpp"
#include "thinmpi/rma/lock.hpp"
#include "thinmpi/rma/modes.hpp"
#include "thinmpi/rma/pscw.hpp"

namespace thinmpi::detail {

/// A new window state for `win`, made over `comm`: MPI_ERRORS_RETURN set, rank and size known.
/// Frees `win` if that fails.
template <class T>
std::shared_ptr<window_state> adopt_window(MPI_Win win, MPI_Comm comm, const char* operation) {
  auto state = std::make_shared<window_state>();
  state->win = win;
  state->type = datatype_of<T>();
  int rc = MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_rank(comm, &state->rank);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_size(comm, &state->size);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    MPI_Win_free(&state->win);
    check(rc, operation, comm);
  }
  return state;
}

/// Every rank's window size in elements, from one MPI_Allgather of each rank's {size in bytes,
/// displacement unit}: the origin-side bounds checks' knowledge, and a window's creation cost.
inline std::vector<std::size_t> gather_extents(MPI_Comm comm, std::size_t bytes, int unit) {
  const MPI_Aint mine[2] = {static_cast<MPI_Aint>(bytes), static_cast<MPI_Aint>(unit)};
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size", comm);
  std::vector<MPI_Aint> all(2 * static_cast<std::size_t>(size));
  check(MPI_Allgather(mine, 2, MPI_AINT, all.data(), 2, MPI_AINT, comm), "MPI_Allgather", comm);
  std::vector<std::size_t> extents(static_cast<std::size_t>(size));
  for (std::size_t r = 0; r < extents.size(); ++r) {
    const MPI_Aint rank_unit = all[2 * r + 1] > 0 ? all[2 * r + 1] : 1;
    extents[r] = static_cast<std::size_t>(all[2 * r] / rank_unit);
  }
  return extents;
}

/// The base of the window kinds, for elements of T whose epochs take displacements Disp.
/// Move-only; freed (MPI_Win_free, collective) by free() or the destructor.
template <class T, class Disp>
class window_base {
 public:
  window_base(const window_base&) = delete;
  window_base& operator=(const window_base&) = delete;
  window_base(window_base&& other) noexcept = default;
  window_base& operator=(window_base&& other) noexcept {
    if (this != &other) {
      release();
      state_ = std::move(other.state_);
    }
    return *this;
  }
  /// Frees the window (collective, as free()). Epochs still open on this rank are ended first
  /// (their errors dropped); an epoch object that outlives the window finds it freed.
  ~window_base() { release(); }

  /// The MPI handle (MPI_WIN_NULL once freed), for calling MPI directly.
  [[nodiscard]] MPI_Win native() const noexcept {
    return state_ != nullptr ? state_->win : MPI_WIN_NULL;
  }
  /// Whether this is no window (default-constructed, moved from, or freed).
  [[nodiscard]] bool is_null() const noexcept { return native() == MPI_WIN_NULL; }
  /// This rank in the window's group.
  [[nodiscard]] int rank() const { return live("thinmpi::window::rank").rank; }
  /// The number of ranks in the window's group.
  [[nodiscard]] int size() const { return live("thinmpi::window::size").size; }
  /// The window's memory model (MPI_WIN_MODEL).
  [[nodiscard]] memory_model model() const {
    const window_state& state = live("MPI_Win_get_attr");
    int* value = nullptr;
    int found = 0;
    const int rc = MPI_Win_get_attr(state.win, MPI_WIN_MODEL, &value, &found);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_rma(rc, state.site("MPI_Win_get_attr"));
    }
    return found != 0 && value != nullptr && *value == MPI_WIN_UNIFIED ? memory_model::unified
                                                                       : memory_model::separate;
  }

  /// Opens a fence epoch (MPI_Win_fence, collective over the window's group).
  [[nodiscard]] fence_epoch<T, Disp> fence(rma_mode mode = rma_mode::none) {
    return {live_state("MPI_Win_fence"), mode};
  }
  /// Locks `target` (MPI_Win_lock): a passive-target epoch accessing that rank only.
  [[nodiscard]] lock_epoch<T, Disp> lock(int target, lock_type type = lock_type::exclusive,
                                         rma_mode mode = rma_mode::none) {
    return {live_state("MPI_Win_lock"), target, type, mode};
  }
  /// Locks every rank shared (MPI_Win_lock_all): a passive-target epoch accessing any rank.
  [[nodiscard]] lock_all_epoch<T, Disp> lock_all(rma_mode mode = rma_mode::none) {
    return {live_state("MPI_Win_lock_all"), mode};
  }
  /// Opens an access epoch to the listed ranks (MPI_Win_start); they must post().
  [[nodiscard]] access_epoch<T, Disp> start(std::span<const int> targets,
                                            rma_mode mode = rma_mode::none) {
    return {live_state("MPI_Win_start"), targets, mode};
  }
  /// start({1, 2})
  [[nodiscard]] access_epoch<T, Disp> start(std::initializer_list<int> targets,
                                            rma_mode mode = rma_mode::none) {
    return start(std::span<const int>(targets.begin(), targets.size()), mode);
  }
  /// Exposes this rank's window to the listed ranks (MPI_Win_post); they must start().
  [[nodiscard]] exposure_epoch post(std::span<const int> origins, rma_mode mode = rma_mode::none) {
    return {live_state("MPI_Win_post"), origins, mode};
  }
  /// post({0})
  [[nodiscard]] exposure_epoch post(std::initializer_list<int> origins,
                                    rma_mode mode = rma_mode::none) {
    return post(std::span<const int>(origins.begin(), origins.size()), mode);
  }

  /// Frees the window now (MPI_Win_free, collective). An epoch still open on this rank is an
  /// mpi_error (MPI_ERR_RMA_SYNC) and the window stays usable: end the epoch, then free.
  void free() {
    const window_state& state = live("MPI_Win_free");
    state.require_no_epoch("MPI_Win_free");
    const int rc = MPI_Win_free(&state_->win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_rma(rc, state.site("MPI_Win_free"));
    }
  }

  // Where a caller looks for an operation on the window itself: one sentence instead.
  template <class... Args>
  void put(Args&&...) const {
    outside_epoch<Args...>();
  }
  template <class... Args>
  void get(Args&&...) const {
    outside_epoch<Args...>();
  }
  template <class... Args>
  void accumulate(Args&&...) const {
    outside_epoch<Args...>();
  }
  template <class... Args>
  void get_accumulate(Args&&...) const {
    outside_epoch<Args...>();
  }
  template <class... Args>
  void fetch_and_op(Args&&...) const {
    outside_epoch<Args...>();
  }
  template <class... Args>
  void compare_and_swap(Args&&...) const {
    outside_epoch<Args...>();
  }
  template <class... Args>
  void rput(Args&&...) const {
    outside_epoch<Args...>();
  }
  template <class... Args>
  void rget(Args&&...) const {
    outside_epoch<Args...>();
  }

 protected:
  window_base() = default;
  explicit window_base(std::shared_ptr<window_state> state) noexcept : state_(std::move(state)) {}

  /// The state of a window not freed, else an mpi_error naming `operation`.
  [[nodiscard]] const window_state& live(const char* operation) const {
    if (is_null()) [[unlikely]] {
      raise(MPI_ERR_WIN, error_site{.operation = operation,
                                    .problem = "the window is null (freed, moved from, or "
                                               "never made)"});
    }
    return *state_;
  }
  [[nodiscard]] std::shared_ptr<window_state> live_state(const char* operation) const {
    static_cast<void>(live(operation));
    return state_;
  }

  std::shared_ptr<window_state> state_;

 private:
  template <class... Args>
  static consteval void outside_epoch() {
    static_assert(dependent_false<void(Args...)>,
                  "thinmpi: a window has no one-sided operations of its own, so that none can "
                  "happen outside an epoch: open one with win.fence(), win.lock(rank), "
                  "win.lock_all() or win.start(ranks) and call the operation on it");
  }

  /// Ends the epochs still open on this rank (errors dropped), then frees the window.
  void release() noexcept {
    if (is_null() || mpi_finalized()) return;
    window_state& state = *state_;
    for (const int target : state.locked)
      MPI_Win_unlock(target, state.win);
    if (state.access == access_kind::lock_all) MPI_Win_unlock_all(state.win);
    if (state.access == access_kind::start) MPI_Win_complete(state.win);
    if (state.access == access_kind::fence) MPI_Win_fence(MPI_MODE_NOSUCCEED, state.win);
    if (state.exposed) MPI_Win_wait(state.win);
    state.locked.clear();
    state.access = access_kind::none;
    state.exposed = false;
    MPI_Win_free(&state.win);
    state.win = MPI_WIN_NULL;
  }
};

}  // namespace thinmpi::detail
