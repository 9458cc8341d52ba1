#pragma once
/// \file
/// thinmpi::mpi_error: what a failed MPI call reports. detail/raise.hpp builds and throws it.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"

namespace thinmpi {

/// What went wrong in one MPI operation: the MPI error, the operation, and the ranks, tag and
/// sizes involved. Every MPI return code thinmpi sees that is not MPI_SUCCESS becomes one.
///
///     std::vector<int> v(n);
///     try { world.send(v, 7, 0); } catch (const thinmpi::mpi_error& e) { use(e.error_class()); }
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

  /// An error whose what() is the full message and whose fields are the report's (thinmpi's
  /// raise path builds both; a user may throw one too).
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
inline std::string error_class_name(int error_class) {
  switch (error_class) {
    case MPI_SUCCESS:
      return "MPI_SUCCESS";
    case MPI_ERR_BUFFER:
      return "MPI_ERR_BUFFER";
    case MPI_ERR_COUNT:
      return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE:
      return "MPI_ERR_TYPE";
    case MPI_ERR_TAG:
      return "MPI_ERR_TAG";
    case MPI_ERR_COMM:
      return "MPI_ERR_COMM";
    case MPI_ERR_RANK:
      return "MPI_ERR_RANK";
    case MPI_ERR_REQUEST:
      return "MPI_ERR_REQUEST";
    case MPI_ERR_ROOT:
      return "MPI_ERR_ROOT";
    case MPI_ERR_GROUP:
      return "MPI_ERR_GROUP";
    case MPI_ERR_OP:
      return "MPI_ERR_OP";
    case MPI_ERR_TOPOLOGY:
      return "MPI_ERR_TOPOLOGY";
    case MPI_ERR_DIMS:
      return "MPI_ERR_DIMS";
    case MPI_ERR_ARG:
      return "MPI_ERR_ARG";
    case MPI_ERR_UNKNOWN:
      return "MPI_ERR_UNKNOWN";
    case MPI_ERR_TRUNCATE:
      return "MPI_ERR_TRUNCATE";
    case MPI_ERR_OTHER:
      return "MPI_ERR_OTHER";
    case MPI_ERR_INTERN:
      return "MPI_ERR_INTERN";
    case MPI_ERR_IN_STATUS:
      return "MPI_ERR_IN_STATUS";
    case MPI_ERR_PENDING:
      return "MPI_ERR_PENDING";
    case MPI_ERR_NO_MEM:
      return "MPI_ERR_NO_MEM";
    // One-sided communication's classes (MPI-4.0 section 12.8).
    case MPI_ERR_WIN:
      return "MPI_ERR_WIN";
    case MPI_ERR_BASE:
      return "MPI_ERR_BASE";
    case MPI_ERR_SIZE:
      return "MPI_ERR_SIZE";
    case MPI_ERR_DISP:
      return "MPI_ERR_DISP";
    case MPI_ERR_ASSERT:
      return "MPI_ERR_ASSERT";
    case MPI_ERR_LOCKTYPE:
      return "MPI_ERR_LOCKTYPE";
    case MPI_ERR_RMA_CONFLICT:
      return "MPI_ERR_RMA_CONFLICT";
    case MPI_ERR_RMA_SYNC:
      return "MPI_ERR_RMA_SYNC";
    case MPI_ERR_RMA_RANGE:
      return "MPI_ERR_RMA_RANGE";
    case MPI_ERR_RMA_ATTACH:
      return "MPI_ERR_RMA_ATTACH";
    case MPI_ERR_RMA_SHARED:
      return "MPI_ERR_RMA_SHARED";
    case MPI_ERR_RMA_FLAVOR:
      return "MPI_ERR_RMA_FLAVOR";
    case MPI_ERR_FILE:
      return "MPI_ERR_FILE";
    case MPI_ERR_NOT_SAME:
      return "MPI_ERR_NOT_SAME";
    case MPI_ERR_AMODE:
      return "MPI_ERR_AMODE";
    case MPI_ERR_UNSUPPORTED_DATAREP:
      return "MPI_ERR_UNSUPPORTED_DATAREP";
    case MPI_ERR_UNSUPPORTED_OPERATION:
      return "MPI_ERR_UNSUPPORTED_OPERATION";
    case MPI_ERR_NO_SUCH_FILE:
      return "MPI_ERR_NO_SUCH_FILE";
    case MPI_ERR_FILE_EXISTS:
      return "MPI_ERR_FILE_EXISTS";
    case MPI_ERR_BAD_FILE:
      return "MPI_ERR_BAD_FILE";
    case MPI_ERR_ACCESS:
      return "MPI_ERR_ACCESS";
    case MPI_ERR_NO_SPACE:
      return "MPI_ERR_NO_SPACE";
    case MPI_ERR_QUOTA:
      return "MPI_ERR_QUOTA";
    case MPI_ERR_READ_ONLY:
      return "MPI_ERR_READ_ONLY";
    case MPI_ERR_FILE_IN_USE:
      return "MPI_ERR_FILE_IN_USE";
    case MPI_ERR_DUP_DATAREP:
      return "MPI_ERR_DUP_DATAREP";
    case MPI_ERR_CONVERSION:
      return "MPI_ERR_CONVERSION";
    case MPI_ERR_IO:
      return "MPI_ERR_IO";
    case MPI_ERR_INFO:
      return "MPI_ERR_INFO";
    case MPI_ERR_INFO_KEY:
      return "MPI_ERR_INFO_KEY";
    case MPI_ERR_INFO_VALUE:
      return "MPI_ERR_INFO_VALUE";
    case MPI_ERR_INFO_NOKEY:
      return "MPI_ERR_INFO_NOKEY";
    default:
      return "MPI error class " + std::to_string(error_class);
  }
}

}  // namespace thinmpi
