#pragma once
/// \file
/// The byte-level half of thinmpi's serialization: an unchecked writer for buffers sized by an
/// exact size pass, a reader that checks every read against the bytes left, and the error a
/// malformed message raises (naming the type being decoded and the byte offset).
///
/// Wire format: native byte order and native sizes (MPI programs are homogeneous: every rank
/// runs on the same kind of machine), lengths and counts as 64-bit unsigned integers, no
/// padding and no alignment: values are copied with std::memcpy.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/type_name.hpp"
#include "thinmpi/core/error.hpp"

namespace thinmpi {

/// A message that does not decode as the type asked for: too short, a length larger than the
/// bytes left, an invalid tag (optional, variant, bool), a duplicate key, or bytes left over.
/// An mpi_error (class MPI_ERR_OTHER) that also tells where decoding stopped.
///
///     thinmpi::serialized_bytes bytes = thinmpi::to_bytes(std::string("abc"));
///     try {
///       auto text = thinmpi::from_bytes<std::string>(std::span(bytes).first(2));
///     } catch (const thinmpi::serialization_error& e) { use(e.offset(), e.type_name()); }
class serialization_error : public mpi_error {
 public:
  /// The error with its report, the type being decoded at the failure, and the byte offset.
  serialization_error(const std::string& what, report fields, std::string type_name,
                      std::size_t offset, std::size_t message_bytes)
      : mpi_error(what, std::move(fields)),
        type_name_(std::move(type_name)),
        offset_(offset),
        message_bytes_(message_bytes) {}

  /// The (innermost) type whose bytes were being read when decoding failed.
  [[nodiscard]] const std::string& type_name() const noexcept { return type_name_; }
  /// The byte offset in the message where decoding failed.
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }
  /// The size of the whole message in bytes.
  [[nodiscard]] std::size_t message_bytes() const noexcept { return message_bytes_; }

 private:
  std::string type_name_;
  std::size_t offset_;
  std::size_t message_bytes_;
};

namespace detail::serial {

/// Why decoding stopped, before the receive that got the bytes adds where they came from.
struct decode_failure {
  std::string_view type;  ///< the innermost type being read
  std::size_t offset = 0;
  std::size_t message_bytes = 0;
  std::string problem;
};

/// Throws the serialization_error for a failure, with the context of the receive (operation,
/// communicator, source, tag) when there was one.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_decode(const decode_failure& failure,
                                                                std::string_view decoded,
                                                                error_site site) {
  site.problem = "cannot decode the message of " + counted(failure.message_bytes, "byte", "bytes") +
                 " as " + readable_name(decoded) + ": at byte " + std::to_string(failure.offset) +
                 ", reading " + readable_name(failure.type) + ", " + failure.problem;
  mpi_error::report report = make_report(MPI_ERR_OTHER, site);
  std::string what = describe(report, site);
  throw serialization_error(what, std::move(report), readable_name(failure.type), failure.offset,
                            failure.message_bytes);
}

/// Writes into a buffer that a size pass made exactly large enough: no checks.
class byte_writer {
 public:
  explicit byte_writer(std::byte* out) noexcept : out_(out) {}
  void put(const void* data, std::size_t n) noexcept {
    if (n != 0) std::memcpy(out_, data, n);
    out_ += n;
  }
  template <class V>
  void put_value(const V& value) noexcept {
    std::memcpy(out_, &value, sizeof(V));
    out_ += sizeof(V);
  }
  void put_length(std::size_t n) noexcept { put_value(static_cast<std::uint64_t>(n)); }
  [[nodiscard]] std::byte* position() const noexcept { return out_; }

 private:
  std::byte* out_;
};

/// Reads untrusted bytes: every read is checked against the bytes left, every length against
/// the bytes its elements need at least, before anything is allocated.
class byte_reader {
 public:
  byte_reader(const std::byte* data, std::size_t size) noexcept
      : begin_(data), at_(data), end_(data + size) {}

  [[nodiscard]] std::size_t left() const noexcept { return static_cast<std::size_t>(end_ - at_); }
  [[nodiscard]] std::size_t offset() const noexcept {
    return static_cast<std::size_t>(at_ - begin_);
  }
  [[nodiscard]] std::size_t size() const noexcept {
    return static_cast<std::size_t>(end_ - begin_);
  }

  /// n bytes, or a failure naming `type`.
  const std::byte* take(std::size_t n, std::string_view type) {
    if (n > left()) [[unlikely]] {
      fail_short(n, type);
    }
    const std::byte* here = at_;
    at_ += n;
    return here;
  }
  template <class V>
  V take_value(std::string_view type) {
    V value;
    std::memcpy(&value, take(sizeof(V), type), sizeof(V));
    return value;
  }
  /// A length of elements of which each takes at least min_bytes (at least 1) on the wire:
  /// checked against the bytes left, so no length can make the decoder allocate more than the
  /// message could fill.
  std::size_t take_length(std::size_t min_bytes, std::string_view type) {
    const auto n = take_value<std::uint64_t>(type);
    if (n > left() / min_bytes) [[unlikely]] {
      fail_length(n, min_bytes, type);
    }
    return static_cast<std::size_t>(n);
  }
  [[noreturn, gnu::cold]] void fail(std::string_view type, std::string problem) const {
    throw decode_failure{type, offset(), size(), std::move(problem)};
  }

 private:
  // The failures' messages are built out of line: inlined, their string code made take and
  // take_length too large to inline, and every length read became a call and a division.
  [[noreturn, gnu::cold, gnu::noinline]] void fail_short(std::size_t n,
                                                         std::string_view type) const {
    fail(type, "the message ends after " + std::to_string(left()) + " more bytes, " +
                   std::to_string(n) + " needed");
  }
  /// The error is reported at the length itself, which the reader steps back over.
  [[noreturn, gnu::cold, gnu::noinline]] void fail_length(std::uint64_t n, std::size_t min_bytes,
                                                          std::string_view type) {
    const std::size_t after = left();
    at_ -= sizeof(std::uint64_t);
    fail(type, "a length of " + counted(static_cast<std::size_t>(n), "element", "elements") +
                   " of at least " + counted(min_bytes, "byte", "bytes") + " each exceeds the " +
                   counted(after, "byte", "bytes") + " left");
  }

  const std::byte* begin_;
  const std::byte* at_;
  const std::byte* end_;
};

}  // namespace detail::serial
}  // namespace thinmpi
