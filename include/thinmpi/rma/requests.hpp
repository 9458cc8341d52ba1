#pragma once
/// \file
/// The request-based one-sided operations (rput, rget, raccumulate, rget_accumulate), members
/// of the passive-target epochs only (lock_epoch, lock_all_epoch), as MPI allows them only
/// there. Each returns a thinmpi::rma_request on the one request face
/// (requests/request_face.hpp): wait(), test(), active(), move, and a destructor that waits.
/// A named buffer (or a view) is borrowed and must outlive the request; a buffer moved in is
/// owned and handed back by wait(). A request completes locally (the origin buffer may be
/// reused, a get's data has arrived); that a put or accumulate is complete at the target is
/// what a flush or the end of the epoch says.
///
///     auto win = thinmpi::window<int>::allocate(world, 4);
///     auto epoch = win.lock_all();
///     auto got = epoch.rget(std::vector<int>(4), 1, 0);  // owned: wait() hands it back
///     std::vector<int> values = got.wait();

#include <cstddef>
#include <type_traits>
#include <utility>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/requests/request_face.hpp"
#include "thinmpi/rma/accumulate_ops.hpp"
#include "thinmpi/rma/detail/calls.hpp"
#include "thinmpi/rma/detail/payloads.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"
#include "thinmpi/rma/detail/target.hpp"
#include "thinmpi/rma/detail/window_state.hpp"

namespace thinmpi {
namespace detail {

/// Nothing kept: the second buffer of a request that has one.
struct nothing_kept {};

/// The kind of rma_request<Give, Keep>: one posted operation, the buffer it hands back (Give,
/// if owned) and one it only keeps alive until complete (Keep: rget_accumulate's origin).
template <class Give, class Keep>
struct rma_transfer {
  MPI_Request handle_ = MPI_REQUEST_NULL;
  rma_site site_{};  ///< the call, for an error at completion (no allocation: problem is empty)
  held<Give, holder_site::moving> give_;
  held<Keep, holder_site::moving> keep_;

  MPI_Request& posted_handle() noexcept { return handle_; }
  void complete_stage(int rc, const MPI_Status&) {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_rma(rc, site_);
    }
  }
  auto result() { return give_.take(); }
};

}  // namespace detail

/// A request-based one-sided operation (rput, rget, raccumulate, rget_accumulate): wait()
/// returns the buffer given to it if it was moved in (nothing if it was borrowed); test()
/// returns it once complete (a bool where there is nothing to return). Move-only; one destroyed
/// while active waits first.
template <class Give, class Keep = detail::nothing_kept>
class [[nodiscard]] rma_request : public detail::request_face<detail::rma_transfer<Give, Keep>> {
  using face = detail::request_face<detail::rma_transfer<Give, Keep>>;

 public:
  /// An inactive request.
  rma_request() = default;
  /// Takes what an operation was posted on.
  rma_request(MPI_Request handle, const detail::rma_site& site,
              detail::held<Give, detail::holder_site::moving>&& give,
              detail::held<Keep, detail::holder_site::moving>&& keep)
      : face(std::in_place, handle, site, std::move(give), std::move(keep)) {}

  /// The MPI handle (MPI_REQUEST_NULL once complete).
  [[nodiscard]] MPI_Request native() const noexcept { return this->kind().handle_; }
};

/// The request-based operations of a passive-target epoch (the base of lock_epoch and
/// lock_all_epoch), with the checks of rma_operations.
template <class Epoch, class T, class Disp>
class rma_request_operations {
 public:
  /// put() as a request (MPI_Rput); an `origin` moved in is owned and handed back by wait().
  template <class P>
  [[nodiscard]] rma_request<P> rput(P&& origin, int target, const Disp& disp) const {
    detail::require_sendable<P>();
    detail::require_window_elements<P, T>();
    detail::held<P, detail::holder_site::moving> kept(std::forward<P>(origin));
    const detail::const_buffer buffer = detail::send_buffer(kept.get());
    const std::size_t n = detail::elements_of(kept.get());
    const auto [state, where, site] = prepare("MPI_Rput", target, disp, n);
    MPI_Request handle = MPI_REQUEST_NULL;
    check(detail::rma_rput(buffer.data, buffer.count, buffer.type, target, where, n,
                           datatype_of<T>(), state->win, &handle),
          *state, site, disp);
    return {handle, site, std::move(kept), {}};
  }

  /// get() as a request (MPI_Rget) into a named buffer or view (borrowed) or one moved in
  /// (owned: wait() hands it back filled).
  template <class Into>
  [[nodiscard]] rma_request<Into> rget(Into&& into, int target, const Disp& disp) const {
    detail::require_writable<Into>();
    detail::require_window_elements<Into, T>();
    detail::held<Into, detail::holder_site::moving> kept(std::forward<Into>(into));
    const detail::mutable_buffer buffer = detail::recv_buffer(kept.get());
    const std::size_t n = detail::elements_of(kept.get());
    const auto [state, where, site] = prepare("MPI_Rget", target, disp, n);
    MPI_Request handle = MPI_REQUEST_NULL;
    check(detail::rma_rget(buffer.data, buffer.count, buffer.type, target, where, n,
                           datatype_of<T>(), state->win, &handle),
          *state, site, disp);
    return {handle, site, std::move(kept), {}};
  }

  /// accumulate() as a request (MPI_Raccumulate).
  template <class P, class Op>
  [[nodiscard]] rma_request<P> raccumulate(P&& origin, int target, const Disp& disp, Op) const {
    detail::require_sendable<P>();
    detail::require_window_elements<P, T>();
    const MPI_Op mpi_op = detail::accumulate_op<Op, T, detail::accumulate_use::write>();
    detail::held<P, detail::holder_site::moving> kept(std::forward<P>(origin));
    const detail::const_buffer buffer = detail::send_buffer(kept.get());
    const std::size_t n = detail::elements_of(kept.get());
    const auto [state, where, site] = prepare("MPI_Raccumulate", target, disp, n);
    MPI_Request handle = MPI_REQUEST_NULL;
    check(detail::rma_raccumulate(buffer.data, buffer.count, buffer.type, target, where, n,
                                  datatype_of<T>(), mpi_op, state->win, &handle),
          *state, site, disp);
    return {handle, site, std::move(kept), {}};
  }

  /// get_accumulate() as a request (MPI_Rget_accumulate): wait() hands back `result` if it
  /// was moved in; an `origin` moved in is kept until complete.
  template <class P, class Into, class Op>
  [[nodiscard]] rma_request<Into, P> rget_accumulate(P&& origin, Into&& result, int target,
                                                     const Disp& disp, Op) const {
    detail::require_sendable<P>();
    detail::require_window_elements<P, T>();
    detail::require_writable<Into>();
    detail::require_window_elements<Into, T>();
    const MPI_Op mpi_op = detail::accumulate_op<Op, T, detail::accumulate_use::read_write>();
    detail::held<P, detail::holder_site::moving> kept(std::forward<P>(origin));
    detail::held<Into, detail::holder_site::moving> given(std::forward<Into>(result));
    const detail::const_buffer buffer = detail::send_buffer(kept.get());
    const detail::mutable_buffer into = detail::recv_buffer(given.get());
    const std::size_t n = detail::elements_of(given.get());
    const auto [state, where, site] = prepare("MPI_Rget_accumulate", target, disp, n);
    if (detail::elements_of(kept.get()) != n) [[unlikely]] {
      detail::raise_mismatch(*state, "MPI_Rget_accumulate", target, detail::elements_of(kept.get()),
                             n);
    }
    MPI_Request handle = MPI_REQUEST_NULL;
    check(detail::rma_rget_accumulate(buffer.data, buffer.count, buffer.type, into.data, into.count,
                                      into.type, target, where, n, datatype_of<T>(), mpi_op,
                                      state->win, &handle),
          *state, site, disp);
    return {handle, site, std::move(given), std::move(kept)};
  }

 private:
  struct prepared {
    const detail::window_state* state;
    MPI_Aint where;
    detail::rma_site site;
  };
  /// The epoch's checks; the site a failure at completion reports.
  prepared prepare(const char* operation, int target, const Disp& disp, std::size_t n) const {
    const detail::window_state& state = static_cast<const Epoch&>(*this).permit(operation, target);
    const MPI_Aint where = detail::target_disp(state, operation, target, disp, n);
    detail::rma_site site = state.site(operation);
    site.target = target;
    site.count = n;
    detail::locate(site, state, target, disp);
    return {&state, where, site};
  }
  static void check(int rc, const detail::window_state& state, const detail::rma_site& site,
                    const Disp& disp) {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_rma_call(rc, state, site.operation, *site.target, disp, *site.count);
    }
  }
};

}  // namespace thinmpi
