#pragma once
/// \file
/// The State blocks of nonblocking and persistent collectives that keep one payload: either
/// borrowed from the caller (who keeps it alive) or moved in and handed back by wait().

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "thinmpi/detail/collective_call.hpp"
#include "thinmpi/detail/mpi.hpp"

namespace thinmpi::detail {

/// Whether a nonblocking collective borrows P (a named object or a view) rather than taking it.
template <class P>
inline constexpr bool borrowed_by_collective =
    std::is_lvalue_reference_v<P> || std::ranges::borrowed_range<std::remove_cvref_t<P>>;

/// What a nonblocking collective keeps of a payload: nothing when borrowed, the payload when
/// moved in (it lives in the request's heap block, so its address never changes).
template <class P>
using kept_t = std::conditional_t<borrowed_by_collective<P>, std::nullptr_t, std::remove_cvref_t<P>>;

/// What a nonblocking collective keeps of `given`, passed as P: nothing or the payload itself.
template <class P, class Given>
[[nodiscard]] kept_t<P> keep(Given& given) {
  if constexpr (borrowed_by_collective<P>) {
    return nullptr;
  } else {
    return std::move(given);
  }
}

/// The payload a collective reads or writes: the caller's when borrowed, the kept one otherwise.
template <class P, class Kept>
[[nodiscard]] decltype(auto) payload_of(P& given, Kept& kept) noexcept {
  if constexpr (std::is_null_pointer_v<Kept>) {
    return (given);
  } else {
    return (kept);
  }
}

/// The State of a collective on one payload, kept as `Kept` (std::nullptr_t when borrowed);
/// wait() hands a kept payload back and returns nothing for a borrowed one.
template <class Kept>
struct payload_state {
  collective_call call;
  std::size_t count;
  MPI_Datatype type;
  Kept payload;

  [[noreturn]] void raise(int rc) const { raise_collective(rc, call, count, type); }
  auto take() {
    if constexpr (std::is_null_pointer_v<Kept>) {
      return;
    } else {
      return std::move(payload);
    }
  }
};

}  // namespace thinmpi::detail
