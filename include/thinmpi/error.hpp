#pragma once
/// \file
/// thinmpi::mpi_error and the one path every failed MPI call takes to become one.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "thinmpi/detail/mpi.hpp"

namespace thinmpi {

/// What went wrong in one MPI operation: the MPI error, the operation, and the ranks, tag and
/// sizes involved. Every MPI return code thinmpi sees that is not MPI_SUCCESS becomes one.
///
///     try { world.send(v, 7, 0); } catch (const thinmpi::mpi_error& e) { e.error_class(); }
class mpi_error : public std::runtime_error {
 public:
  /// The fields of an error report; those that do not apply to an operation stay empty.
  struct report {
    int code = MPI_ERR_OTHER;                   ///< MPI error code as returned
    int error_class = MPI_ERR_OTHER;            ///< MPI_Error_class(code)
    std::string operation;                      ///< the MPI function, e.g. "MPI_Send"
    std::string mpi_message;                    ///< MPI_Error_string(code)
    std::optional<int> rank;                    ///< calling rank in the communicator
    std::optional<int> comm_size;               ///< ranks in the communicator
    std::optional<int> peer;                    ///< destination or source rank
    std::optional<int> tag;                     ///< message tag
    std::optional<std::size_t> count;           ///< elements sent, or room in the receive buffer
    std::optional<std::size_t> incoming_count;  ///< elements of the incoming message, when known
    std::optional<std::size_t> incoming_bytes;  ///< bytes of the incoming message, when known
  };

  mpi_error(const std::string& what, report fields)
      : std::runtime_error(what), report_(std::move(fields)) {}

  /// The MPI error code as returned by the failed call.
  [[nodiscard]] int code() const noexcept { return report_.code; }
  /// The MPI error class (MPI_ERR_RANK, MPI_ERR_TAG, MPI_ERR_TRUNCATE, ...).
  [[nodiscard]] int error_class() const noexcept { return report_.error_class; }
  /// The MPI function that failed, e.g. "MPI_Recv".
  [[nodiscard]] const std::string& operation() const noexcept { return report_.operation; }
  /// What MPI_Error_string says about the code.
  [[nodiscard]] const std::string& mpi_message() const noexcept { return report_.mpi_message; }
  /// The calling rank in the communicator of the operation.
  [[nodiscard]] std::optional<int> rank() const noexcept { return report_.rank; }
  /// The destination or source rank of a point-to-point operation.
  [[nodiscard]] std::optional<int> peer() const noexcept { return report_.peer; }
  /// The tag of a point-to-point operation.
  [[nodiscard]] std::optional<int> tag() const noexcept { return report_.tag; }
  /// Elements sent, or the room in the receive buffer, in elements of the buffer's type.
  [[nodiscard]] std::optional<std::size_t> count() const noexcept { return report_.count; }
  /// Elements in the incoming message, where MPI reports its size.
  [[nodiscard]] std::optional<std::size_t> incoming_count() const noexcept {
    return report_.incoming_count;
  }
  /// Bytes in the incoming message, where MPI reports its size.
  [[nodiscard]] std::optional<std::size_t> incoming_bytes() const noexcept {
    return report_.incoming_bytes;
  }
  /// Every field at once.
  [[nodiscard]] const report& details() const noexcept { return report_; }

 private:
  report report_;
};

/// The name of an MPI error class, e.g. "MPI_ERR_RANK".
[[nodiscard]] std::string error_class_name(int error_class);

namespace detail {

/// Where an error happened, filled in only on the error path.
struct error_site {
  const char* operation = "";
  MPI_Comm comm = MPI_COMM_NULL;
  const char* peer_role = "peer";  ///< "dest" or "source"
  std::optional<int> peer{};
  std::optional<int> tag{};
  std::optional<std::size_t> count{};
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::optional<std::size_t> incoming_bytes{};
  std::string problem{};  ///< thinmpi's own sentence, for errors MPI does not explain itself
};

/// Builds the mpi_error for a failed call and throws it. Kept out of line of the hot paths.
[[noreturn]] void raise(int code, const error_site& site);

/// Throws unless rc is MPI_SUCCESS. For calls whose only context is their name.
inline void check(int rc, const char* operation) {
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise(rc, error_site{.operation = operation});
  }
}

/// Throws unless rc is MPI_SUCCESS, naming the operation and its communicator.
inline void check(int rc, const char* operation, MPI_Comm comm) {
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise(rc, error_site{.operation = operation, .comm = comm});
  }
}

}  // namespace detail
}  // namespace thinmpi

#include "thinmpi/detail/error_impl.hpp"
