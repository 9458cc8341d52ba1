#pragma once
/// \file
/// Partitioned point-to-point (MPI-4.0 section 4): psend_init and precv_init set a message of
/// `partitions` equal parts up once (MPI_Psend_init, MPI_Precv_init) and return a
/// thinmpi::partitioned_request. Each round is start(), then on the sender pready(p) for every
/// partition (from any thread, as each part is filled: MPI_Pready), on the receiver parrived(p)
/// to use a part before the whole message is in (MPI_Parrived), and wait() on both. The buffer
/// is borrowed as the persistent forms borrow it (p2p/persistent.hpp): a named object or a
/// view that outlives the request, checked at each start() for having moved. Its size must be a
/// whole number of partitions; sender and receiver pass the same count of partitions (MPI 4.0).
///
///     // not compiled: MPI-4 only (MPICH 4); the build that compiles the samples is Open MPI 4.1
///     std::vector<double> field(4 * n);
///     auto out = world.psend_init(field, 4, right, 0);
///     out.start();
///     for (int p = 0; p < 4; ++p) { fill_part(field, p); out.pready(p); }
///     out.wait();
///
/// Where the installed MPI has no partitioned communication (MPI_VERSION below 4: Open MPI 4.1)
/// psend_init and precv_init do not compile, with one sentence saying so.

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/p2p/detail/errors.hpp"
#include "thinmpi/p2p/persistent.hpp"
#include "thinmpi/requests/persistent_request.hpp"

namespace thinmpi {

#if MPI_VERSION >= 4

namespace detail {

/// The State of a partitioned send (Receive false) or receive: a persistent one's, and the
/// count of partitions.
template <class P, bool Receive>
struct partitioned_state : p2p_persistent_state<P, Receive> {
  int partitions = 1;

  /// A round ended: a failure throws; the whole buffer has arrived.
  void finish(int rc, const MPI_Status& status) {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      if constexpr (Receive) {
        raise_receive(rc, this->call, this->shape, status);
      } else {
        this->raise(rc);
      }
    }
  }
  /// What wait() returns: nothing (every partition of the buffer is complete).
  void take() const noexcept {}

  /// Sets the request up on the registered buffer (MPI_Psend_init / MPI_Precv_init); returns
  /// what MPI returned.
  int init_partitioned(MPI_Request* handle) const noexcept {
    const auto per_part =
        static_cast<MPI_Count>(this->shape.count / static_cast<std::size_t>(partitions));
    void* data = const_cast<void*>(this->registered);
    const p2p_call& c = this->call;
    return Receive ? MPI_Precv_init(data, partitions, per_part, this->shape.type, c.peer, c.tag,
                                    c.comm, MPI_INFO_NULL, handle)
                   : MPI_Psend_init(data, partitions, per_part, this->shape.type, c.peer, c.tag,
                                    c.comm, MPI_INFO_NULL, handle);
  }
  /// The request set up again after a failed round (MPI_REQUEST_NULL if that fails).
  MPI_Request renew() noexcept {
    MPI_Request handle = MPI_REQUEST_NULL;
    return init_partitioned(&handle) == MPI_SUCCESS ? handle : MPI_REQUEST_NULL;
  }
};

/// A partition index outside [0, partitions): an mpi_error before MPI is called.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise_partition(const char* operation,
                                                                   const p2p_call& call, int low,
                                                                   int high, int partitions) {
  raise(MPI_ERR_ARG, error_site{.operation = operation,
                                .comm = call.comm,
                                .peer = call.peer,
                                .tag = call.tag,
                                .problem = (low == high ? "partition " + std::to_string(low)
                                                        : "partitions " + std::to_string(low) +
                                                              " to " + std::to_string(high)) +
                                           " of a request of " +
                                           counted(static_cast<std::size_t>(partitions),
                                                   "partition", "partitions") +
                                           (low > high ? " (an empty range)" : "")});
}

/// Sets a partitioned send or receive up (MPI_Psend_init / MPI_Precv_init).
template <bool Receive, class P>
[[nodiscard]] auto partitioned_init(P&& payload, int partitions, p2p_call where) {
  using state_type = partitioned_state<P, Receive>;
  auto state = std::make_unique<state_type>(
      state_type{{held<P>(std::forward<P>(payload)), where, {}, 0}, partitions});
  const mutable_buffer buffer = [&] {
    if constexpr (Receive) {
      return recv_buffer(state->payload.get());
    } else {
      const const_buffer b = send_buffer(state->payload.get());
      return mutable_buffer{const_cast<void*>(b.data), b.count, b.type};
    }
  }();
  state->shape = mutable_buffer{nullptr, buffer.count, buffer.type};
  state->registered = buffer.data;
  if (partitions < 1 || buffer.count % static_cast<std::size_t>(partitions) != 0) [[unlikely]] {
    raise(MPI_ERR_COUNT,
          error_site{.operation = where.operation,
                     .comm = where.comm,
                     .peer = where.peer,
                     .tag = where.tag,
                     .count = buffer.count,
                     .type = buffer.type,
                     .problem = "the buffer of " + std::to_string(buffer.count) +
                                " elements is not " + std::to_string(partitions) +
                                " equal partitions (pass a partition count of 1 or more that "
                                "divides its size)"});
  }
  MPI_Request handle = MPI_REQUEST_NULL;
  if (const int rc = state->init_partitioned(&handle); rc != MPI_SUCCESS) [[unlikely]] {
    if constexpr (Receive) {
      raise_receive(rc, where, buffer, MPI_Status{});
    } else {
      raise_send(rc, where, const_buffer{buffer.data, buffer.count, buffer.type});
    }
  }
  return std::pair{std::move(state), handle};
}

}  // namespace detail

/// A partitioned send or receive (see the file comment): a persistent_request (start, wait,
/// test, wait_all, ...) with the calls of partitions.
template <class State>
class [[nodiscard]] partitioned_request : public persistent_request<State> {
 public:
  /// An empty request.
  partitioned_request() = default;
  /// Owns state and the partitioned MPI request set up on it (not started).
  partitioned_request(std::unique_ptr<State> state, MPI_Request handle) noexcept
      : persistent_request<State>(std::move(state), handle) {}

  /// The number of partitions.
  [[nodiscard]] int partitions() const noexcept { return this->kind().state_->partitions; }
  /// The sender: partition p is filled and may go (MPI_Pready). Before start(), or a p outside
  /// the partitions, is an mpi_error naming it, before MPI is called.
  void pready(int partition) { pready_range(partition, partition, "MPI_Pready"); }
  /// The sender: partitions low to high (inclusive) are filled (MPI_Pready_range).
  void pready_range(int low, int high) { pready_range(low, high, "MPI_Pready_range"); }
  /// The receiver: whether partition p has arrived, so that it may be read before wait()
  /// (MPI_Parrived). Errors as pready().
  [[nodiscard]] bool parrived(int partition) {
    check("MPI_Parrived", partition, partition);
    int flag = 0;
    const int rc = MPI_Parrived(this->kind().handle_, partition, &flag);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      this->kind().state_->raise(rc);
    }
    return flag != 0;
  }

 private:
  void pready_range(int low, int high, const char* operation) {
    check(operation, low, high);
    const int rc = low == high ? MPI_Pready(low, this->kind().handle_)
                               : MPI_Pready_range(low, high, this->kind().handle_);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      this->kind().state_->raise(rc);
    }
  }
  void check(const char* operation, int low, int high) {
    auto& rounds = this->kind();
    const int n = rounds.state_->partitions;
    if (low < 0 || high >= n || low > high) [[unlikely]] {
      detail::raise_partition(operation, rounds.state_->call, low, high, n);
    }
    if (!rounds.started_) [[unlikely]] {
      detail::raise(MPI_ERR_REQUEST,
                    detail::error_site{.operation = operation,
                                       .comm = rounds.state_->call.comm,
                                       .peer = rounds.state_->call.peer,
                                       .tag = rounds.state_->call.tag,
                                       .problem = "no round runs: call start() first"});
    }
  }
};

/// The partitioned point-to-point operations of a communicator (comm_view derives from this
/// family).
template <class Comm>
class p2p_partitioned {
 public:
  /// A partitioned send of `payload` in `partitions` equal parts (MPI_Psend_init); see the file
  /// comment.
  template <class P>
  [[nodiscard]] auto psend_init(P&& payload, int partitions, int dest, int tag) const {
    detail::require_sendable<P>();
    auto [state, handle] = detail::partitioned_init<false>(std::forward<P>(payload), partitions,
                                                           {"MPI_Psend_init", comm(), dest, tag});
    return partitioned_request<detail::partitioned_state<P, false>>(std::move(state), handle);
  }
  /// A partitioned receive into `into` in `partitions` equal parts (MPI_Precv_init).
  template <class Into>
  [[nodiscard]] auto precv_init(Into&& into, int partitions, int source, int tag) const {
    detail::require_receivable<Into>();
    auto [state, handle] = detail::partitioned_init<true>(std::forward<Into>(into), partitions,
                                                          {"MPI_Precv_init", comm(), source, tag});
    return partitioned_request<detail::partitioned_state<Into, true>>(std::move(state), handle);
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }
};

#else

namespace detail {
template <class...>
inline constexpr bool needs_mpi4_partitioned = false;
}  // namespace detail

/// This MPI has no partitioned communication: its calls do not compile (see the file comment).
template <class Comm>
class p2p_partitioned {
 public:
  /// Fails to compile, with one sentence saying why.
  template <class... Args>
  int psend_init(Args&&...) const {
    fail<Args...>();
    return 0;
  }
  /// Fails to compile, with one sentence saying why.
  template <class... Args>
  int precv_init(Args&&...) const {
    fail<Args...>();
    return 0;
  }

 private:
  template <class... Args>
  static consteval void fail() {
    static_assert(detail::needs_mpi4_partitioned<Args...>,
                  "thinmpi: partitioned communication needs MPI-4 (MPI_Psend_init, "
                  "MPI_Precv_init), which this MPI does not have (its mpi.h says MPI_VERSION < "
                  "4, as Open MPI 4.1's does): build with MPICH 4 or Open MPI 5");
  }
};

#endif

}  // namespace thinmpi
