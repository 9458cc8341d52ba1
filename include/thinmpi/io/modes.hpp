#pragma once
/// \file
/// The words of MPI-IO as types: how a file is opened (file_mode, combined with |), how its
/// bytes are represented (file_representation), and where a seek counts from (seek_from).
///
///     auto mode = thinmpi::file_mode::write | thinmpi::file_mode::create;

#include <cstdint>
#include <string>

#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi {

/// An offset in a file, in elements of the view's element type (bytes before any view), as
/// MPI_Offset counts it.
using file_offset = std::int64_t;

/// How a file is opened (MPI_MODE_*): exactly one of read, write and read_write, with any of
/// the others. Combine with |.
enum class file_mode : unsigned {
  read = MPI_MODE_RDONLY,                      ///< read only
  write = MPI_MODE_WRONLY,                     ///< write only
  read_write = MPI_MODE_RDWR,                  ///< read and write
  create = MPI_MODE_CREATE,                    ///< create the file if it does not exist
  exclusive = MPI_MODE_EXCL,                   ///< with create: an error if it exists
  append = MPI_MODE_APPEND,                    ///< the file pointers start at the end
  delete_on_close = MPI_MODE_DELETE_ON_CLOSE,  ///< delete the file when it is closed
  unique_open = MPI_MODE_UNIQUE_OPEN,          ///< no one else opens the file meanwhile
  sequential = MPI_MODE_SEQUENTIAL,            ///< accessed only sequentially (no explicit offsets)
};

/// Both sets of modes.
[[nodiscard]] constexpr file_mode operator|(file_mode a, file_mode b) noexcept {
  return static_cast<file_mode>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
/// Whether `mode` includes every mode of `flag`.
[[nodiscard]] constexpr bool has(file_mode mode, file_mode flag) noexcept {
  return (static_cast<unsigned>(mode) & static_cast<unsigned>(flag)) == static_cast<unsigned>(flag);
}

/// How elements lie in the file (MPI_File_set_view's datarep): as in memory ("native"), or
/// big-endian and portable between machines ("external32").
enum class file_representation { native, external32, internal };

/// Where a seek's offset counts from (MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END).
enum class seek_from { start = MPI_SEEK_SET, current = MPI_SEEK_CUR, end = MPI_SEEK_END };

namespace detail {

/// MPI's name of a representation.
[[nodiscard]] inline const char* representation_name(file_representation rep) noexcept {
  switch (rep) {
    case file_representation::external32:
      return "external32";
    case file_representation::internal:
      return "internal";
    case file_representation::native:
      break;
  }
  return "native";
}

/// "read_write | create": a mode in the words of file_mode, for error messages.
[[nodiscard]] inline std::string mode_names(file_mode mode) {
  struct named {
    file_mode flag;
    const char* name;
  };
  static constexpr named names[] = {{file_mode::read, "read"},
                                    {file_mode::write, "write"},
                                    {file_mode::read_write, "read_write"},
                                    {file_mode::create, "create"},
                                    {file_mode::exclusive, "exclusive"},
                                    {file_mode::append, "append"},
                                    {file_mode::delete_on_close, "delete_on_close"},
                                    {file_mode::unique_open, "unique_open"},
                                    {file_mode::sequential, "sequential"}};
  std::string text;
  for (const named& n : names) {
    if (has(mode, n.flag)) text += (text.empty() ? "" : " | ") + std::string(n.name);
  }
  return text.empty() ? std::string("no mode") : text;
}

/// Why `mode` is not one MPI_File_open takes, or empty: exactly one access mode; read only
/// neither creates nor is exclusive; sequential is not read_write (MPI-4.0 section 14.2.1).
[[nodiscard]] inline std::string mode_problem(file_mode mode) {
  const int access = (has(mode, file_mode::read) ? 1 : 0) + (has(mode, file_mode::write) ? 1 : 0) +
                     (has(mode, file_mode::read_write) ? 1 : 0);
  if (access != 1) {
    return "the mode " + mode_names(mode) +
           " needs exactly one of file_mode::read, write and read_write";
  }
  if (has(mode, file_mode::read) &&
      (has(mode, file_mode::create) || has(mode, file_mode::exclusive))) {
    return "the mode " + mode_names(mode) + " creates a file it may only read";
  }
  if (has(mode, file_mode::sequential) && has(mode, file_mode::read_write)) {
    return "the mode " + mode_names(mode) + " is sequential and read_write, which MPI forbids";
  }
  return {};
}

}  // namespace detail
}  // namespace thinmpi
