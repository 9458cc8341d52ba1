#pragma once
/// \file
/// The iterator of the strided and sub-array views (core/views.hpp): a copy of the view and an
/// index, so that an iterator outlives the view object it came from (the views are borrowed
/// ranges, as std::span is). Random access; each step asks the view where element i lies.

#include <compare>
#include <cstddef>
#include <iterator>
#include <type_traits>

namespace thinmpi::detail {

/// Iterates over view[0], view[1], ... view[size() - 1]; View gives `T& operator[](size_t)`.
template <class View>
class view_iterator {
 public:
  using iterator_concept = std::random_access_iterator_tag;
  using iterator_category = std::random_access_iterator_tag;
  using value_type = typename View::thinmpi_view_element;
  using difference_type = std::ptrdiff_t;
  using reference = decltype(std::declval<const View&>()[std::size_t{0}]);

  view_iterator() = default;
  view_iterator(const View& view, std::size_t index) noexcept : view_(view), index_(index) {}

  reference operator*() const noexcept { return view_[index_]; }
  reference operator[](difference_type n) const noexcept { return view_[at(n)]; }

  view_iterator& operator++() noexcept {
    ++index_;
    return *this;
  }
  view_iterator operator++(int) noexcept {
    view_iterator before = *this;
    ++index_;
    return before;
  }
  view_iterator& operator--() noexcept {
    --index_;
    return *this;
  }
  view_iterator operator--(int) noexcept {
    view_iterator before = *this;
    --index_;
    return before;
  }
  view_iterator& operator+=(difference_type n) noexcept {
    index_ = at(n);
    return *this;
  }
  view_iterator& operator-=(difference_type n) noexcept { return *this += -n; }

  friend view_iterator operator+(view_iterator it, difference_type n) noexcept { return it += n; }
  friend view_iterator operator+(difference_type n, view_iterator it) noexcept { return it += n; }
  friend view_iterator operator-(view_iterator it, difference_type n) noexcept { return it -= n; }
  friend difference_type operator-(const view_iterator& a, const view_iterator& b) noexcept {
    return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
  }
  // Iterators of one view compare by position; comparing those of different views is
  // meaningless, as for any range.
  friend bool operator==(const view_iterator& a, const view_iterator& b) noexcept {
    return a.index_ == b.index_;
  }
  friend std::strong_ordering operator<=>(const view_iterator& a, const view_iterator& b) noexcept {
    return a.index_ <=> b.index_;
  }

 private:
  [[nodiscard]] std::size_t at(difference_type n) const noexcept {
    return static_cast<std::size_t>(static_cast<difference_type>(index_) + n);
  }

  View view_{};
  std::size_t index_ = 0;
};

}  // namespace thinmpi::detail
