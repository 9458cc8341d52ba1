#pragma once
/// \file
/// thinmpi::status: who sent a message, with which tag, and how much of it arrived.

#include <cstddef>
#include <string>

#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"

namespace thinmpi {

/// Receive from any rank.
inline constexpr int any_source = MPI_ANY_SOURCE;
/// Receive with any tag.
inline constexpr int any_tag = MPI_ANY_TAG;
/// The rank that sends and receives nothing.
inline constexpr int proc_null = MPI_PROC_NULL;

/// The status of a completed receive or probe. Counts are in elements of the type the receive
/// used (bytes for a probe), or of any type asked for with count<T>().
///
///     std::vector<int> buffer(n);
///     auto st = world.recv(buffer, thinmpi::any_source, 7);
///     std::printf("%zu ints from rank %d\n", st.count(), st.source());
class status {
 public:
  status() noexcept = default;
  /// Wraps a status MPI filled in for a receive of `element`s.
  status(const MPI_Status& native, MPI_Datatype element) noexcept
      : native_(native), element_(element) {}

  /// The rank the message came from.
  [[nodiscard]] int source() const noexcept { return native_.MPI_SOURCE; }
  /// The tag the message carried.
  [[nodiscard]] int tag() const noexcept { return native_.MPI_TAG; }
  /// Bytes in the message.
  [[nodiscard]] std::size_t bytes() const noexcept { return detail::status_bytes(native_); }
  /// Elements in the message, of the type it was received as; throws thinmpi::mpi_error if the
  /// byte count is not a whole number of them.
  [[nodiscard]] std::size_t count() const { return count_as(element_); }
  /// Elements of T in the message; throws thinmpi::mpi_error if they are not whole.
  template <has_datatype T>
  [[nodiscard]] std::size_t count() const {
    return count_as(datatype_of<T>());
  }
  /// Whether the operation was cancelled.
  [[nodiscard]] bool cancelled() const {
    int flag = 0;
    detail::check(MPI_Test_cancelled(&native_, &flag), "MPI_Test_cancelled");
    return flag != 0;
  }
  /// The datatype counts are in by default.
  [[nodiscard]] MPI_Datatype datatype() const noexcept { return element_; }
  /// The MPI_Status itself.
  [[nodiscard]] const MPI_Status& native() const noexcept { return native_; }

 private:
  [[nodiscard]] std::size_t count_as(MPI_Datatype type) const {
    const std::size_t total = bytes();
    const auto size = detail::datatype_size(type);
    if (total == 0) return 0;
    if (!size || total % *size != 0) {
      detail::raise(MPI_ERR_TYPE,
                    detail::error_site{.operation = "thinmpi::status::count",
                                       .problem = std::to_string(total) +
                                                  " bytes are not a whole number of " +
                                                  detail::datatype_name(type) + " elements"});
    }
    return total / *size;
  }

  MPI_Status native_{};
  MPI_Datatype element_ = MPI_BYTE;
};

}  // namespace thinmpi
