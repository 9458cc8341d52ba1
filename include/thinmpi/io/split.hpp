#pragma once
/// \file
/// The split collectives of a thinmpi::file: `write_at_all_begin(offset, payload)` starts a
/// collective transfer (MPI_File_write_at_all_begin) and returns a thinmpi::io_split, whose
/// end() finishes it (MPI_File_write_at_all_end) and returns what wait() of a request would:
/// the elements transferred, or the buffer if it was moved in. MPI allows one split collective
/// at a time on a file; the buffer is borrowed or owned as a request's is. A split not ended
/// is ended by its destructor (collective, errors dropped), except while an exception unwinds
/// the stack, as ~file() explains.
///
///     thinmpi::file f(world, "out.bin", thinmpi::file_mode::write | thinmpi::file_mode::create);
///     std::vector<double> block(n, 1.0);
///     auto part = f.write_all_begin(std::move(block));  // computation may overlap the write
///     block = part.end();

#include <cstddef>
#include <exception>
#include <memory>
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

namespace thinmpi {

/// A split collective transfer begun on a file: end() finishes it (see the file comment).
/// Move-only.
template <class P>
class [[nodiscard]] io_split {
 public:
  /// The MPI function that ends a split collective, with the buffer as void*.
  using end_call = int (*)(MPI_File, void*, MPI_Status*);

  /// No transfer.
  io_split() = default;
  /// Takes the transfer over; the moved-from split has none (its destructor ends nothing).
  io_split(io_split&& other) noexcept
      : buffer_(std::move(other.buffer_)),
        file_(std::move(other.file_)),
        site_(std::move(other.site_)),
        plan_(other.plan_),
        end_(std::exchange(other.end_, nullptr)),
        limit_(other.limit_),
        start_(other.start_),
        bound_after_(other.bound_after_),
        reading_(other.reading_),
        uncaught_(other.uncaught_) {}
  io_split& operator=(io_split&&) = delete;
  io_split(const io_split&) = delete;
  io_split& operator=(const io_split&) = delete;
  /// Ends a transfer not ended yet (collective), except while an exception unwinds.
  ~io_split() {
    if (end_ == nullptr || std::uncaught_exceptions() > uncaught_ || !detail::mpi_is_running()) {
      return;
    }
    try {
      (void)end();
    } catch (...) {
      // Ended by the destructor: nobody is left to hear of its failure.
    }
  }

  /// Whether the transfer has begun and not ended.
  [[nodiscard]] bool active() const noexcept { return end_ != nullptr; }

  /// Finishes the transfer (collective): the elements transferred, or the buffer moved in.
  /// Throws as the blocking form does (a short write, a partial element read).
  auto end() {
    if (end_ == nullptr) [[unlikely]] {
      detail::io_site site = site_;
      site.problem = "the split collective has ended already, or never began";
      detail::raise_io(MPI_ERR_REQUEST, site);
    }
    MPI_Status status;
    const int rc = std::exchange(end_, nullptr)(file_->handle, plan_.data, &status);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_io(rc, site_);
    }
    std::size_t done = plan_.elements;
    if (reading_) {
      if constexpr (!std::is_const_v<std::remove_reference_t<decltype(buffer_.get())>>) {
        if (bound_after_) limit_ = detail::elements_before_end(*file_, site_, start_, plan_);
        done = detail::finish_read(buffer_.get(), site_, plan_, status, limit_);
      }
    } else {
      detail::finish_write(site_, plan_, status);
    }
    if constexpr (detail::held<P, detail::holder_site::moving>::owned) {
      return buffer_.take();
    } else {
      return done;
    }
  }

  /// Begins a transfer (thinmpi::file's `_begin` members make them).
  template <auto Begin, auto Large, detail::read_count Count, class Where>
  static io_split begin(std::shared_ptr<const detail::file_state> file, const char* operation,
                        Where where, P&& payload, bool reading, end_call end) {
    io_split split;
    split.buffer_ = detail::held<P, detail::holder_site::moving>(std::forward<P>(payload));
    split.plan_ = detail::plan_of(split.buffer_.get());
    detail::check_element(*file, operation, where, split.plan_);
    split.site_ = detail::transfer_site(*file, operation, where, split.plan_);
    if constexpr (Count != detail::read_count::status) {
      split.start_ = detail::start_of(*file, split.site_, where);
      split.bound_after_ = Count == detail::read_count::after;
    }
    if constexpr (Count == detail::read_count::before) {
      split.limit_ = detail::bound_read<P>(*file, split.site_, split.start_, split.plan_);
    }
    const int rc = detail::io_call<Begin, Large>(file->handle, where, split.plan_.data,
                                                 split.plan_.count, split.plan_.type);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_io(rc, split.site_);
    }
    split.file_ = std::move(file);
    split.reading_ = reading;
    split.end_ = end;
    split.uncaught_ = std::uncaught_exceptions();
    return split;
  }

 private:
  detail::held<P, detail::holder_site::moving> buffer_{};
  std::shared_ptr<const detail::file_state> file_{};
  detail::io_site site_{};
  detail::io_plan plan_{};
  end_call end_ = nullptr;
  std::size_t limit_ = detail::unknown_count;
  file_offset start_ = 0;
  bool bound_after_ = false;
  bool reading_ = false;
  int uncaught_ = 0;
};

/// The split collectives of File (thinmpi::file), which gives its shared state by
/// `shared_state(operation)`.
template <class File>
class file_split {
 public:
  /// Begins write_at_all (MPI_File_write_at_all_begin); end() finishes it.
  template <class P>
  io_split<P> write_at_all_begin(file_offset offset, P&& payload) const {
    detail::require_sendable<P>();
    return io_split<P>::template begin<&MPI_File_write_at_all_begin,
                                       THINMPI_LARGE_COUNT_CALL(MPI_File_write_at_all_begin),
                                       detail::read_count::status>(
        shared("MPI_File_write_at_all_begin"), "MPI_File_write_at_all_begin", offset,
        std::forward<P>(payload), false,
        [](MPI_File f, void* b, MPI_Status* s) { return MPI_File_write_at_all_end(f, b, s); });
  }
  /// Begins read_at_all (MPI_File_read_at_all_begin); end() finishes it.
  template <class Into>
  io_split<Into> read_at_all_begin(file_offset offset, Into&& into) const {
    detail::require_writable<Into>();
    return io_split<Into>::template begin<&MPI_File_read_at_all_begin,
                                          THINMPI_LARGE_COUNT_CALL(MPI_File_read_at_all_begin),
                                          detail::nonblocking_collective_read>(
        shared("MPI_File_read_at_all_begin"), "MPI_File_read_at_all_begin", offset,
        std::forward<Into>(into), true,
        [](MPI_File f, void* b, MPI_Status* s) { return MPI_File_read_at_all_end(f, b, s); });
  }
  /// Begins write_all (MPI_File_write_all_begin); end() finishes it.
  template <class P>
  io_split<P> write_all_begin(P&& payload) const {
    detail::require_sendable<P>();
    return io_split<P>::template begin<&MPI_File_write_all_begin,
                                       THINMPI_LARGE_COUNT_CALL(MPI_File_write_all_begin),
                                       detail::read_count::status>(
        shared("MPI_File_write_all_begin"), "MPI_File_write_all_begin", detail::at_pointer{},
        std::forward<P>(payload), false,
        [](MPI_File f, void* b, MPI_Status* s) { return MPI_File_write_all_end(f, b, s); });
  }
  /// Begins read_all (MPI_File_read_all_begin); end() finishes it.
  template <class Into>
  io_split<Into> read_all_begin(Into&& into) const {
    detail::require_writable<Into>();
    return io_split<Into>::template begin<&MPI_File_read_all_begin,
                                          THINMPI_LARGE_COUNT_CALL(MPI_File_read_all_begin),
                                          detail::nonblocking_collective_read>(
        shared("MPI_File_read_all_begin"), "MPI_File_read_all_begin", detail::at_pointer{},
        std::forward<Into>(into), true,
        [](MPI_File f, void* b, MPI_Status* s) { return MPI_File_read_all_end(f, b, s); });
  }
  /// Begins write_ordered (MPI_File_write_ordered_begin); end() finishes it.
  template <class P>
  io_split<P> write_ordered_begin(P&& payload) const {
    detail::require_sendable<P>();
    return io_split<P>::template begin<&MPI_File_write_ordered_begin,
                                       THINMPI_LARGE_COUNT_CALL(MPI_File_write_ordered_begin),
                                       detail::read_count::status>(
        shared("MPI_File_write_ordered_begin"), "MPI_File_write_ordered_begin", detail::at_shared{},
        std::forward<P>(payload), false,
        [](MPI_File f, void* b, MPI_Status* s) { return MPI_File_write_ordered_end(f, b, s); });
  }
  /// Begins read_ordered (MPI_File_read_ordered_begin); end() finishes it.
  template <class Into>
  io_split<Into> read_ordered_begin(Into&& into) const {
    detail::require_writable<Into>();
    return io_split<Into>::template begin<&MPI_File_read_ordered_begin,
                                          THINMPI_LARGE_COUNT_CALL(MPI_File_read_ordered_begin),
                                          detail::nonblocking_read>(
        shared("MPI_File_read_ordered_begin"), "MPI_File_read_ordered_begin", detail::at_shared{},
        std::forward<Into>(into), true,
        [](MPI_File f, void* b, MPI_Status* s) { return MPI_File_read_ordered_end(f, b, s); });
  }

 private:
  [[nodiscard]] std::shared_ptr<const detail::file_state> shared(const char* operation) const {
    return static_cast<const File&>(*this).shared_state(operation);
  }
};

}  // namespace thinmpi
