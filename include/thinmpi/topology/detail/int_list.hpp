#pragma once
/// \file
/// detail::int_list<T>, the list arguments of the topology calls (dims, periods, coordinates,
/// neighbor ranks, weights): a braced list or any sized range of T (std::vector, std::array,
/// std::span, std::vector<bool> for flags), copied once as the ints MPI takes, into the
/// object itself when short (no allocation).
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

/// A list of T (int, or bool for flags) as the ints MPI reads. Up to inline_capacity entries
/// (a grid's dims and periods, a few neighbors) are held in the object itself: making a
/// topology allocates nothing for its arguments, as C's arrays on the stack. Longer lists
/// take one allocation. An argument adapter: not copied, not moved.
template <class T>
class int_list {
 public:
  /// The entries held without allocating.
  static constexpr std::size_t inline_capacity = 8;

  /// {1, 2}, {true, false}
  int_list(std::initializer_list<T> values) { assign(values); }
  /// Any sized range whose elements convert to T.
  template <std::ranges::sized_range R>
  requires(!std::same_as<std::remove_cvref_t<R>, int_list> &&
           std::convertible_to<std::ranges::range_reference_t<const R&>, T>)
      int_list(const R& values) {  // NOLINT(google-explicit-constructor): an argument adapter
    assign(values);
  }
  int_list(const int_list&) = delete;
  int_list& operator=(const int_list&) = delete;
  ~int_list() = default;

  [[nodiscard]] const int* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] int size_int() const noexcept { return static_cast<int>(size_); }
  [[nodiscard]] std::span<const int> span() const noexcept { return {data_, size_}; }
  [[nodiscard]] int operator[](std::size_t i) const noexcept { return data_[i]; }

 private:
  template <class R>
  void assign(const R& values) {
    size_ = std::ranges::size(values);
    if (size_ > inline_capacity) {
      heap_.resize(size_);
      data_ = heap_.data();
    }
    std::size_t i = 0;
    for (auto&& value : values)
      data_[i++] = static_cast<int>(static_cast<T>(value));
  }

  std::size_t size_ = 0;
  int inline_[inline_capacity];
  int* data_ = inline_;
  std::vector<int> heap_;  ///< the entries past inline_capacity
};

}  // namespace thinmpi::detail
