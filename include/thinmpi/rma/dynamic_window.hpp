#pragma once
/// \file
/// thinmpi::dynamic_window<T>: a window with no memory at creation (MPI_Win_create_dynamic),
/// to which each rank attaches and detaches ranges of its own at any time. attach() returns a
/// thinmpi::region naming the range as every rank can (its address, count and rank); epochs
/// of a dynamic window take region.at(index) as displacement and check the index and count
/// against that region before calling MPI. Whether the target still has the region attached
/// only the target knows: an origin cannot check that (MPI may report it, or not).
///
///     auto win = thinmpi::dynamic_window<int>::create(world);
///     std::vector<int> data(10);
///     const int value = rank;
///     thinmpi::region<int> mine = win.attach(std::span(data));
///     std::vector<thinmpi::region<int>> regions(static_cast<std::size_t>(world.size()));
///     world.allgather(mine, regions);
///     {
///       auto epoch = win.lock_all();
///       epoch.put(value, 1, regions[1].at(3));
///     }
///     win.detach(mine);

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/info.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"
#include "thinmpi/rma/detail/window_base.hpp"
#include "thinmpi/rma/detail/window_state.hpp"
#include "thinmpi/rma/region.hpp"

namespace thinmpi {

/// A window of elements of T whose memory each rank attaches and detaches (regions). Its
/// epochs take region_offset<T> displacements (region.at(i)). Move-only; freed once,
/// collectively, by free() or the destructor, which detach what is still attached first.
template <class T>
class dynamic_window : public detail::window_base<T, region_offset<T>> {
  static_assert(has_datatype<T>,
                "thinmpi: a window's elements need an MPI datatype: use an arithmetic type, an "
                "aggregate of them, or specialize thinmpi::datatype_traits");
  using base = detail::window_base<T, region_offset<T>>;

 public:
  /// No window.
  dynamic_window() = default;
  /// Takes the window and its attached regions over; the moved-from one is null.
  dynamic_window(dynamic_window&&) noexcept = default;
  /// Detaches and frees this window (collective), then takes `other` over.
  dynamic_window& operator=(dynamic_window&& other) noexcept {
    if (this != &other) {
      detach_all();
      base::operator=(std::move(other));
      attached_ = std::move(other.attached_);
    }
    return *this;
  }
  /// Detaches what is still attached, then frees the window (collective).
  ~dynamic_window() { detach_all(); }

  /// A window with no memory yet (MPI_Win_create_dynamic, collective over comm). No
  /// allgather: the regions carry their sizes.
  /// `hints` go to MPI (MPI_Win_create_dynamic's info).
  [[nodiscard]] static dynamic_window create(comm_view comm, const info& hints = {}) {
    const detail::window_request asked{
        .operation = "MPI_Win_create_dynamic", .count = 0, .most = 0, .memory_missing = false};
    return dynamic_window(detail::make_window<T>(comm.native(), asked, [&](MPI_Win* win) {
      return MPI_Win_create_dynamic(hints.native(), comm.native(), win);
    }));
  }

  /// Attaches `memory`, which must outlive the attachment (MPI_Win_attach; local, not
  /// collective), and returns the region naming it; send it to the ranks that will access it.
  [[nodiscard]] region<T> attach(std::span<T> memory) {
    const detail::window_state& state = this->live("MPI_Win_attach");
    const int rc =
        MPI_Win_attach(state.win, memory.data(), static_cast<MPI_Aint>(memory.size_bytes()));
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::rma_site where = state.site("MPI_Win_attach");
      where.count = memory.size();
      detail::raise_rma(rc, where);
    }
    MPI_Aint address = 0;
    detail::check(MPI_Get_address(memory.data(), &address), "MPI_Get_address");
    attached_.push_back(memory.data());
    return {address, memory.size(), state.rank};
  }
  /// Detaches a region this rank attached (MPI_Win_detach; local). A region this rank did not
  /// attach, or detached already, is an mpi_error (MPI_ERR_RMA_ATTACH).
  void detach(const region<T>& attached) {
    const detail::window_state& state = this->live("MPI_Win_detach");
    const auto found = std::find_if(attached_.begin(), attached_.end(), [&](T* start) {
      MPI_Aint address = 0;
      MPI_Get_address(start, &address);
      return address == attached.address;
    });
    if (found == attached_.end() || attached.rank != state.rank) [[unlikely]] {
      detail::rma_site where = state.site("MPI_Win_detach");
      where.count = attached.count;
      where.problem = "this rank has no such region attached (attached by rank " +
                      std::to_string(attached.rank) + ", or detached already)";
      detail::raise_rma(MPI_ERR_RMA_ATTACH, where);
    }
    const int rc = MPI_Win_detach(state.win, *found);
    attached_.erase(found);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_rma(rc, state.site("MPI_Win_detach"));
    }
  }
  /// Frees the window (collective), detaching what is still attached first; an epoch still
  /// open on this rank is an error only this rank sees, as for every window (window::free()).
  void free() {
    this->prepare_free();
    detach_all();
    this->free_now();
  }

 private:
  explicit dynamic_window(std::shared_ptr<detail::window_state> state) : base(std::move(state)) {}

  void detach_all() noexcept {
    if (!this->is_null() && !detail::mpi_finalized()) {
      for (T* start : attached_)
        MPI_Win_detach(this->state_->win, start);
    }
    attached_.clear();
  }

  std::vector<T*> attached_;  ///< starts of the ranges this rank attached
};

}  // namespace thinmpi
