#pragma once
/// \file
/// What every window kind (window, shared_window, dynamic_window) shares: the MPI_Win, freed
/// once and collectively; the memory model; the factories of the epochs, which alone carry
/// the one-sided operations; and, where a caller looks for an operation on the window itself,
/// a one-sentence explanation instead.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/communicator/group.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/requests/detail/request_access.hpp"
#include "thinmpi/rma/detail/epoch_base.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"
#include "thinmpi/rma/detail/window_state.hpp"
#include "thinmpi/rma/fence.hpp"
#include "thinmpi/rma/lock.hpp"
#include "thinmpi/rma/modes.hpp"
#include "thinmpi/rma/pscw.hpp"

namespace thinmpi::detail {

/// The most elements of `element_size` bytes a window holds: its bytes, with `pad` more, must
/// fit the MPI_Aint that MPI takes its size in.
[[nodiscard]] constexpr std::size_t most_elements(std::size_t element_size,
                                                  std::size_t pad) noexcept {
  return (static_cast<std::size_t>(PTRDIFF_MAX) - pad) / element_size;
}

/// What a rank asks of a window's creation that only it can see is wrong.
struct window_request {
  const char* operation;
  std::size_t count;    ///< elements of this rank's part
  std::size_t most;     ///< most_elements() for the call
  bool memory_missing;  ///< create: memory.data() is null, with elements
};

/// The creation's error only this rank sees (a size MPI_Aint cannot hold, memory that is not
/// there): every other rank is entering the collective creation (fail_collectively).
[[noreturn, gnu::cold, gnu::noinline]] inline void refuse_window(const window_state& pending,
                                                                 const window_request& asked) {
  rma_site where = pending.site(asked.operation);
  where.count = asked.count;
  if (asked.memory_missing) {
    where.problem = "the memory given has " + counted(asked.count, "element", "elements") +
                    " and a null data(): pass a std::span of memory that exists";
    pending.fail_collectively(MPI_ERR_BASE, where);
  }
  where.count.reset();  // describe_elements would overflow counting its bytes
  where.problem = counted(asked.count, "element", "elements") + " of " +
                  counted(datatype_size(pending.type).value_or(0), "byte", "bytes") +
                  " do not fit a window: MPI takes its size in bytes as an MPI_Aint, which holds "
                  "at most " +
                  std::to_string(asked.most) + " such elements";
  pending.fail_collectively(MPI_ERR_SIZE, where);
}

/// A window of T made over `comm` by `create` (the MPI call, given &win): this rank's
/// arguments checked first (a failure ends the job; checked, every rank throws), then, checked,
/// the ranks agree (one MPI_Allreduce), then the call. MPI's own failure of it on one rank may
/// leave the others inside it (MPICH 4.0.2 does, for an allocation it cannot make), so that
/// ends the job too, unless the communicator has one rank. The state has MPI_ERRORS_RETURN set
/// on the window, rank and size known and, checked, a duplicate of `comm` for the agreements.
template <class T, class Create>
std::shared_ptr<window_state> make_window(MPI_Comm comm, const window_request& asked,
                                          Create create) {
  auto state = std::make_shared<window_state>();
  state->type = datatype_of<T>();
  state->comm = comm;  // the agreements of the creation itself
  check(MPI_Comm_rank(comm, &state->rank), "MPI_Comm_rank", comm);
  check(MPI_Comm_size(comm, &state->size), "MPI_Comm_size", comm);
  if (asked.count > asked.most || asked.memory_missing) [[unlikely]] {
    refuse_window(*state, asked);
  }
  agree_if_checked(state->call(asked.operation));
  const int rc = create(&state->win);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    state->mpi_failed_inside(rc, asked.operation);
  }
  state->comm = MPI_COMM_NULL;
  int set = MPI_Win_set_errhandler(state->win, MPI_ERRORS_RETURN);
  if (set == MPI_SUCCESS && checked_collectives) set = MPI_Comm_dup(comm, &state->comm);
  if (set != MPI_SUCCESS) [[unlikely]] {
    MPI_Win_free(&state->win);
    check(set, asked.operation, comm);
  }
  return state;
}

/// Throws MPI_ERR_DISP on every rank unless every rank's displacement unit (`units`, one per
/// rank) is this rank's: the ranks made windows of different element types. Every rank sees
/// the same units, so every rank throws (and frees the window on its way out).
inline void require_same_units(const window_state& state, const char* operation,
                               const std::vector<MPI_Aint>& units) {
  const MPI_Aint mine = units[static_cast<std::size_t>(state.rank)];
  for (std::size_t r = 0; r < units.size(); ++r) {
    if (units[r] != mine) [[unlikely]] {
      rma_site where = state.site(operation);
      where.problem = "rank " + std::to_string(r) + "'s window holds elements of " +
                      counted(static_cast<std::size_t>(units[r]), "byte", "bytes") +
                      " and this rank's of " +
                      counted(static_cast<std::size_t>(mine), "byte", "bytes") +
                      ": every rank makes its window of the same element type";
      raise_rma(MPI_ERR_DISP, where);
    }
  }
}

/// Every rank's window size in elements, from one MPI_Allgather of each rank's {size in bytes,
/// displacement unit}: the origin-side bounds checks' knowledge, and a window's creation cost.
/// Ranks whose units differ throw on every rank (require_same_units).
inline void gather_extents(window_state& state, const char* operation, MPI_Comm comm,
                           std::size_t bytes, int unit) {
  const MPI_Aint mine[2] = {static_cast<MPI_Aint>(bytes), static_cast<MPI_Aint>(unit)};
  const auto ranks = static_cast<std::size_t>(state.size);
  std::vector<MPI_Aint> all(2 * ranks);
  check(MPI_Allgather(mine, 2, MPI_AINT, all.data(), 2, MPI_AINT, comm), "MPI_Allgather", comm);
  std::vector<MPI_Aint> units(ranks);
  state.extents.resize(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    units[r] = all[2 * r + 1] > 0 ? all[2 * r + 1] : 1;
    state.extents[r] = static_cast<std::size_t>(all[2 * r] / units[r]);
  }
  require_same_units(state, operation, units);
}

/// The base of the window kinds, for elements of T whose epochs take displacements Disp.
/// Move-only; freed (MPI_Win_free, collective) by free() or the destructor.
template <class T, class Disp>
class window_base : public no_operations<outside_epoch>, public no_requests<outside_epoch> {
 public:
  window_base(const window_base&) = delete;
  window_base& operator=(const window_base&) = delete;
  /// Takes the window over; the moved-from one is null and says so when used.
  window_base(window_base&& other) noexcept
      : state_(std::move(other.state_)), moved_from_(std::exchange(other.moved_from_, true)) {}
  window_base& operator=(window_base&& other) noexcept {
    if (this != &other) {
      release();
      state_ = std::move(other.state_);
      moved_from_ = std::exchange(other.moved_from_, true);
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
  /// The window's group (MPI_Win_get_group; local).
  [[nodiscard]] thinmpi::group group() const {
    const window_state& state = live("MPI_Win_get_group");
    MPI_Group g = MPI_GROUP_NULL;
    if (const int rc = MPI_Win_get_group(state.win, &g); rc != MPI_SUCCESS) [[unlikely]] {
      raise_rma(rc, state.site("MPI_Win_get_group"));
    }
    return thinmpi::group::adopt(g);
  }
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
    return {shared_state("MPI_Win_fence"), mode};
  }
  /// Locks `target` (MPI_Win_lock): a passive-target epoch accessing that rank only. The lock
  /// is exclusive unless `type` says lock_type::shared.
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
    return {shared_state("MPI_Win_start"), targets, mode};
  }
  /// start({1, 2})
  [[nodiscard]] access_epoch<T, Disp> start(std::initializer_list<int> targets,
                                            rma_mode mode = rma_mode::none) {
    return start(std::span<const int>(targets.begin(), targets.size()), mode);
  }
  /// Exposes this rank's window to the listed ranks (MPI_Win_post); they must start().
  [[nodiscard]] exposure_epoch post(std::span<const int> origins, rma_mode mode = rma_mode::none) {
    return {shared_state("MPI_Win_post"), origins, mode};
  }
  /// post({0})
  [[nodiscard]] exposure_epoch post(std::initializer_list<int> origins,
                                    rma_mode mode = rma_mode::none) {
    return post(std::span<const int>(origins.begin(), origins.size()), mode);
  }

  /// Frees the window now (MPI_Win_free, collective). An epoch still open on this rank is an
  /// error only this rank sees (MPI_ERR_RMA_SYNC): unchecked the job ends; checked, every rank
  /// throws and the window stays usable (end the epoch, then free).
  void free() {
    prepare_free();
    free_now();
  }

 protected:
  window_base() = default;
  explicit window_base(std::shared_ptr<window_state> state) noexcept : state_(std::move(state)) {}

  /// The state of a window not freed, else an mpi_error naming `operation` and why.
  [[nodiscard]] const window_state& live(const char* operation) const {
    if (is_null()) [[unlikely]] {
      raise_null(operation, false);
    }
    return *state_;
  }
  [[nodiscard]] std::shared_ptr<window_state> live_state(const char* operation) const {
    static_cast<void>(live(operation));
    return state_;
  }
  /// live_state() for a call the other ranks enter too (fence, free, post, start): a window
  /// moved from on this rank only, while the others call it on theirs, ends the job, in the
  /// checked build too (no window is left to agree on); freed or never made, no other rank
  /// waits in it (free is collective), and it is thrown.
  [[nodiscard]] std::shared_ptr<window_state> shared_state(const char* operation) const {
    if (is_null()) [[unlikely]] {
      raise_null(operation, true);
    }
    return state_;
  }
  /// free()'s checks and (checked) agreement, before the window is touched.
  const window_state& prepare_free() const {
    const window_state& state = *shared_state("MPI_Win_free");
    if (state.busy()) [[unlikely]] {
      refuse_free(state);
    }
    agree_if_checked(state.call("MPI_Win_free"));
    return state;
  }
  /// MPI_Win_free, once prepare_free() passed; MPI's failure ends the job (mpi_failed_inside).
  void free_now() {
    window_state& state = *state_;
    const int rc = MPI_Win_free(&state.win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      state.mpi_failed_inside(rc, "MPI_Win_free");
    }
    free_comm(state);
  }

  std::shared_ptr<window_state> state_;

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void raise_null(const char* operation,
                                                         bool others_wait) const {
    const char* problem = moved_from_ ? "this window was moved from; use the window it was moved to"
                          : state_ == nullptr ? "the window was never made (default-constructed)"
                                              : "the window was freed";
    const rma_site where{.operation = operation, .problem = problem};
    if (moved_from_ && others_wait) {
      end_job_with(collective_call{operation, MPI_COMM_NULL}, MPI_ERR_WIN, where,
                   "; this rank has no window left to take part or agree in, so this ends the "
                   "job in the checked build too");
    }
    raise_rma(MPI_ERR_WIN, where);
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void refuse_free(const window_state& state) {
    rma_site where = state.site("MPI_Win_free");
    where.problem = state.busy_with("free the window") + " (the window stays usable)";
    state.fail_collectively(MPI_ERR_RMA_SYNC, where);
  }
  /// Checked builds: frees the duplicate communicator of the agreements.
  static void free_comm(window_state& state) noexcept {
    if (state.comm != MPI_COMM_NULL) MPI_Comm_free(&state.comm);
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
    free_comm(state);
  }

  bool moved_from_ = false;
};

}  // namespace thinmpi::detail
