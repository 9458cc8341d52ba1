#pragma once
/// \file
/// bcast, ibcast and bcast_init: the root's buffer into every rank's (MPI_Bcast), and the
/// form that broadcasts the size first for a container whose size only the root knows. A root
/// outside the communicator (MPI's check, on the ranks that pass it) or a count past INT_MAX of
/// the nonblocking forms ends the job; checked collectives agree on both first, so that every
/// rank throws (detail/root_checks.hpp).

#include <cstddef>
#include <memory>
#include <ranges>
#include <type_traits>
#include <utility>

#include "thinmpi/collectives/detail/collective_buffers.hpp"
#include "thinmpi/collectives/detail/collective_call.hpp"
#include "thinmpi/collectives/detail/collective_state.hpp"
#include "thinmpi/collectives/detail/persistent_calls.hpp"
#include "thinmpi/collectives/detail/root_checks.hpp"
#include "thinmpi/collectives/exchange_counts.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/requests/collective_request.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi {

namespace detail {

inline int bcast(void* buf, std::size_t n, MPI_Datatype t, int root, MPI_Comm comm) {
  return counted_call<&MPI_Bcast, THINMPI_LARGE_COUNT_CALL(MPI_Bcast)>(counts_at<1>{}, buf, n, t,
                                                                       root, comm);
}

}  // namespace detail

/// The broadcasts of a communicator (comm_view derives from this family).
template <class Comm>
class collective_bcast {
 public:
  /// Copies the root's buffer into every rank's (one MPI_Bcast). A scalar, or a contiguous
  /// range whose size is the same on every rank (MPI requires it; a size that only the root
  /// knows is bcast(container, root, thinmpi::exchange_counts)).
  ///
  ///     std::array<double, 3> origin{};  world.bcast(origin, 0);
  template <class Buffer>
  void bcast(Buffer&& buffer, int root) const {
    if constexpr (detail::serialized_payload<std::remove_cvref_t<Buffer>>) {
      // One error, the one that names the fix (pass thinmpi::exchange_counts), not also the
      // temporary's.
      detail::require_writable<Buffer&&>();
    } else {
      detail::require_receivable<Buffer&&>();
      const detail::mutable_buffer b = detail::recv_buffer(buffer);
      const detail::collective_call call{"MPI_Bcast", comm(), root};
      detail::agree_if_checked(call, {"buffers", b.count, b.type});
      detail::check_collective(detail::bcast(b.data, b.count, b.type, root, comm()), call, b.count,
                               b.type);
    }
  }
  /// Broadcasts a std::vector or std::string whose size only the root knows: the size first
  /// (one MPI_Bcast of a std::uint64_t), then the resized container (a second MPI_Bcast).
  ///
  ///     std::string name;                                // set on the root only
  ///     world.bcast(name, 0, thinmpi::exchange_counts);  // 2 MPI calls
  template <resizable_payload Container>
  void bcast(Container& container, int root, exchange_counts_t) const {
    detail::agree_if_checked({"MPI_Bcast", comm(), root});
    unsigned long long size = container.size();
    if (const int rc = MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, root, comm()); rc != MPI_SUCCESS)
        [[unlikely]] {
      size_failed(rc, {"MPI_Bcast", comm(), root}, container.size(),
                  detail::recv_buffer(container).type);
    }
    container.resize(static_cast<std::size_t>(size));
    bcast(container, root);
  }
  /// Broadcasts a serialized value (serialization/serialized.hpp): 2 MPI calls, an MPI_Bcast of
  /// its byte size and an MPI_Bcast of the bytes (any size). The root encodes x once; every other
  /// rank allocates the bytes and decodes them into its x (a named, non-const object).
  ///
  ///     std::map<std::string, double> config;  // filled on the root
  ///     world.bcast(thinmpi::serialized(config), 0, thinmpi::exchange_counts);
  template <detail::serialized_payload Payload>
  void bcast(Payload&& payload, int root, exchange_counts_t) const {
    std::remove_cvref_t<Payload>::bcast(static_cast<const Comm&>(*this), payload, root);
  }
  /// Starts a broadcast (MPI_Ibcast). A named buffer or a view is borrowed and must outlive the
  /// request; a buffer moved in is owned by the request and handed back by wait().
  template <class Buffer>
  [[nodiscard]] auto ibcast(Buffer&& buffer, int root) const {
    detail::require_writable<Buffer&&>();
    using state = detail::payload_state<Buffer&&>;
    auto kept = std::make_unique<state>(std::forward<Buffer>(buffer),
                                        detail::collective_call{"MPI_Ibcast", comm(), root});
    const detail::mutable_buffer b = detail::recv_buffer(kept->payload.get());
    kept->count = b.count;
    kept->type = b.type;
    detail::alike_checks(kept->call, [&] { detail::check_int_count(kept->call, b.count, b.type); });
    detail::agree_if_checked(kept->call, {"buffers", b.count, b.type});
    MPI_Request handle = MPI_REQUEST_NULL;
    detail::check_collective(
        MPI_Ibcast(b.data, detail::to_int(b.count), b.type, root, comm(), &handle), kept->call,
        b.count, b.type);
    return collective_request<state>(std::move(kept), handle);
  }
  /// A persistent broadcast of a named buffer (MPI-4 MPI_Bcast_init; Open MPI 4.1:
  /// MPIX_Bcast_init): each start() / wait() round broadcasts its current contents.
  template <class Buffer>
  [[nodiscard]] auto bcast_init(Buffer& buffer, int root) const {
    detail::require_writable<Buffer&>();
    using state = detail::payload_state<Buffer&>;
    auto kept =
        std::make_unique<state>(buffer, detail::collective_call{"MPI_Bcast_init", comm(), root});
    const detail::mutable_buffer b = detail::recv_buffer(buffer);
    kept->count = b.count;
    kept->type = b.type;
    detail::alike_checks(kept->call, [&] { detail::check_int_count(kept->call, b.count, b.type); });
    detail::agree_if_checked(kept->call, {"buffers", b.count, b.type});
    MPI_Request handle = MPI_REQUEST_NULL;
    detail::check_collective(
        detail::persistent_call<detail::persistent_collective::bcast>(
            b.data, detail::to_int(b.count), b.type, root, comm(), MPI_INFO_NULL, &handle),
        kept->call, b.count, b.type);
    return persistent_request<state>(std::move(kept), handle);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
  /// The size broadcast of bcast(container, root, exchange_counts) failed: the error names the
  /// user's call and container (this rank's elements), not the size message (a root outside
  /// the communicator: raise_collective ends the job with this text).
  [[noreturn, gnu::cold, gnu::noinline]] static void size_failed(
      int rc, const detail::collective_call& call, std::size_t count, MPI_Datatype type) {
    detail::raise_collective(rc, call, count, type,
                             detail::mpi_reason(detail::mpi_error_string(rc)) +
                                 " (broadcasting the size first, as bcast(container, root, "
                                 "thinmpi::exchange_counts) does)");
  }
};

}  // namespace thinmpi
