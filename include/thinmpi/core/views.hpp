#pragma once
/// \file
/// Strided and sub-array views of a contiguous array: the border column of a row-major grid, a
/// block of a 3-D field. Each is sent and received as one element of a derived datatype
/// (MPI_Type_vector, MPI_Type_create_subarray of the element's datatype) from the array's own
/// memory: no hand-built datatype, no packing copy. The datatype is built and committed once per
/// shape and element type (thread-safe), found again for every later view of that shape, and
/// freed at MPI_Finalize; making a view therefore needs MPI initialized.
///
///     std::vector<double> grid(rows * cols);                        // row-major
///     world.send(thinmpi::strided(grid, rows, cols), left, 0);      // column 0: one MPI_Send
///     world.recv(thinmpi::subarray(grid, {rows, cols}, {rows, 1}, {0, cols - 1}), right, 0);
///
/// A view reaching outside its array is an mpi_error (MPI_ERR_ARG) naming the sizes, thrown
/// when the view is made. Views are borrowed ranges, as std::span is: they refer to the
/// caller's array, which must outlive every use (a nonblocking request borrows it), and they
/// can be iterated (`for (double& x : view)`), in row-major order of the elements they select.
/// Any family gets a view's MPI form from view.address() and view.datatype() (count 1), as
/// detail::send_buffer / recv_buffer do.

#include <array>
#include <concepts>
#include <cstddef>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/view_iterator.hpp"
#include "thinmpi/core/detail/view_types.hpp"

namespace thinmpi {

namespace detail {

/// An extent or start given to thinmpi::subarray as any integer (`{rows, cols}` with int rows
/// works); a negative one is an error when the view is made.
struct extent_arg {
  template <std::integral I>
  constexpr extent_arg(I given) noexcept  // NOLINT: implicit, so that braced lists convert
      : value(std::cmp_less(given, 0) ? 0 : static_cast<std::size_t>(given)),
        negative(std::cmp_less(given, 0)) {}
  std::size_t value;
  bool negative;
};

[[noreturn, gnu::cold, gnu::noinline]] inline void raise_bad_view(const char* operation,
                                                                  std::string problem) {
  raise(MPI_ERR_ARG, error_site{.operation = operation, .problem = std::move(problem)});
}

/// Throws unless `value` (named `what`) fits the int an MPI datatype constructor takes.
inline void check_view_int(const char* operation, const std::string& what, std::size_t value) {
  if (!fits_int(value)) [[unlikely]] {
    raise_bad_view(operation, what + " is " + std::to_string(value) +
                                  ", past INT_MAX, which MPI's datatype constructors take");
  }
}

/// The checks of strided(): int extents, blocks that do not overlap, the last element inside
/// the span.
inline void check_strided(std::size_t span_size, std::size_t count, std::size_t stride,
                          std::size_t block) {
  constexpr const char* operation = "thinmpi::strided";
  check_view_int(operation, "the count", count);
  check_view_int(operation, "the stride", stride);
  check_view_int(operation, "the block", block);
  if (count > 1 && block > stride) [[unlikely]] {
    raise_bad_view(operation, "blocks of " + std::to_string(block) + " elements every " +
                                  std::to_string(stride) + " overlap");
  }
  const std::size_t reach = count == 0 || block == 0 ? 0 : (count - 1) * stride + block;
  if (reach > span_size) [[unlikely]] {
    raise_bad_view(operation, std::to_string(count) + " blocks of " + std::to_string(block) +
                                  " every " + std::to_string(stride) + " elements reach " +
                                  std::to_string(reach) + " elements, past the " +
                                  std::to_string(span_size) + " of the array");
  }
}

/// The checks of subarray(): no negative extent, int extents, each block inside its dimension,
/// the whole array inside the span; returns the extents as std::size_t.
template <std::size_t N>
std::array<std::size_t, N> checked_extents(const extent_arg (&given)[N], const char* name) {
  std::array<std::size_t, N> extents{};
  for (std::size_t d = 0; d < N; ++d) {
    const std::string what = std::string(name) + "[" + std::to_string(d) + "]";
    if (given[d].negative) [[unlikely]] {
      raise_bad_view("thinmpi::subarray", what + " is negative");
    }
    check_view_int("thinmpi::subarray", what, given[d].value);
    extents[d] = given[d].value;
  }
  return extents;
}

template <std::size_t N>
void check_subarray(std::size_t span_size, const std::array<std::size_t, N>& sizes,
                    const std::array<std::size_t, N>& subsizes,
                    const std::array<std::size_t, N>& starts) {
  constexpr const char* operation = "thinmpi::subarray";
  std::size_t elements = 1;
  for (std::size_t d = 0; d < N; ++d) {
    check_view_int(operation, "sizes[" + std::to_string(d) + "]", sizes[d]);
    check_view_int(operation, "subsizes[" + std::to_string(d) + "]", subsizes[d]);
    check_view_int(operation, "starts[" + std::to_string(d) + "]", starts[d]);
    if (starts[d] + subsizes[d] > sizes[d]) [[unlikely]] {
      raise_bad_view(operation, "in dimension " + std::to_string(d) + ", start " +
                                    std::to_string(starts[d]) + " + subsize " +
                                    std::to_string(subsizes[d]) + " is past the size " +
                                    std::to_string(sizes[d]));
    }
    elements *= sizes[d];
  }
  if (elements > span_size) [[unlikely]] {
    raise_bad_view(operation, "an array of " + joined(sizes, "x") + " = " +
                                  std::to_string(elements) + " elements is larger than the " +
                                  std::to_string(span_size) + " of the span");
  }
}

/// The span a view factory is given: a named contiguous container or a std::span.
template <class R>
auto span_of(R&& data) {
  using element = std::remove_reference_t<std::ranges::range_reference_t<R>>;
  static_assert(std::ranges::borrowed_range<R>,
                "thinmpi: a view refers to the caller's array: pass a named container or a "
                "std::span, not a temporary");
  static_assert(has_datatype<std::remove_cv_t<element>>,
                "thinmpi: a view's elements need an MPI datatype (see thinmpi::datatype_traits)");
  return std::span<element>(std::ranges::data(data), std::ranges::size(data));
}

}  // namespace detail

/// `count` blocks of `block` consecutive elements, the starts of consecutive blocks `stride`
/// elements apart, from the first element of a span: one MPI_Type_vector element on the wire.
/// Make one with thinmpi::strided().
template <class T>
class strided_view {
 public:
  /// The element type (the hook by which payload concepts recognise a view).
  using thinmpi_view_element = std::remove_cv_t<T>;

  /// An empty view of nothing.
  strided_view() = default;
  /// The view of data; throws thinmpi::mpi_error (MPI_ERR_ARG) if it would reach past data's
  /// end or its blocks overlap.
  strided_view(std::span<T> data, std::size_t count, std::size_t stride, std::size_t block = 1)
      : data_(data.data()), count_(count), block_(block), stride_(stride) {
    detail::check_strided(data.size(), count, stride, block);
    using cache = detail::view_type_cache<thinmpi_view_element, detail::view_kind::strided,
                                          std::array<std::size_t, 3>>;
    type_ = cache::get({count, block, stride}, [&] {
      return detail::build_strided_type<thinmpi_view_element>(count, block, stride);
    });
  }

  /// Where MPI starts reading or writing: the first element.
  [[nodiscard]] T* address() const noexcept { return data_; }
  /// The committed MPI datatype of the whole view (send count 1 of it).
  [[nodiscard]] MPI_Datatype datatype() const noexcept { return type_; }
  /// The number of elements selected: count() x block().
  [[nodiscard]] std::size_t size() const noexcept { return count_ * block_; }
  /// Whether the view selects no element (an empty message).
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  /// The number of blocks.
  [[nodiscard]] std::size_t count() const noexcept { return count_; }
  /// The elements in each block.
  [[nodiscard]] std::size_t block() const noexcept { return block_; }
  /// The elements from one block's start to the next one's.
  [[nodiscard]] std::size_t stride() const noexcept { return stride_; }

  /// Selected element i, in order (no bounds check).
  [[nodiscard]] T& operator[](std::size_t i) const noexcept {
    return data_[(i / block_) * stride_ + i % block_];
  }
  /// The first selected element: a view is a random-access range of what it selects.
  [[nodiscard]] detail::view_iterator<strided_view> begin() const noexcept { return {*this, 0}; }
  /// Past the last selected element.
  [[nodiscard]] detail::view_iterator<strided_view> end() const noexcept { return {*this, size()}; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
  std::size_t block_ = 1;
  std::size_t stride_ = 1;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// The block of `subsizes` elements starting at `starts` in an N-dimensional row-major array of
/// `sizes` elements: one MPI_Type_create_subarray element on the wire, addressed from the
/// array's first element. Make one with thinmpi::subarray().
template <class T, std::size_t N>
class subarray_view {
  static_assert(N >= 1, "thinmpi::subarray needs at least one dimension");

 public:
  /// The element type (the hook by which payload concepts recognise a view).
  using thinmpi_view_element = std::remove_cv_t<T>;
  /// One extent or start per dimension, slowest-varying first.
  using extents = std::array<std::size_t, N>;

  /// An empty view of nothing.
  subarray_view() = default;
  /// The view of data; throws thinmpi::mpi_error (MPI_ERR_ARG) if the array of `sizes` is
  /// larger than data or the block does not lie inside it.
  subarray_view(std::span<T> data, const extents& sizes, const extents& subsizes,
                const extents& starts)
      : data_(data.data()), sizes_(sizes), subsizes_(subsizes), starts_(starts) {
    detail::check_subarray(data.size(), sizes, subsizes, starts);
    using cache = detail::view_type_cache<thinmpi_view_element, detail::view_kind::subarray,
                                          std::array<extents, 3>>;
    type_ = cache::get({sizes, subsizes, starts}, [&] {
      return detail::build_subarray_type<thinmpi_view_element>(sizes, subsizes, starts);
    });
    size_ = 1;
    for (const std::size_t n : subsizes)
      size_ *= n;
  }

  /// Where MPI starts: the array's first element (the datatype holds the block's offset).
  [[nodiscard]] T* address() const noexcept { return data_; }
  /// The committed MPI datatype of the whole block (send count 1 of it).
  [[nodiscard]] MPI_Datatype datatype() const noexcept { return type_; }
  /// The number of elements selected: the product of subsizes().
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// Whether the block selects no element (an empty message).
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /// The extents of the whole row-major array.
  [[nodiscard]] const extents& sizes() const noexcept { return sizes_; }
  /// The extents of the block.
  [[nodiscard]] const extents& subsizes() const noexcept { return subsizes_; }
  /// Where the block starts in each dimension.
  [[nodiscard]] const extents& starts() const noexcept { return starts_; }

  /// Selected element i, in row-major order of the block (no bounds check).
  [[nodiscard]] T& operator[](std::size_t i) const noexcept {
    std::size_t offset = 0;
    std::size_t step = 1;  // elements between neighbours in dimension d
    for (std::size_t d = N; d-- > 0;) {
      offset += (starts_[d] + i % subsizes_[d]) * step;
      i /= subsizes_[d];
      step *= sizes_[d];
    }
    return data_[offset];
  }
  /// The first selected element: a view is a random-access range of what it selects.
  [[nodiscard]] detail::view_iterator<subarray_view> begin() const noexcept { return {*this, 0}; }
  /// Past the last selected element.
  [[nodiscard]] detail::view_iterator<subarray_view> end() const noexcept { return {*this, size_}; }

 private:
  T* data_ = nullptr;
  extents sizes_{};
  extents subsizes_{};
  extents starts_{};
  std::size_t size_ = 0;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// A strided view of data (a named contiguous container or a std::span): `count` blocks of
/// `block` elements, `stride` elements from one block's start to the next, from data's first
/// element. The last column of a row-major rows x cols field:
///
///     auto column = thinmpi::strided(std::span(field).subspan(cols - 1), rows, cols);
template <class R>
[[nodiscard]] auto strided(R&& data, std::size_t count, std::size_t stride, std::size_t block = 1) {
  auto span = detail::span_of(std::forward<R>(data));
  return strided_view<typename decltype(span)::element_type>(span, count, stride, block);
}

/// A sub-array view of data (a named contiguous container or a std::span) holding a row-major
/// array of `sizes` elements: the block of `subsizes` at `starts`, in any number of dimensions.
/// The extents are integers of any type.
///
///     auto halo = thinmpi::subarray(field, {rows, cols}, {rows - 2, 1}, {1, cols - 2});
template <class R, std::size_t N>
[[nodiscard]] auto subarray(R&& data, const detail::extent_arg (&sizes)[N],
                            const detail::extent_arg (&subsizes)[N],
                            const detail::extent_arg (&starts)[N]) {
  auto span = detail::span_of(std::forward<R>(data));
  return subarray_view<typename decltype(span)::element_type, N>(
      span, detail::checked_extents(sizes, "sizes"), detail::checked_extents(subsizes, "subsizes"),
      detail::checked_extents(starts, "starts"));
}
/// subarray() with the extents as std::array, for shapes computed at run time.
template <class R, std::size_t N>
[[nodiscard]] auto subarray(R&& data, const std::array<std::size_t, N>& sizes,
                            const std::array<std::size_t, N>& subsizes,
                            const std::array<std::size_t, N>& starts) {
  auto span = detail::span_of(std::forward<R>(data));
  return subarray_view<typename decltype(span)::element_type, N>(span, sizes, subsizes, starts);
}

}  // namespace thinmpi

// Views refer to the caller's array, as std::span does: iterators and requests outlive them.
namespace std::ranges {
template <class T>
inline constexpr bool enable_borrowed_range<thinmpi::strided_view<T>> = true;
template <class T, std::size_t N>
inline constexpr bool enable_borrowed_range<thinmpi::subarray_view<T, N>> = true;
}  // namespace std::ranges
