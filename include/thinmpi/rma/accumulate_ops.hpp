#pragma once
/// \file
/// The operations of accumulate, get_accumulate and fetch_and_op. MPI allows only its
/// predefined operations here (MPI-4.0 section 12.3.4), so these are the reductions' named
/// operations (std::plus<>, thinmpi::min, std::bit_xor<>, ..., mapped to MPI_SUM, MPI_MIN,
/// MPI_BXOR as collectives/detail/builtin_ops.hpp maps them) plus two of RMA's own:
/// thinmpi::replace (MPI_REPLACE, an atomic put) and thinmpi::no_op (MPI_NO_OP, an atomic read
/// through get_accumulate or fetch_and_op). A lambda fails to compile with one sentence.

#include <type_traits>

#include "thinmpi/collectives/detail/builtin_ops.hpp"
#include "thinmpi/collectives/ops.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi {

/// The target element becomes the origin's (MPI_REPLACE): an element-wise atomic put.
///
///     auto win = thinmpi::window<int>::allocate(world, 1);
///     const int value = 7;
///     auto epoch = win.lock(right);
///     epoch.accumulate(value, right, 0, thinmpi::replace);
struct replace_op {};
/// See replace_op.
inline constexpr replace_op replace{};

/// The target element stays as it is (MPI_NO_OP): with get_accumulate or fetch_and_op, an
/// element-wise atomic read.
///
///     auto win = thinmpi::window<int>::allocate(world, 1);
///     const int unused = 0;
///     int current = 0;
///     auto epoch = win.lock(right, thinmpi::lock_type::shared);
///     epoch.fetch_and_op(unused, current, right, 0, thinmpi::no_op);
struct no_op_op {};
/// See no_op_op.
inline constexpr no_op_op no_op{};

namespace detail {

/// Whether an accumulate may use Op (MPI_NO_OP only reads: get_accumulate and fetch_and_op).
enum class accumulate_use { write, read_write };

/// MPI's predefined operation for Op on elements of T in a one-sided accumulate; anything else
/// fails to compile with one sentence naming the fix.
template <class Op, class T, accumulate_use Use>
[[nodiscard, gnu::always_inline]] inline MPI_Op accumulate_op() noexcept {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<Op, replace_op>) {
    return MPI_REPLACE;
  } else if constexpr (std::is_same_v<Op, no_op_op>) {
    static_assert(Use == accumulate_use::read_write,
                  "thinmpi: thinmpi::no_op leaves the target as it is, so an accumulate with it "
                  "does nothing; read atomically with get_accumulate or fetch_and_op instead");
    return MPI_NO_OP;
  } else if constexpr (!is_named_op<Op>) {
    static_assert(dependent_false<Op>,
                  "thinmpi: one-sided accumulate takes only MPI's predefined operations (MPI "
                  "forbids user-defined ones there, so a lambda cannot be one): use std::plus<>, "
                  "std::multiplies<>, thinmpi::min, thinmpi::max, std::logical_and<>, "
                  "std::logical_or<>, std::bit_and<>, std::bit_or<>, std::bit_xor<>, "
                  "thinmpi::replace or thinmpi::no_op, or combine under an exclusive lock with "
                  "get and put");
    return MPI_OP_NULL;
  } else if constexpr (!is_builtin_op<Op, U>) {
    static_assert(dependent_false<Op>,
                  "thinmpi: MPI does not define this operation on the window's element type "
                  "(MPI_SUM and MPI_PROD: integers, floating point, complex; MPI_MIN and MPI_MAX: "
                  "integers and floating point; the bitwise operations: integers and std::byte; "
                  "the logical ones: integers and bool); use thinmpi::replace, or get, combine "
                  "and put under an exclusive lock");
    return MPI_OP_NULL;
  } else {
    return builtin_op<Op, U>();
  }
}

}  // namespace detail
}  // namespace thinmpi
