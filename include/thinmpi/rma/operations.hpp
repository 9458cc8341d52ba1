#pragma once
/// \file
/// The one-sided operations, members of the access epochs only (rma_operations is their base):
/// put, get, accumulate, get_accumulate, fetch_and_op, compare_and_swap. A window has none of
/// them, so an access outside an epoch does not compile. Each call is one MPI call after the
/// epoch's checks: the target may be accessed in this epoch (its rank is locked, it is in the
/// start group, ...) and the elements lie inside its window. The operations complete when the
/// epoch ends or a flush completes them; until then MPI reads the origin buffer and writes the
/// result buffer, which is why both must be named objects or views of them.
///
///     auto win = thinmpi::window<int>::allocate(world, 16);
///     const std::vector<int> values{1, 2, 3, 4}, ones(4, 1);
///     auto epoch = win.lock(1, thinmpi::lock_type::exclusive);
///     epoch.put(values, 1, 0);                      // into elements 0..3 of rank 1
///     epoch.accumulate(ones, 1, 8, std::plus<>{});  // element-wise MPI_SUM at element 8
///     epoch.unlock();                               // both are complete at rank 1

#include <cstddef>
#include <type_traits>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/rma/accumulate_ops.hpp"
#include "thinmpi/rma/detail/calls.hpp"
#include "thinmpi/rma/detail/payloads.hpp"
#include "thinmpi/rma/detail/raise_rma.hpp"
#include "thinmpi/rma/detail/target.hpp"
#include "thinmpi/rma/detail/window_state.hpp"
#include "thinmpi/rma/region.hpp"

namespace thinmpi {

/// The operations of an access epoch (the base of fence_epoch, lock_epoch, lock_all_epoch and
/// access_epoch), on a window of T whose displacements are Disp: an element index
/// (std::size_t) or, for a dynamic window, region.at(index). Epoch gives
/// `const detail::window_state& permit(const char* operation, int target) const`, which throws
/// unless the epoch is open and may access target.
template <class Epoch, class T, class Disp>
class rma_operations {
 public:
  /// Writes `origin` (a scalar, range or view of T) into target's window from element `disp`
  /// (MPI_Put). `origin` must stay unchanged until the epoch ends or a flush completes it.
  template <class P>
  void put(P&& origin, int target, const Disp& disp) const {
    detail::require_rma_origin<P, T>();
    const detail::const_buffer buffer = detail::send_buffer(origin);
    const std::size_t n = detail::elements_of(origin);
    const detail::window_state& state = epoch().permit("MPI_Put", target);
    const MPI_Aint where = detail::target_disp(state, "MPI_Put", target, disp, n);
    const int rc = detail::rma_put(buffer.data, buffer.count, buffer.type, target, where, n,
                                   datatype_of<T>(), state.win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_rma_call(rc, state, "MPI_Put", target, disp, n);
    }
  }

  /// Reads as many elements as `into` holds from target's window at `disp` (MPI_Get). `into`
  /// holds them once the epoch ends or a flush completes the get.
  template <class Into>
  void get(Into&& into, int target, const Disp& disp) const {
    detail::require_rma_result<Into, T>();
    const detail::mutable_buffer buffer = detail::recv_buffer(into);
    const std::size_t n = detail::elements_of(into);
    const detail::window_state& state = epoch().permit("MPI_Get", target);
    const MPI_Aint where = detail::target_disp(state, "MPI_Get", target, disp, n);
    const int rc = detail::rma_get(buffer.data, buffer.count, buffer.type, target, where, n,
                                   datatype_of<T>(), state.win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_rma_call(rc, state, "MPI_Get", target, disp, n);
    }
  }

  /// Combines `origin` element-wise into target's window at `disp` with `op` (MPI_Accumulate),
  /// atomically per element: std::plus<>{}, thinmpi::max, thinmpi::replace, ...
  template <class P, class Op>
  void accumulate(P&& origin, int target, const Disp& disp, Op) const {
    detail::require_rma_origin<P, T>();
    const MPI_Op mpi_op = detail::accumulate_op<Op, T, detail::accumulate_use::write>();
    const detail::const_buffer buffer = detail::send_buffer(origin);
    const std::size_t n = detail::elements_of(origin);
    const detail::window_state& state = epoch().permit("MPI_Accumulate", target);
    const MPI_Aint where = detail::target_disp(state, "MPI_Accumulate", target, disp, n);
    const int rc = detail::rma_accumulate(buffer.data, buffer.count, buffer.type, target, where, n,
                                          datatype_of<T>(), mpi_op, state.win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_rma_call(rc, state, "MPI_Accumulate", target, disp, n);
    }
  }

  /// Reads target's elements at `disp` into `result`, then combines `origin` into them with
  /// `op`, atomically per element (MPI_Get_accumulate); `origin` and `result` hold the same
  /// number of elements. With thinmpi::no_op it is an atomic read (origin is not read).
  template <class P, class Into, class Op>
  void get_accumulate(P&& origin, Into&& result, int target, const Disp& disp, Op) const {
    detail::require_rma_origin<P, T>();
    detail::require_rma_result<Into, T>();
    const MPI_Op mpi_op = detail::accumulate_op<Op, T, detail::accumulate_use::read_write>();
    const detail::const_buffer buffer = detail::send_buffer(origin);
    const detail::mutable_buffer into = detail::recv_buffer(result);
    const std::size_t n = detail::elements_of(result);
    const detail::window_state& state = epoch().permit("MPI_Get_accumulate", target);
    if (detail::elements_of(origin) != n) [[unlikely]] {
      detail::raise_mismatch(state, "MPI_Get_accumulate", target, detail::elements_of(origin), n);
    }
    const MPI_Aint where = detail::target_disp(state, "MPI_Get_accumulate", target, disp, n);
    const int rc = detail::rma_get_accumulate(buffer.data, buffer.count, buffer.type, into.data,
                                              into.count, into.type, target, where, n,
                                              datatype_of<T>(), mpi_op, state.win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_rma_call(rc, state, "MPI_Get_accumulate", target, disp, n);
    }
  }

  /// get_accumulate of one element (MPI_Fetch_and_op): `result` gets target's element at
  /// `disp`, which becomes op(element, operand). The element type must be predefined.
  ///
  ///     auto counter = thinmpi::window<long>::allocate(world, 1);
  ///     const long one = 1;
  ///     long ticket = 0;
  ///     auto epoch = counter.lock(0, thinmpi::lock_type::shared);
  ///     epoch.fetch_and_op(one, ticket, 0, 0, std::plus<>{});
  ///     epoch.flush();  // ticket holds the counter before the increment
  template <class V, class R, class Op>
  void fetch_and_op(V&& operand, R&& result, int target, const Disp& disp, Op) const {
    detail::require_atomic_element<T, false>();
    require_single<V, R>();
    const MPI_Op mpi_op = detail::accumulate_op<Op, T, detail::accumulate_use::read_write>();
    const detail::window_state& state = epoch().permit("MPI_Fetch_and_op", target);
    const MPI_Aint where = detail::target_disp(state, "MPI_Fetch_and_op", target, disp, 1);
    const int rc =
        MPI_Fetch_and_op(&operand, &result, datatype_of<T>(), target, where, mpi_op, state.win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_rma_call(rc, state, "MPI_Fetch_and_op", target, disp, 1);
    }
  }

  /// Atomically: `result` gets target's element at `disp`, which becomes `value` if it equalled
  /// `compare` (MPI_Compare_and_swap). Integers, bool and std::byte only.
  ///
  ///     auto owner = thinmpi::window<int>::allocate(world, 1);
  ///     const int expected = -1, mine = rank;
  ///     int seen = 0;
  ///     auto epoch = owner.lock(0, thinmpi::lock_type::shared);
  ///     epoch.compare_and_swap(expected, mine, seen, 0, 0);
  ///     epoch.flush();  // seen == -1: this rank won
  template <class C, class V, class R>
  void compare_and_swap(C&& compare, V&& value, R&& result, int target, const Disp& disp) const {
    detail::require_atomic_element<T, true>();
    require_single<C, R>();
    require_single<V, R>();
    const detail::window_state& state = epoch().permit("MPI_Compare_and_swap", target);
    const MPI_Aint where = detail::target_disp(state, "MPI_Compare_and_swap", target, disp, 1);
    const int rc =
        MPI_Compare_and_swap(&value, &compare, &result, datatype_of<T>(), target, where, state.win);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_rma_call(rc, state, "MPI_Compare_and_swap", target, disp, 1);
    }
  }

 private:
  [[nodiscard]] const Epoch& epoch() const noexcept { return static_cast<const Epoch&>(*this); }

  /// The one-element operations take one T each: an origin that outlives the call, a result.
  template <class Origin, class Result>
  static consteval void require_single() {
    static_assert(std::is_same_v<std::remove_cvref_t<Origin>, T> &&
                      std::is_same_v<std::remove_cvref_t<Result>, T>,
                  "thinmpi: fetch_and_op and compare_and_swap take single elements of the "
                  "window's element type T");
    detail::require_rma_origin<Origin, T>();
    detail::require_rma_result<Result, T>();
  }
};

}  // namespace thinmpi
