#pragma once
/// \file
/// The one engine under every read and write of a thinmpi::file, blocking, nonblocking and
/// split: a payload as MPI sees it (io_plan), the MPI-IO call with std::size_t counts (the
/// classic call when the count fits an int; MPI-4's `_c` call or a spanning datatype beyond,
/// as every family's calls), and what happens once MPI has finished: a write must have written
/// every byte; a read says how many elements it got, shrinks a resizable container to them,
/// and refuses a partial element or a scalar it could not fill.

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"
#include "thinmpi/io/detail/file_state.hpp"
#include "thinmpi/io/detail/raise_io.hpp"
#include "thinmpi/io/modes.hpp"

namespace thinmpi::detail {

/// The position argument of a call at this rank's file pointer: none.
struct at_pointer {};
/// The position argument of a call at the shared file pointer: none.
struct at_shared {};

/// A payload's address, MPI count and datatype, and the elements of T it holds.
struct io_plan {
  void* data;
  std::size_t count;  ///< MPI count (1 for a view: one element of its datatype)
  MPI_Datatype type;
  MPI_Datatype element;  ///< the element's datatype (a view's element, not the view's type)
  std::size_t elements;
  std::size_t element_bytes;
};

/// The plan of a payload to write or a target to read into.
template <class P>
[[nodiscard]] io_plan plan_of(P& payload) {
  using U = std::remove_cvref_t<P>;
  using E = std::remove_cv_t<element_t<U>>;
  std::size_t elements = 1;
  if constexpr (contiguous_payload<U>) {
    elements = std::ranges::size(payload);
  } else if constexpr (view_payload<U>) {
    elements = payload.size();
  }
  const const_buffer b = send_buffer(static_cast<const U&>(payload));
  return {const_cast<void*>(b.data), b.count, b.type, datatype_of<E>(), elements, wire_size<E>()};
}

/// The site of a transfer, with the offset where there is one.
template <class Where>
[[nodiscard]] io_site transfer_site(const file_state& s, const char* operation, Where where,
                                    const io_plan& plan) {
  std::optional<file_offset> offset;
  if constexpr (std::is_same_v<Where, file_offset>) offset = where;
  return s.site(operation, offset, plan.elements, plan.element);
}

/// Throws unless the payload's elements are the view's (any element in the byte view).
template <class Where>
void check_element(const file_state& s, const char* operation, Where where, const io_plan& plan) {
  if (s.etype != MPI_BYTE && s.etype != plan.element) [[unlikely]] {
    io_site site = transfer_site(s, operation, where, plan);
    site.problem = "the file's view has elements of " + datatype_name(s.etype) + ", this buffer " +
                   datatype_name(plan.element) +
                   ": read and write the view's element type, or set a view of this one";
    raise_io(MPI_ERR_TYPE, site);
  }
}

/// Calls an MPI-IO data function `Classic` (`Large`: its `_c` variant or nullptr) as
/// (fh, [offset,] buffer, count, datatype, tail...).
template <auto Classic, auto Large, class Buffer, class... Tail>
[[gnu::always_inline]] inline int io_call(MPI_File fh, file_offset offset, Buffer data,
                                          std::size_t count, MPI_Datatype type, Tail... tail) {
  return counted_call<Classic, Large>(counts_at<3>{}, fh, static_cast<MPI_Offset>(offset), data,
                                      count, type, tail...);
}
template <auto Classic, auto Large, class Buffer, class... Tail>
[[gnu::always_inline]] inline int io_call(MPI_File fh, at_pointer, Buffer data, std::size_t count,
                                          MPI_Datatype type, Tail... tail) {
  return counted_call<Classic, Large>(counts_at<2>{}, fh, data, count, type, tail...);
}
template <auto Classic, auto Large, class Buffer, class... Tail>
[[gnu::always_inline]] inline int io_call(MPI_File fh, at_shared, Buffer data, std::size_t count,
                                          MPI_Datatype type, Tail... tail) {
  return counted_call<Classic, Large>(counts_at<2>{}, fh, data, count, type, tail...);
}

/// After a write: throws unless MPI wrote every byte (it reports a short write, such as a full
/// disk, in the status where it does not fail the call).
inline void finish_write(const io_site& site, const io_plan& plan, const MPI_Status& status) {
  const std::size_t wanted = plan.elements * plan.element_bytes;
  const std::size_t bytes = status_bytes(status);
  if (bytes != wanted) [[unlikely]] {
    io_site short_site = site;
    short_site.problem = "wrote " + counted(bytes, "byte", "bytes") + " of " +
                         std::to_string(wanted) + "; the rest was not written";
    raise_io(MPI_ERR_IO, short_site);
  }
}

/// How far a read trusts the count MPI reports.
///
/// MPI-4.0 section 14.4.3 says a read's status counts what was read, fewer elements at the end
/// of the file. Collective reads that reach past the end report the count asked for instead,
/// leaving stale data in the buffer as if it had been read: MPICH 4.0.2's read_at_all,
/// read_all, their nonblocking and split forms (ROMIO, pmodels/mpich#1085), Open MPI 4.1.4's
/// read_all (OMPIO, open-mpi/ompi#14015). And Open MPI 4.1.4's nonblocking and split reads
/// that reach past the end never complete (OMPIO's fbtl/posix progress retries the missing
/// bytes forever). So:
/// - `after`: collective reads count at most the elements that lie before the end of the file
///   once the read has completed (MPI_File_get_size and MPI_File_get_byte_offset, local calls,
///   plus MPI_File_get_position before the read for the individual pointer);
/// - `before`: on Open MPI, nonblocking and split reads ask the same before they are posted
///   and read no more into a contiguous target. The file's size is then as this rank sees it:
///   data other ranks wrote counts once MPI's consistency rules make it visible
///   (MPI_File_sync, a barrier, MPI_File_sync), as it does for the read itself.
enum class read_count { status, before, after };

#if defined(OPEN_MPI)
/// An independent nonblocking or split read, or a read_ordered split.
inline constexpr read_count nonblocking_read = read_count::before;
/// A collective nonblocking or split read.
inline constexpr read_count nonblocking_collective_read = read_count::before;
#else
inline constexpr read_count nonblocking_read = read_count::status;
inline constexpr read_count nonblocking_collective_read = read_count::after;
#endif

/// The view offset a read at `where` starts from: `where`, or this rank's file pointer.
inline file_offset start_of(const file_state& s, const io_site& site, file_offset where) {
  (void)s;
  (void)site;
  return where;
}
inline file_offset start_of(const file_state& s, const io_site& site, at_pointer) {
  MPI_Offset position = 0;
  if (const int rc = MPI_File_get_position(s.handle, &position); rc != MPI_SUCCESS) {
    raise_io(rc, site);
  }
  return position;
}
inline file_offset start_of(const file_state& s, const io_site& site, at_shared) {
  MPI_Offset position = 0;
  if (const int rc = MPI_File_get_position_shared(s.handle, &position); rc != MPI_SUCCESS) {
    raise_io(rc, site);
  }
  return position;
}

/// The elements of `plan` that lie before the end of the file from view offset `first`.
inline std::size_t elements_before_end(const file_state& s, const io_site& site, file_offset first,
                                       const io_plan& plan) {
  MPI_Offset file_bytes = 0;
  if (const int rc = MPI_File_get_size(s.handle, &file_bytes); rc != MPI_SUCCESS) {
    raise_io(rc, site);
  }
  const std::size_t total = plan.elements * plan.element_bytes / s.etype_bytes;  // etypes
  const auto fits = [&](std::size_t etypes) {  // the first `etypes` lie before the end
    if (etypes == 0) return true;
    MPI_Offset byte = 0;
    if (const int rc =
            MPI_File_get_byte_offset(s.handle, first + static_cast<MPI_Offset>(etypes) - 1, &byte);
        rc != MPI_SUCCESS) {
      raise_io(rc, site);
    }
    return byte + static_cast<MPI_Offset>(s.etype_bytes) <= file_bytes;
  };
  if (fits(total)) [[likely]] {
    return plan.elements;
  }
  std::size_t low = 0;       // fits
  std::size_t high = total;  // does not
  while (high - low > 1) {
    const std::size_t middle = low + (high - low) / 2;
    (fits(middle) ? low : high) = middle;
  }
  return low * s.etype_bytes / plan.element_bytes;
}

/// For a read bounded `before`: the elements that can be read, and the target's MPI count cut
/// to them where the target is contiguous (a view is read whole; its count is cut afterwards).
template <class Into>
std::size_t bound_read(const file_state& s, const io_site& site, file_offset start, io_plan& plan) {
  const std::size_t can = elements_before_end(s, site, start, plan);
  if constexpr (!view_payload<std::remove_cvref_t<Into>>) {
    if (can < plan.elements) plan.count = can;
  }
  return can;
}

/// After a read into `into`: the elements read (at most `limit`). A resizable container
/// shrinks to them; a partial element, or a scalar not filled, throws (the file pointer has
/// moved on as MPI moved it).
template <class Into>
std::size_t finish_read(Into& into, const io_site& site, const io_plan& plan,
                        const MPI_Status& status, std::size_t limit = unknown_count) {
  using U = std::remove_cvref_t<Into>;
  std::size_t bytes = status_bytes(status);
  if (limit != unknown_count && bytes > limit * plan.element_bytes) [[unlikely]] {
    bytes = limit * plan.element_bytes;
  }
  if (bytes == plan.elements * plan.element_bytes) [[likely]] {
    return plan.elements;
  }
  if (bytes % plan.element_bytes != 0 ||
      (!contiguous_payload<U> && !view_payload<U> && bytes != plan.element_bytes)) [[unlikely]] {
    io_site short_site = site;
    short_site.problem = "read " + counted(bytes, "byte", "bytes") + " of " +
                         std::to_string(plan.elements * plan.element_bytes) +
                         (bytes % plan.element_bytes != 0 ? ", not a whole number of elements"
                                                          : ": the file ends before the element");
    raise_io(MPI_ERR_IO, short_site);
  }
  const std::size_t got = bytes / plan.element_bytes;
  if constexpr (resizable_payload<U>) into.resize(got);
  return got;
}

/// One blocking write through `Classic`.
template <auto Classic, auto Large, class Where, class P>
void write_with(const file_state& s, const char* operation, Where where, const P& payload) {
  io_plan plan = plan_of(payload);
  check_element(s, operation, where, plan);
  MPI_Status status;
  const int rc = io_call<Classic, Large>(s.handle, where, static_cast<const void*>(plan.data),
                                         plan.count, plan.type, &status);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_io(rc, transfer_site(s, operation, where, plan));
  }
  finish_write(transfer_site(s, operation, where, plan), plan, status);
}

/// One blocking read through `Classic`; returns the elements read.
template <auto Classic, auto Large, read_count Count, class Where, class Into>
std::size_t read_with(const file_state& s, const char* operation, Where where, Into& into) {
  io_plan plan = plan_of(into);
  check_element(s, operation, where, plan);
  file_offset start = 0;
  if constexpr (Count != read_count::status) {
    start = start_of(s, transfer_site(s, operation, where, plan), where);
  }
  MPI_Status status;
  const int rc =
      io_call<Classic, Large>(s.handle, where, plan.data, plan.count, plan.type, &status);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_io(rc, transfer_site(s, operation, where, plan));
  }
  std::size_t limit = unknown_count;
  if constexpr (Count == read_count::after) {
    limit = elements_before_end(s, transfer_site(s, operation, where, plan), start, plan);
  }
  return finish_read(into, transfer_site(s, operation, where, plan), plan, status, limit);
}

}  // namespace thinmpi::detail
