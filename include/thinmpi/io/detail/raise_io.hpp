#pragma once
/// \file
/// The one error path of the I/O family: a failed MPI-IO call, or one thinmpi refused or found
/// short (a bad mode, a read past the end into a target that must be full, a write MPI did not
/// finish), becomes a thinmpi::mpi_error naming the file, the operation, the offset, the count
/// and the rank. Everything here runs only after something failed.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/error.hpp"
#include "thinmpi/io/modes.hpp"

namespace thinmpi::detail {

/// Where an I/O error happened; the fields that do not apply stay empty.
struct io_site {
  const char* operation = "";
  const std::string* path = nullptr;  ///< the file's name (owned by its file object)
  int rank = 0;                       ///< the calling rank in the file's group
  int size = 0;                       ///< ranks in the file's group (0: none known)
  std::optional<file_offset> offset{};
  std::optional<std::size_t> count{};
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::string problem{};  ///< thinmpi's own sentence; MPI's explanation when empty
};

/// "thinmpi: MPI_File_read_at(file "out.bin", offset 10, 4 x MPI_INT = 16 bytes) failed on rank
/// 0 of 2: ... [MPI_ERR_IO]"
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_io(int code, const io_site& site) {
  mpi_error::report report = make_report(
      code, error_site{.operation = site.operation, .count = site.count, .type = site.type});
  if (site.size > 0) {
    report.rank = site.rank;
    report.comm_size = site.size;
  }
  std::string args;
  const auto append = [&args](const std::string& part) {
    args += args.empty() ? part : ", " + part;
  };
  if (site.path != nullptr) append("file \"" + *site.path + "\"");
  if (site.offset) append("offset " + std::to_string(*site.offset));
  if (site.count) append(describe_elements(*site.count, site.type));
  std::string what = "thinmpi: " + std::string(site.operation) + "(" + args + ") failed";
  if (site.size > 0) {
    what += " on rank " + std::to_string(site.rank) + " of " + std::to_string(site.size);
  }
  const std::string reason = site.problem.empty() ? mpi_reason(report.mpi_message) : site.problem;
  what += ": " + (reason.empty() ? std::string("MPI error") : reason);
  what += " [" + error_class_name(report.error_class) + "]";
  throw mpi_error(what, std::move(report));
}

}  // namespace thinmpi::detail
