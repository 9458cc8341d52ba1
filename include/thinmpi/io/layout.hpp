#pragma once
/// \file
/// File layouts: which elements of a file a rank sees through its view (MPI_File_set_view's
/// filetype), made from the shapes thinmpi's memory views already have. A layout of T is a
/// filetype whose elements are T (predefined, or an aggregate struct's derived datatype):
///
///     // a rank's rows of a rows x cols row-major array of doubles, one file for all ranks
///     const int my_rows = rows / size, row0 = rank * my_rows;
///     auto block = thinmpi::file_subarray<double>({rows, cols}, {my_rows, cols}, {row0, 0});
///     thinmpi::file f(world, "field.bin", thinmpi::file_mode::write | thinmpi::file_mode::create);
///     f.set_view(block);
///     f.write_at_all(0, std::span(field).first(std::size_t(my_rows * cols)));
///
/// file_subarray and file_strided build their datatype once per shape (the cache of
/// core/views.hpp, freed at MPI_Finalize); file_darray builds one per call, freed with the last
/// copy of the layout. A layout may be freed after set_view: MPI keeps its own copy.

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/narrow.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/view_types.hpp"
#include "thinmpi/core/views.hpp"

namespace thinmpi {

namespace detail {

/// A filetype that thinmpi built for one layout alone (file_darray), freed with it.
struct owned_filetype {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  owned_filetype() = default;
  owned_filetype(const owned_filetype&) = delete;
  owned_filetype& operator=(const owned_filetype&) = delete;
  ~owned_filetype() {
    if (type != MPI_DATATYPE_NULL && mpi_is_running()) MPI_Type_free(&type);
  }
};

/// `count` blocks of `block` elements of E, `stride` apart, resized to count x stride elements,
/// so that the filetype's copies tile the file with the same pattern.
template <class E>
MPI_Datatype build_file_strided_type(std::size_t count, std::size_t block, std::size_t stride) {
  MPI_Datatype vector = MPI_DATATYPE_NULL;
  check(MPI_Type_vector(static_cast<int>(count), static_cast<int>(block), static_cast<int>(stride),
                        datatype_of<E>(), &vector),
        "MPI_Type_vector");
  MPI_Aint lower_bound = 0;
  MPI_Aint extent = 0;
  MPI_Type_get_extent(datatype_of<E>(), &lower_bound, &extent);
  MPI_Datatype resized = MPI_DATATYPE_NULL;
  const int rc =
      MPI_Type_create_resized(vector, 0, static_cast<MPI_Aint>(count * stride) * extent, &resized);
  MPI_Type_free(&vector);
  check(rc, "MPI_Type_create_resized");
  return commit_named(resized, datatype_name(datatype_of<E>()) + " file_strided[" +
                                   std::to_string(count) + " x " + std::to_string(block) +
                                   " every " + std::to_string(stride) + "]");
}

}  // namespace detail

/// How one block of elements of a distributed dimension is dealt to the processes of
/// file_darray (MPI_DISTRIBUTE_*).
struct distribution {
  /// In blocks of ceil(n / processes) (MPI_DISTRIBUTE_BLOCK with the default argument).
  [[nodiscard]] static distribution block() noexcept { return {MPI_DISTRIBUTE_BLOCK, 0}; }
  /// In blocks of `size` elements (MPI_DISTRIBUTE_BLOCK with argument size).
  [[nodiscard]] static distribution block(int size) noexcept {
    return {MPI_DISTRIBUTE_BLOCK, size};
  }
  /// Round robin in blocks of `size` elements (MPI_DISTRIBUTE_CYCLIC): block-cyclic.
  [[nodiscard]] static distribution cyclic(int size = 1) noexcept {
    return {MPI_DISTRIBUTE_CYCLIC, size};
  }
  /// Not distributed: every process has the whole dimension (MPI_DISTRIBUTE_NONE).
  [[nodiscard]] static distribution none() noexcept { return {MPI_DISTRIBUTE_NONE, 0}; }

  int kind;      ///< MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE
  int argument;  ///< the block size, 0 for MPI's default (MPI_DISTRIBUTE_DFLT_DARG)
};

/// The elements of a file one rank sees, as a filetype of T (see the file comment); made by
/// file_contiguous, file_subarray, file_strided, file_darray, or from a datatype of the
/// caller's. Copyable (copies share the datatype).
template <class T>
class file_layout {
  static_assert(has_datatype<T>,
                "thinmpi: a file layout's elements need an MPI datatype: use an arithmetic type, "
                "an aggregate of them, or specialize thinmpi::datatype_traits");

 public:
  /// Every element, one after another (the filetype is T's own datatype).
  file_layout() : type_(datatype_of<T>()) {}
  /// A layout whose filetype is `filetype`, a committed datatype of the caller's built from
  /// elements of T; the caller keeps it alive until set_view has returned.
  [[nodiscard]] static file_layout of(MPI_Datatype filetype) {
    file_layout layout;
    layout.type_ = filetype;
    return layout;
  }

  /// The filetype (count 1 of it tiles the file).
  [[nodiscard]] MPI_Datatype filetype() const noexcept { return type_; }
  /// The element type's datatype (the view's etype).
  [[nodiscard]] MPI_Datatype element_type() const { return datatype_of<T>(); }

 private:
  template <class U>
  friend file_layout<U> file_darray(int, int, std::span<const std::size_t>,
                                    std::span<const distribution>, std::span<const int>);

  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  std::shared_ptr<const detail::owned_filetype> owned_{};
};

/// Every element in order: the view a file has before set_view, in elements of T.
template <class T>
[[nodiscard]] file_layout<T> file_contiguous() {
  return file_layout<T>();
}

/// The block of `subsizes` elements at `starts` of an N-dimensional row-major array of `sizes`
/// elements of T (MPI_Type_create_subarray): with one such layout a rank a block, every rank
/// writes its block of one array into one file. Errors as thinmpi::subarray's (MPI_ERR_ARG).
template <class T, std::size_t N>
[[nodiscard]] file_layout<T> file_subarray(const std::array<std::size_t, N>& sizes,
                                           const std::array<std::size_t, N>& subsizes,
                                           const std::array<std::size_t, N>& starts) {
  std::size_t elements = 1;
  for (const std::size_t n : sizes)
    elements *= n;
  detail::check_subarray(elements, sizes, subsizes, starts);
  using cache = detail::view_type_cache<T, detail::view_kind::subarray,
                                        std::array<std::array<std::size_t, N>, 3>>;
  return file_layout<T>::of(cache::get({sizes, subsizes, starts}, [&] {
    return detail::build_subarray_type<T>(sizes, subsizes, starts);
  }));
}
/// file_subarray with the extents as braced lists of any integer type.
template <class T, std::size_t N>
[[nodiscard]] file_layout<T> file_subarray(const detail::extent_arg (&sizes)[N],
                                           const detail::extent_arg (&subsizes)[N],
                                           const detail::extent_arg (&starts)[N]) {
  return file_subarray<T, N>(detail::checked_extents(sizes, "sizes"),
                             detail::checked_extents(subsizes, "subsizes"),
                             detail::checked_extents(starts, "starts"));
}

/// `count` blocks of `block` elements of T whose starts lie `stride` elements apart, the
/// pattern repeating every count x stride elements (MPI_Type_vector resized): with the view's
/// displacement at rank x block elements, ranks interleave their blocks in one file.
template <class T>
[[nodiscard]] file_layout<T> file_strided(std::size_t count, std::size_t stride,
                                          std::size_t block = 1) {
  constexpr const char* operation = "thinmpi::file_strided";
  detail::check_view_int(operation, "the count", count);
  detail::check_view_int(operation, "the stride", stride);
  detail::check_view_int(operation, "the block", block);
  if (count == 0 || block == 0 || block > stride) [[unlikely]] {
    detail::raise_bad_view(operation, std::to_string(count) + " blocks of " +
                                          std::to_string(block) + " every " +
                                          std::to_string(stride) +
                                          " elements: a file layout needs at least one block of "
                                          "at least one element, blocks no longer than the stride");
  }
  detail::check_view_int(operation, "count x stride", count * stride);
  using cache =
      detail::view_type_cache<T, detail::view_kind::file_strided, std::array<std::size_t, 3>>;
  return file_layout<T>::of(cache::get({count, block, stride}, [&] {
    return detail::build_file_strided_type<T>(count, block, stride);
  }));
}

/// This rank's part of a distributed array of `sizes` elements of T, dealt to a row-major grid
/// of `processes` (one extent a dimension, product = `size`) as `how` says a dimension, as
/// High Performance Fortran does (MPI_Type_create_darray, MPI_ORDER_C): block, cyclic and
/// block-cyclic distributions. Mismatched lengths or a grid that is not `size` processes is an
/// mpi_error (MPI_ERR_ARG) before MPI is called.
template <class T>
[[nodiscard]] file_layout<T> file_darray(int size, int rank, std::span<const std::size_t> sizes,
                                         std::span<const distribution> how,
                                         std::span<const int> processes) {
  constexpr const char* operation = "thinmpi::file_darray";
  const std::size_t dims = sizes.size();
  if (dims == 0 || how.size() != dims || processes.size() != dims) [[unlikely]] {
    detail::raise_bad_view(operation, "sizes, distributions and the process grid have " +
                                          std::to_string(dims) + ", " + std::to_string(how.size()) +
                                          " and " + std::to_string(processes.size()) +
                                          " dimensions; they need the same number, at least 1");
  }
  long long grid = 1;
  for (const int p : processes)
    grid *= p;
  if (grid != size || rank < 0 || rank >= size) [[unlikely]] {
    detail::raise_bad_view(operation, "a process grid of " + std::to_string(grid) +
                                          " processes for rank " + std::to_string(rank) + " of " +
                                          std::to_string(size) +
                                          ": the grid must hold exactly `size` processes");
  }
  std::vector<int> gsizes(dims);
  std::vector<int> distribs(dims);
  std::vector<int> dargs(dims);
  for (std::size_t d = 0; d < dims; ++d) {
    detail::check_view_int(operation, "sizes[" + std::to_string(d) + "]", sizes[d]);
    gsizes[d] = static_cast<int>(sizes[d]);
    distribs[d] = how[d].kind;
    dargs[d] = how[d].argument == 0 ? MPI_DISTRIBUTE_DFLT_DARG : how[d].argument;
  }
  auto owned = std::make_shared<detail::owned_filetype>();
  detail::check(MPI_Type_create_darray(size, rank, static_cast<int>(dims), gsizes.data(),
                                       distribs.data(), dargs.data(), processes.data(), MPI_ORDER_C,
                                       datatype_of<T>(), &owned->type),
                "MPI_Type_create_darray");
  detail::check(MPI_Type_commit(&owned->type), "MPI_Type_commit");
  file_layout<T> layout = file_layout<T>::of(owned->type);
  layout.owned_ = std::move(owned);
  return layout;
}

}  // namespace thinmpi
