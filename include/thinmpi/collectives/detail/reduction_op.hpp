#pragma once
/// \file
/// The MPI_Op of a reduction call: MPI's predefined operation where there is one
/// (detail/builtin_ops.hpp), else a user operation (detail/user_ops.hpp), chosen at compile
/// time; and the one-sentence diagnostics for operations that cannot reduce the elements.

#include <concepts>
#include <type_traits>

#include "thinmpi/collectives/detail/builtin_ops.hpp"
#include "thinmpi/collectives/detail/user_ops.hpp"
#include "thinmpi/core/concepts.hpp"

namespace thinmpi::detail {

/// Fails to compile, with one sentence naming the fix, unless Op can reduce elements of T.
template <class Op, class T>
consteval void require_reduction_op() {
  using F = typename unmarked<std::remove_cvref_t<Op>>::type;
  if constexpr (is_named_op<F>) {
    require_meaningful_op<F, T>();
  } else if constexpr (!std::is_invocable_v<const F&, const T&, const T&>) {
    static_assert(dependent_false<T>,
                  "thinmpi: a reduction operation must be callable as op(const T&, const T&) on "
                  "the elements T reduced (a const call operator: a mutable lambda cannot be "
                  "one)");
  } else if constexpr (!std::is_convertible_v<std::invoke_result_t<const F&, const T&, const T&>,
                                              T>) {
    static_assert(dependent_false<T>,
                  "thinmpi: a reduction operation must return the element type it reduces");
  }
}

/// The MPI_Op for reducing elements of T with op, and what it holds for the duration of the
/// call: nothing for a predefined or stateless operation (fixed_op), a slot for a stateful one
/// (op_lease, which points at op: op must outlive it).
template <class T, class Op>
[[nodiscard, gnu::always_inline]] inline auto bind_op(const Op& op) {
  using marker = unmarked<Op>;
  using F = typename marker::type;
  if constexpr (is_builtin_op<Op, T>) {
    return fixed_op{builtin_op<Op, T>()};
  } else if constexpr (is_stateless_op<F>) {
    return fixed_op{stateless_op<F, T, marker::marked_commutative>()};
  } else if constexpr (marker::marked_commutative) {
    return op_lease(op.function, std::type_identity<T>{}, true);
  } else {
    return op_lease(op, std::type_identity<T>{}, false);
  }
}

/// What bind_op<T>(Op) returns.
template <class T, class Op>
using bound_op_t = decltype(bind_op<T>(std::declval<const Op&>()));

}  // namespace thinmpi::detail
