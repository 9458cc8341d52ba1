#pragma once
/// \file
/// The blocking reads and writes of a thinmpi::file, each one MPI-IO call: at an explicit
/// offset (`_at`), at this rank's file pointer, at the shared file pointer (`_shared`), and in
/// rank order through the shared pointer (`_ordered`); `_all` and `_ordered` are collective.
/// Offsets count elements of the view's element type (bytes before any view).
///
/// A payload is what the other families send: a scalar, a contiguous range, a strided or
/// sub-array view. A write throws unless MPI wrote every byte. A read returns the elements it
/// got: fewer at the end of the file, and a std::vector (or another resizable container) used
/// as the bound shrinks to them, so no stale element stays; a scalar it could not fill, or a
/// partial element, is an mpi_error (MPI_ERR_IO).
///
///     auto mode = thinmpi::file_mode::read_write | thinmpi::file_mode::create;
///     thinmpi::file f(world, "rows.bin", mode);
///     f.set_view(thinmpi::file_contiguous<double>());      // offsets count doubles
///     std::vector<double> row(std::size_t(cols), 1.0);
///     f.write_at(thinmpi::file_offset{rank} * cols, row);   // one MPI_File_write_at
///     std::vector<double> back(row.size());
///     std::size_t got = f.read_at(0, back);                 // one MPI_File_read_at

#include <cstddef>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/io/detail/file_state.hpp"
#include "thinmpi/io/detail/transfer.hpp"
#include "thinmpi/io/modes.hpp"

namespace thinmpi {

/// The blocking transfers of File (thinmpi::file), which gives the state of an open file by
/// `live(operation)`.
template <class File>
class file_transfers {
 public:
  /// Writes `payload` at `offset` (MPI_File_write_at).
  template <class P>
  void write_at(file_offset offset, const P& payload) const {
    detail::require_sendable<P>();
    detail::write_with<&MPI_File_write_at, THINMPI_LARGE_COUNT_CALL(MPI_File_write_at)>(
        state("MPI_File_write_at"), "MPI_File_write_at", offset, payload);
  }
  /// Reads into `into` from `offset` (MPI_File_read_at); returns the elements read.
  template <class Into>
  std::size_t read_at(file_offset offset, Into&& into) const {
    detail::require_receivable<Into>();
    return detail::read_with<&MPI_File_read_at, THINMPI_LARGE_COUNT_CALL(MPI_File_read_at),
                             detail::read_count::status>(state("MPI_File_read_at"),
                                                         "MPI_File_read_at", offset, into);
  }
  /// write_at, collective over the file's ranks (MPI_File_write_at_all).
  template <class P>
  void write_at_all(file_offset offset, const P& payload) const {
    detail::require_sendable<P>();
    detail::write_with<&MPI_File_write_at_all, THINMPI_LARGE_COUNT_CALL(MPI_File_write_at_all)>(
        state("MPI_File_write_at_all"), "MPI_File_write_at_all", offset, payload);
  }
  /// read_at, collective over the file's ranks (MPI_File_read_at_all).
  template <class Into>
  std::size_t read_at_all(file_offset offset, Into&& into) const {
    detail::require_receivable<Into>();
    return detail::read_with<&MPI_File_read_at_all, THINMPI_LARGE_COUNT_CALL(MPI_File_read_at_all),
                             detail::read_count::after>(state("MPI_File_read_at_all"),
                                                        "MPI_File_read_at_all", offset, into);
  }

  /// Writes at this rank's file pointer and moves it on (MPI_File_write).
  template <class P>
  void write(const P& payload) const {
    detail::require_sendable<P>();
    detail::write_with<&MPI_File_write, THINMPI_LARGE_COUNT_CALL(MPI_File_write)>(
        state("MPI_File_write"), "MPI_File_write", detail::at_pointer{}, payload);
  }
  /// Reads at this rank's file pointer and moves it on (MPI_File_read).
  template <class Into>
  std::size_t read(Into&& into) const {
    detail::require_receivable<Into>();
    return detail::read_with<&MPI_File_read, THINMPI_LARGE_COUNT_CALL(MPI_File_read),
                             detail::read_count::status>(state("MPI_File_read"), "MPI_File_read",
                                                         detail::at_pointer{}, into);
  }
  /// write, collective (MPI_File_write_all).
  template <class P>
  void write_all(const P& payload) const {
    detail::require_sendable<P>();
    detail::write_with<&MPI_File_write_all, THINMPI_LARGE_COUNT_CALL(MPI_File_write_all)>(
        state("MPI_File_write_all"), "MPI_File_write_all", detail::at_pointer{}, payload);
  }
  /// read, collective (MPI_File_read_all).
  template <class Into>
  std::size_t read_all(Into&& into) const {
    detail::require_receivable<Into>();
    return detail::read_with<&MPI_File_read_all, THINMPI_LARGE_COUNT_CALL(MPI_File_read_all),
                             detail::read_count::after>(
        state("MPI_File_read_all"), "MPI_File_read_all", detail::at_pointer{}, into);
  }

  /// Writes at the shared file pointer, in whatever order ranks come (MPI_File_write_shared).
  template <class P>
  void write_shared(const P& payload) const {
    detail::require_sendable<P>();
    detail::write_with<&MPI_File_write_shared, THINMPI_LARGE_COUNT_CALL(MPI_File_write_shared)>(
        state("MPI_File_write_shared"), "MPI_File_write_shared", detail::at_shared{}, payload);
  }
  /// Reads at the shared file pointer (MPI_File_read_shared).
  template <class Into>
  std::size_t read_shared(Into&& into) const {
    detail::require_receivable<Into>();
    return detail::read_with<&MPI_File_read_shared, THINMPI_LARGE_COUNT_CALL(MPI_File_read_shared),
                             detail::read_count::status>(
        state("MPI_File_read_shared"), "MPI_File_read_shared", detail::at_shared{}, into);
  }
  /// Writes at the shared file pointer in rank order, collective (MPI_File_write_ordered).
  template <class P>
  void write_ordered(const P& payload) const {
    detail::require_sendable<P>();
    detail::write_with<&MPI_File_write_ordered, THINMPI_LARGE_COUNT_CALL(MPI_File_write_ordered)>(
        state("MPI_File_write_ordered"), "MPI_File_write_ordered", detail::at_shared{}, payload);
  }
  /// Reads at the shared file pointer in rank order, collective (MPI_File_read_ordered).
  template <class Into>
  std::size_t read_ordered(Into&& into) const {
    detail::require_receivable<Into>();
    return detail::read_with<&MPI_File_read_ordered,
                             THINMPI_LARGE_COUNT_CALL(MPI_File_read_ordered),
                             detail::read_count::status>(
        state("MPI_File_read_ordered"), "MPI_File_read_ordered", detail::at_shared{}, into);
  }

 private:
  [[nodiscard]] const detail::file_state& state(const char* operation) const {
    return static_cast<const File&>(*this).live(operation);
  }
};

}  // namespace thinmpi
