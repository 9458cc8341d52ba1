#pragma once
/// \file
/// The derived datatypes of the strided and sub-array views (core/views.hpp): MPI_Type_vector
/// and MPI_Type_create_subarray of the element's datatype, built and committed once per shape
/// (a cache per element type and view kind), freed at MPI_Finalize with the struct types.

#include <array>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"

namespace thinmpi::detail {

/// Which MPI constructor a view's datatype comes from; part of the cache's key, so a strided
/// shape and a one-dimensional sub-array shape with the same numbers stay apart.
enum class view_kind { strided, subarray, file_strided };

/// The committed datatypes of views of E of one kind, one per Shape (a std::array of the
/// view's extents): built on first use and then found, under a mutex, so that threads share
/// them; each is registered with the finalize registry by commit_named.
template <class E, view_kind Kind, class Shape>
class view_type_cache {
 public:
  /// The datatype of shape, built by build() if this is its first use.
  template <class Build>
  static MPI_Datatype get(const Shape& shape, Build&& build) {
    view_type_cache& cache = instance();
    const std::lock_guard lock(cache.mutex_);
    if (const auto found = cache.types_.find(shape); found != cache.types_.end()) {
      return found->second;
    }
    const MPI_Datatype type = build();
    cache.types_.emplace(shape, type);
    return type;
  }

 private:
  static view_type_cache& instance() {
    static view_type_cache cache;
    return cache;
  }

  std::mutex mutex_;
  std::map<Shape, MPI_Datatype> types_;
};

/// `count` blocks of `block` elements of E whose starts lie `stride` elements apart
/// (MPI_Type_vector), named after the element's datatype, e.g. "MPI_DOUBLE strided[4 x 1 every
/// 5]", for error messages.
template <class E>
MPI_Datatype build_strided_type(std::size_t count, std::size_t block, std::size_t stride) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check(MPI_Type_vector(static_cast<int>(count), static_cast<int>(block), static_cast<int>(stride),
                        datatype_of<E>(), &type),
        "MPI_Type_vector");
  return commit_named(type, datatype_name(datatype_of<E>()) + " strided[" + std::to_string(count) +
                                " x " + std::to_string(block) + " every " + std::to_string(stride) +
                                "]");
}

/// "4x5" for extents {4, 5}.
template <std::size_t N>
std::string joined(const std::array<std::size_t, N>& extents, const char* separator) {
  std::string text;
  for (std::size_t d = 0; d < N; ++d) {
    text += (d == 0 ? "" : separator) + std::to_string(extents[d]);
  }
  return text;
}

/// The block of `subsizes` at `starts` in a row-major array of `sizes` elements of E
/// (MPI_Type_create_subarray, MPI_ORDER_C), named e.g. "MPI_INT subarray[2x3 at 1,1 of 4x5]". An
/// empty block (a subsize of 0, which MPI_Type_create_subarray does not take) is zero elements
/// of E.
template <class E, std::size_t N>
MPI_Datatype build_subarray_type(const std::array<std::size_t, N>& sizes,
                                 const std::array<std::size_t, N>& subsizes,
                                 const std::array<std::size_t, N>& starts) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  bool empty = false;
  std::array<int, N> sizes_int{};
  std::array<int, N> subsizes_int{};
  std::array<int, N> starts_int{};
  for (std::size_t d = 0; d < N; ++d) {
    empty = empty || subsizes[d] == 0;
    sizes_int[d] = static_cast<int>(sizes[d]);
    subsizes_int[d] = static_cast<int>(subsizes[d]);
    starts_int[d] = static_cast<int>(starts[d]);
  }
  if (empty) {
    check(MPI_Type_contiguous(0, datatype_of<E>(), &type), "MPI_Type_contiguous");
  } else {
    check(MPI_Type_create_subarray(static_cast<int>(N), sizes_int.data(), subsizes_int.data(),
                                   starts_int.data(), MPI_ORDER_C, datatype_of<E>(), &type),
          "MPI_Type_create_subarray");
  }
  return commit_named(type, datatype_name(datatype_of<E>()) + " subarray[" + joined(subsizes, "x") +
                                " at " + joined(starts, ",") + " of " + joined(sizes, "x") + "]");
}

}  // namespace thinmpi::detail
