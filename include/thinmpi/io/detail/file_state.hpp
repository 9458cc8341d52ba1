#pragma once
/// \file
/// What a thinmpi::file knows beside its MPI_File: its name, the calling rank and the group's
/// size (for error messages, asked once at open), and the element type of its view. Shared
/// with the file's nonblocking requests, so an error they report can still name the file.

#include <cstddef>
#include <optional>
#include <string>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/io/detail/raise_io.hpp"
#include "thinmpi/io/modes.hpp"

namespace thinmpi::detail {

struct file_state {
  MPI_File handle = MPI_FILE_NULL;
  std::string path;
  int rank = 0;
  int size = 0;
  MPI_Datatype etype = MPI_BYTE;  ///< the view's element type: MPI_BYTE until set_view
  std::size_t etype_bytes = 1;    ///< its size
  int uncaught_at_open = 0;       ///< std::uncaught_exceptions() when the file was opened

  /// The site of an operation on this file, without offset or count.
  [[nodiscard]] io_site site(const char* operation) const {
    return io_site{.operation = operation, .path = &path, .rank = rank, .size = size};
  }
  /// The site of a transfer of `count` elements of `type` at `offset` (none for a file pointer).
  [[nodiscard]] io_site site(const char* operation, std::optional<file_offset> offset,
                             std::size_t count, MPI_Datatype type) const {
    io_site s = site(operation);
    s.offset = offset;
    s.count = count;
    s.type = type;
    return s;
  }
};

}  // namespace thinmpi::detail
