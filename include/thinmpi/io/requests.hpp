#pragma once
/// \file
/// The nonblocking reads and writes of a thinmpi::file (MPI_File_iwrite_at, ..._iread_all):
/// each returns a thinmpi::io_request on the one request face (wait(), test(), active(), move,
/// wait_all / wait_any with requests of any family, a destructor that waits). A named buffer
/// (or a view) is borrowed and must outlive the request, and wait() returns the elements
/// transferred; a buffer moved in is owned and wait() hands it back (a vector read into shrunk
/// to what was read). The checks of the blocking forms run when the request completes.
///
///     thinmpi::file f(world, "out.bin", thinmpi::file_mode::write | thinmpi::file_mode::create);
///     std::vector<double> block(n, 1.0);
///     auto pending = f.iwrite_at(0, std::move(block));  // owned: nothing to keep alive
///     update(field);                                     // computation meanwhile
///     block = pending.wait();

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/io/detail/file_state.hpp"
#include "thinmpi/io/detail/raise_io.hpp"
#include "thinmpi/io/detail/transfer.hpp"
#include "thinmpi/io/modes.hpp"
#include "thinmpi/requests/request_face.hpp"

namespace thinmpi {
namespace detail {

/// The kind of io_request<P>: one posted MPI-IO operation, its buffer, and its checks.
template <class P>
struct io_transfer {
  MPI_Request handle_ = MPI_REQUEST_NULL;
  held<P, holder_site::moving> buffer_{};
  std::shared_ptr<const file_state> file_{};  ///< keeps the name an error reports alive
  io_site site_{};
  io_plan plan_{};
  bool reading_ = false;
  std::size_t limit_ = unknown_count;  ///< a bounded read's elements before the end of the file
  file_offset start_ = 0;              ///< where a read bounded `after` started
  bool bound_after_ = false;
  std::size_t done_ = 0;

  MPI_Request& posted_handle() noexcept { return handle_; }
  void complete_stage(int rc, const MPI_Status& status) {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_io(rc, site_);
    }
    if (reading_) {
      if constexpr (!std::is_const_v<std::remove_reference_t<decltype(buffer_.get())>>) {
        if (bound_after_) limit_ = elements_before_end(*file_, site_, start_, plan_);
        done_ = finish_read(buffer_.get(), site_, plan_, status, limit_);
      }
    } else {
      finish_write(site_, plan_, status);
      done_ = plan_.elements;
    }
  }
  auto result() {
    if constexpr (held<P, holder_site::moving>::owned) {
      return buffer_.take();
    } else {
      return done_;
    }
  }
};

}  // namespace detail

/// A nonblocking read or write of a file: wait() returns the buffer if it was moved in, else
/// the elements transferred. Move-only; one destroyed while active waits first.
template <class P>
class [[nodiscard]] io_request : public detail::request_face<detail::io_transfer<P>> {
  using face = detail::request_face<detail::io_transfer<P>>;

 public:
  /// An inactive request.
  io_request() = default;
  /// Takes what an operation was posted on (thinmpi::file's nonblocking members make them).
  explicit io_request(detail::io_transfer<P>&& posted) : face(std::in_place, std::move(posted)) {}

  /// The MPI handle (MPI_REQUEST_NULL once complete).
  [[nodiscard]] MPI_Request native() const noexcept { return this->kind().handle_; }
};

namespace detail {

/// Posts one nonblocking transfer through `Classic`.
template <auto Classic, auto Large, read_count Count, class Where, class P>
io_request<P> post_transfer(const std::shared_ptr<const file_state>& s, const char* operation,
                            Where where, P&& payload, bool reading) {
  io_transfer<P> t;
  t.buffer_ = held<P, holder_site::moving>(std::forward<P>(payload));
  t.plan_ = plan_of(t.buffer_.get());
  check_element(*s, operation, where, t.plan_);
  t.site_ = transfer_site(*s, operation, where, t.plan_);
  t.file_ = s;
  t.reading_ = reading;
  if constexpr (Count != read_count::status) {
    t.start_ = start_of(*s, t.site_, where);
    t.bound_after_ = Count == read_count::after;
  }
  if constexpr (Count == read_count::before) {
    t.limit_ = bound_read<P>(*s, t.site_, t.start_, t.plan_);
  }
  const int rc = io_call<Classic, Large>(s->handle, where, t.plan_.data, t.plan_.count,
                                         t.plan_.type, &t.handle_);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_io(rc, t.site_);
  }
  return io_request<P>(std::move(t));
}

}  // namespace detail

/// The nonblocking transfers of File (thinmpi::file), which gives its shared state by
/// `shared_state(operation)`.
template <class File>
class file_nonblocking {
 public:
  /// write_at as a request (MPI_File_iwrite_at).
  template <class P>
  [[nodiscard]] io_request<P> iwrite_at(file_offset offset, P&& payload) const {
    detail::require_sendable<P>();
    return detail::post_transfer<&MPI_File_iwrite_at, THINMPI_LARGE_COUNT_CALL(MPI_File_iwrite_at),
                                 detail::read_count::status>(shared("MPI_File_iwrite_at"),
                                                             "MPI_File_iwrite_at", offset,
                                                             std::forward<P>(payload), false);
  }
  /// read_at as a request (MPI_File_iread_at).
  template <class Into>
  [[nodiscard]] io_request<Into> iread_at(file_offset offset, Into&& into) const {
    detail::require_writable<Into>();
    return detail::post_transfer<&MPI_File_iread_at, THINMPI_LARGE_COUNT_CALL(MPI_File_iread_at),
                                 detail::nonblocking_read>(
        shared("MPI_File_iread_at"), "MPI_File_iread_at", offset, std::forward<Into>(into), true);
  }
  /// write_at_all as a request, collective (MPI_File_iwrite_at_all).
  template <class P>
  [[nodiscard]] io_request<P> iwrite_at_all(file_offset offset, P&& payload) const {
    detail::require_sendable<P>();
    return detail::post_transfer<&MPI_File_iwrite_at_all,
                                 THINMPI_LARGE_COUNT_CALL(MPI_File_iwrite_at_all),
                                 detail::read_count::status>(shared("MPI_File_iwrite_at_all"),
                                                             "MPI_File_iwrite_at_all", offset,
                                                             std::forward<P>(payload), false);
  }
  /// read_at_all as a request, collective (MPI_File_iread_at_all).
  template <class Into>
  [[nodiscard]] io_request<Into> iread_at_all(file_offset offset, Into&& into) const {
    detail::require_writable<Into>();
    return detail::post_transfer<&MPI_File_iread_at_all,
                                 THINMPI_LARGE_COUNT_CALL(MPI_File_iread_at_all),
                                 detail::nonblocking_collective_read>(
        shared("MPI_File_iread_at_all"), "MPI_File_iread_at_all", offset, std::forward<Into>(into),
        true);
  }
  /// write as a request, at this rank's file pointer (MPI_File_iwrite).
  template <class P>
  [[nodiscard]] io_request<P> iwrite(P&& payload) const {
    detail::require_sendable<P>();
    return detail::post_transfer<&MPI_File_iwrite, THINMPI_LARGE_COUNT_CALL(MPI_File_iwrite),
                                 detail::read_count::status>(
        shared("MPI_File_iwrite"), "MPI_File_iwrite", detail::at_pointer{},
        std::forward<P>(payload), false);
  }
  /// read as a request, at this rank's file pointer (MPI_File_iread).
  template <class Into>
  [[nodiscard]] io_request<Into> iread(Into&& into) const {
    detail::require_writable<Into>();
    return detail::post_transfer<&MPI_File_iread, THINMPI_LARGE_COUNT_CALL(MPI_File_iread),
                                 detail::nonblocking_read>(shared("MPI_File_iread"),
                                                           "MPI_File_iread", detail::at_pointer{},
                                                           std::forward<Into>(into), true);
  }
  /// write_all as a request, collective (MPI_File_iwrite_all).
  template <class P>
  [[nodiscard]] io_request<P> iwrite_all(P&& payload) const {
    detail::require_sendable<P>();
    return detail::post_transfer<&MPI_File_iwrite_all,
                                 THINMPI_LARGE_COUNT_CALL(MPI_File_iwrite_all),
                                 detail::read_count::status>(
        shared("MPI_File_iwrite_all"), "MPI_File_iwrite_all", detail::at_pointer{},
        std::forward<P>(payload), false);
  }
  /// read_all as a request, collective (MPI_File_iread_all).
  template <class Into>
  [[nodiscard]] io_request<Into> iread_all(Into&& into) const {
    detail::require_writable<Into>();
    return detail::post_transfer<&MPI_File_iread_all, THINMPI_LARGE_COUNT_CALL(MPI_File_iread_all),
                                 detail::nonblocking_collective_read>(
        shared("MPI_File_iread_all"), "MPI_File_iread_all", detail::at_pointer{},
        std::forward<Into>(into), true);
  }
  /// write_shared as a request (MPI_File_iwrite_shared).
  template <class P>
  [[nodiscard]] io_request<P> iwrite_shared(P&& payload) const {
    detail::require_sendable<P>();
    return detail::post_transfer<&MPI_File_iwrite_shared,
                                 THINMPI_LARGE_COUNT_CALL(MPI_File_iwrite_shared),
                                 detail::read_count::status>(
        shared("MPI_File_iwrite_shared"), "MPI_File_iwrite_shared", detail::at_shared{},
        std::forward<P>(payload), false);
  }
  /// read_shared as a request (MPI_File_iread_shared).
  template <class Into>
  [[nodiscard]] io_request<Into> iread_shared(Into&& into) const {
    detail::require_writable<Into>();
    return detail::post_transfer<&MPI_File_iread_shared,
                                 THINMPI_LARGE_COUNT_CALL(MPI_File_iread_shared),
                                 detail::nonblocking_read>(
        shared("MPI_File_iread_shared"), "MPI_File_iread_shared", detail::at_shared{},
        std::forward<Into>(into), true);
  }

 private:
  [[nodiscard]] std::shared_ptr<const detail::file_state> shared(const char* operation) const {
    return static_cast<const File&>(*this).shared_state(operation);
  }
};

}  // namespace thinmpi
