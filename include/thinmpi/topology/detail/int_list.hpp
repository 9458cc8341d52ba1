#pragma once
/// \file
/// detail::int_list<T>, the list arguments of the topology calls (dims, periods, coordinates,
/// neighbor ranks, weights): a braced list or any sized range of T (std::vector, std::array,
/// std::span, std::vector<bool> for flags), copied once as the ints MPI takes. These calls
/// set a topology up or query it, so one small copy costs nothing next to them.
///
///     grid.rank_of({1, 2});   thinmpi::cartesian_communicator grid(world, dims, {true, false});

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <ranges>
#include <span>
#include <type_traits>
#include <vector>

namespace thinmpi::detail {

/// A list of T (int, or bool for flags) as the ints MPI reads.
template <class T>
class int_list {
 public:
  /// {1, 2}, {true, false}
  int_list(std::initializer_list<T> values) : values_(values.begin(), values.end()) {}
  /// Any sized range whose elements convert to T.
  template <std::ranges::sized_range R>
  requires(!std::same_as<std::remove_cvref_t<R>, int_list> &&
           std::convertible_to<std::ranges::range_reference_t<const R&>, T>)
      int_list(const R& values) {  // NOLINT(google-explicit-constructor): an argument adapter
    values_.reserve(std::ranges::size(values));
    for (auto&& value : values)
      values_.push_back(static_cast<int>(static_cast<T>(value)));
  }

  [[nodiscard]] const int* data() const noexcept { return values_.data(); }
  [[nodiscard]] std::size_t size() const noexcept { return values_.size(); }
  [[nodiscard]] int size_int() const noexcept { return static_cast<int>(values_.size()); }
  [[nodiscard]] std::span<const int> span() const noexcept { return values_; }
  [[nodiscard]] int operator[](std::size_t i) const noexcept { return values_[i]; }

 private:
  std::vector<int> values_;
};

}  // namespace thinmpi::detail
