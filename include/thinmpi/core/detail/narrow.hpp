#pragma once
/// \file
/// Integer conversions at the boundary between C++ sizes and MPI's int counts.

#include <climits>
#include <cstddef>

namespace thinmpi::detail {

/// The largest count a classic (int) MPI call can take.
inline constexpr std::size_t int_count_max = static_cast<std::size_t>(INT_MAX);

/// True when n fits the int count of a classic MPI call.
[[nodiscard]] constexpr bool fits_int(std::size_t n) noexcept {
  return n <= int_count_max;
}

/// n as an int; only called where fits_int(n) was checked.
[[nodiscard]] constexpr int to_int(std::size_t n) noexcept {
  return static_cast<int>(n);
}

}  // namespace thinmpi::detail
