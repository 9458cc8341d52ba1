#pragma once
/// \file
/// Requests of nonblocking point-to-point operations. A request never lets MPI write into freed
/// memory: one destroyed while still active completes first (a send is waited for; a receive is
/// cancelled, then waited for, so that a message that never comes cannot hang the destructor).
/// Every way a request completes goes through detail::progress (detail/request_access.hpp).
///
/// - request: a borrowed buffer (a named object or a view) that must outlive the request.
/// - owning_request<B>: a buffer moved into the request; wait() hands it back.
/// - probing_request<C>: a std::vector or std::string of unknown size; nothing is posted until
///   test()/wait() finds the message (MPI_Improbe), then it is received (MPI_Imrecv).

#include <cstddef>
#include <memory>
#include <optional>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/held.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/p2p/detail/calls.hpp"
#include "thinmpi/p2p/detail/errors.hpp"
#include "thinmpi/p2p/detail/sized_for.hpp"
#include "thinmpi/requests/detail/request_access.hpp"

namespace thinmpi {

namespace detail {

/// What a borrowed receive does on completion, type-erased so that request stays one type.
struct receive_finisher {
  void* target = nullptr;
  receive_problem (*finish)(void* target, const MPI_Status& status) = nullptr;
};

template <class Into>
receive_problem finish_borrowed(void* target, const MPI_Status& status) {
  return finish_receive(*static_cast<Into*>(target), status, fill::up_to);
}

/// Whether a completed receive was cancelled (then nothing arrived and nothing is checked).
inline bool was_cancelled(const MPI_Status& raw) noexcept {
  int flag = 0;
  MPI_Test_cancelled(&raw, &flag);
  return flag != 0;
}

}  // namespace detail

/// A nonblocking operation on a buffer the caller keeps alive. Move-only.
///
///     auto r = world.irecv(std::span(buffer), 0, 7);  // buffer must outlive r
///     thinmpi::status st = r.wait();
class [[nodiscard]] request {
 public:
  /// An inactive request.
  request() noexcept = default;
  /// Adopts a posted MPI request; receives are cancelled if destroyed while active.
  request(MPI_Request handle, const detail::p2p_call& call, const detail::mutable_buffer& buffer,
          detail::direction direction, detail::receive_finisher finisher = {}) noexcept
      : handle_(handle), call_(call), buffer_(buffer), direction_(direction), finisher_(finisher) {}

  request(request&& other) noexcept { take(other); }
  request& operator=(request&& other) noexcept {
    if (this != &other) {
      detail::abandon(*this);
      take(other);
    }
    return *this;
  }
  request(const request&) = delete;
  request& operator=(const request&) = delete;
  /// Completes an active request first: waits for a send, cancels then waits for a receive.
  ~request() { detail::abandon(*this); }

  /// Blocks until the operation completes (MPI_Wait); throws thinmpi::mpi_error if it failed.
  /// On a completed request, returns its status again.
  status wait() {
    detail::progress(*this, true);
    return status(status_, buffer_.type);
  }
  /// The status if the operation has completed (MPI_Test), else nothing.
  [[nodiscard]] std::optional<status> test() {
    if (!detail::progress(*this, false)) return std::nullopt;
    return status(status_, buffer_.type);
  }
  /// Whether the operation is posted and not yet completed.
  [[nodiscard]] bool active() const noexcept { return handle_ != MPI_REQUEST_NULL; }
  /// The MPI handle (MPI_REQUEST_NULL once complete).
  [[nodiscard]] MPI_Request native() const noexcept { return handle_; }

 private:
  friend struct detail::request_access;
  template <class>
  friend class owning_request;
  template <class>
  friend class probing_request;

  MPI_Request& posted_handle() noexcept { return handle_; }

  void take(request& other) noexcept {
    handle_ = std::exchange(other.handle_, MPI_REQUEST_NULL);
    status_ = other.status_;
    call_ = other.call_;
    buffer_ = other.buffer_;
    direction_ = other.direction_;
    finisher_ = other.finisher_;
  }

  /// Records a completion MPI reported, then throws if it failed or the data was wrong.
  void complete_stage(int rc, const MPI_Status& raw) {
    status_ = raw;
    if (direction_ == detail::direction::send) {
      if (rc != MPI_SUCCESS) [[unlikely]] {
        detail::raise_send(rc, call_, {buffer_.data, buffer_.count, buffer_.type});
      }
      return;
    }
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_receive(rc, call_, buffer_, raw);
    }
    if (finisher_.finish == nullptr || detail::was_cancelled(raw)) return;
    if (const auto problem = finisher_.finish(finisher_.target, raw);
        problem != detail::receive_problem::none) [[unlikely]] {
      detail::raise_problem(problem, call_, buffer_, raw);
    }
  }

  void give_up() noexcept {
    if (direction_ == detail::direction::receive && handle_ != MPI_REQUEST_NULL) {
      MPI_Cancel(&handle_);
    }
  }

  MPI_Request handle_ = MPI_REQUEST_NULL;
  MPI_Status status_{};
  detail::p2p_call call_{"", MPI_COMM_NULL, MPI_PROC_NULL, 0};
  detail::mutable_buffer buffer_{nullptr, 0, MPI_BYTE};
  detail::direction direction_ = detail::direction::send;
  detail::receive_finisher finisher_{};
};

/// A nonblocking operation that owns its buffer: moved in by isend(std::move(v), ...) or
/// irecv(std::vector<int>(n), ...), handed back by wait(). Move-only.
///
///     auto r = world.irecv(std::vector<double>(1024), 0, 7);  // up to 1024 doubles
///     std::vector<double> got = r.wait();                      // shrunk to what arrived
template <class Buffer>
class [[nodiscard]] owning_request {
 public:
  /// An inactive request.
  owning_request() = default;
  /// Takes a buffer and the request posted on it; `mode` is how a receive must fill it.
  owning_request(detail::held<Buffer, detail::holder_site::moving>&& buffer, request&& posted,
                 detail::fill mode)
      : buffer_(std::move(buffer)), core_(std::move(posted)), mode_(mode) {}

  owning_request(owning_request&&) noexcept = default;
  owning_request& operator=(owning_request&& other) noexcept {
    if (this != &other) {
      detail::abandon(*this);
      buffer_ = std::move(other.buffer_);
      core_ = std::move(other.core_);
      mode_ = other.mode_;
    }
    return *this;
  }
  /// Completes an active request first, as request does.
  ~owning_request() { detail::abandon(*this); }

  /// Blocks until complete, then hands the buffer back; for a receive, with what arrived.
  Buffer wait() {
    detail::progress(*this, true);
    return buffer_.take();
  }
  /// The buffer if the operation has completed, else nothing.
  [[nodiscard]] std::optional<Buffer> test() {
    if (!detail::progress(*this, false)) return std::nullopt;
    return buffer_.take();
  }
  /// Whether the operation is posted and not yet completed.
  [[nodiscard]] bool active() const noexcept { return core_.active(); }
  /// Blocks until complete (as wait() does, the buffer staying in the request), then returns
  /// the status.
  [[nodiscard]] status last_status() {
    detail::progress(*this, true);
    return status(core_.status_, core_.buffer_.type);
  }

 private:
  friend struct detail::request_access;

  MPI_Request& posted_handle() noexcept { return core_.handle_; }
  void give_up() noexcept { core_.give_up(); }
  void complete_stage(int rc, const MPI_Status& raw);

  detail::held<Buffer, detail::holder_site::moving>
      buffer_;  // declared first, destroyed last: after core_ has completed
  request core_;
  detail::fill mode_ = detail::fill::up_to;
};

/// A receive of a std::vector or std::string whose size only the message knows. Posting it does
/// not block; test() and wait() match the message (MPI_Improbe / MPI_Mprobe), size the container
/// and receive into it (MPI_Imrecv). Works with wait_any(). Move-only.
///
///     auto r = world.irecv<std::vector<int>>(thinmpi::any_source, 7);
///     std::vector<int> got = r.wait();
template <class Container>
class [[nodiscard]] probing_request {
 public:
  /// A request that matches nothing.
  probing_request() = default;
  /// Will receive from source with tag on comm.
  probing_request(MPI_Comm comm, int source, int tag) noexcept
      : comm_(comm), source_(source), tag_(tag), waiting_for_match_(true) {}

  probing_request(probing_request&& other) noexcept
      : buffer_(std::move(other.buffer_)),
        core_(std::move(other.core_)),
        comm_(other.comm_),
        source_(other.source_),
        tag_(other.tag_),
        waiting_for_match_(std::exchange(other.waiting_for_match_, false)) {}
  probing_request& operator=(probing_request&& other) noexcept {
    if (this != &other) {
      detail::abandon(*this);
      buffer_ = std::move(other.buffer_);
      core_ = std::move(other.core_);
      comm_ = other.comm_;
      source_ = other.source_;
      tag_ = other.tag_;
      waiting_for_match_ = std::exchange(other.waiting_for_match_, false);
    }
    return *this;
  }
  /// An unmatched request is dropped (nothing was posted); a matched one completes first.
  ~probing_request() { detail::abandon(*this); }

  /// Blocks until the message has arrived whole, then hands it over.
  Container wait() {
    detail::progress(*this, true);
    return buffer_.take();
  }
  /// The container if the message has arrived whole, else nothing (never blocks).
  [[nodiscard]] std::optional<Container> test() {
    if (!detail::progress(*this, false)) return std::nullopt;
    return buffer_.take();
  }
  /// Whether the message is still awaited: not yet matched, or matched and still arriving.
  [[nodiscard]] bool active() const noexcept { return waiting_for_match_ || core_.active(); }
  /// Blocks until the message has arrived (as wait() does, the container staying in the
  /// request), then returns the status.
  [[nodiscard]] status last_status() {
    detail::progress(*this, true);
    return status(core_.status_, core_.buffer_.type);
  }

 private:
  friend struct detail::request_access;
  using element = std::ranges::range_value_t<Container>;

  [[nodiscard]] detail::p2p_call call() const noexcept {
    return {"MPI_Imrecv", comm_, source_, tag_};
  }

  MPI_Request& posted_handle() noexcept { return core_.handle_; }
  [[nodiscard]] bool awaiting_start() const noexcept { return waiting_for_match_; }
  void give_up() noexcept {
    waiting_for_match_ = false;
    core_.give_up();
  }
  /// MPI_Improbe: starts the receive if the message is there; true if it was.
  bool try_start() {
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status probed{};
    int flag = 0;
    const int rc = detail::improbe(source_, tag_, comm_, &flag, &message, &probed);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_receive(rc, {"MPI_Improbe", comm_, source_, tag_},
                            detail::no_buffer(datatype_of<element>()), probed);
    }
    if (flag == 0) return false;
    receive_matched(message, probed);
    return true;
  }
  /// MPI_Mprobe: blocks until the message is there, then starts the receive.
  void start() {
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status probed{};
    const int rc = detail::mprobe(source_, tag_, comm_, &message, &probed);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      detail::raise_receive(rc, {"MPI_Mprobe", comm_, source_, tag_},
                            detail::no_buffer(datatype_of<element>()), probed);
    }
    receive_matched(message, probed);
  }
  /// Sizes the container for a matched message and starts receiving it.
  void receive_matched(MPI_Message message, const MPI_Status& probed);
  void complete_stage(int rc, const MPI_Status& raw) { core_.complete_stage(rc, raw); }

  detail::held<Container, detail::holder_site::moving> buffer_;  // declared first, destroyed last
  request core_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int source_ = MPI_PROC_NULL;
  int tag_ = 0;
  bool waiting_for_match_ = false;
};

template <class Buffer>
void owning_request<Buffer>::complete_stage(int rc, const MPI_Status& raw) {
  core_.complete_stage(rc, raw);
  if (core_.direction_ == detail::direction::send || detail::was_cancelled(raw)) return;
  if (const auto problem = detail::finish_receive(buffer_.get(), raw, mode_);
      problem != detail::receive_problem::none) [[unlikely]] {
    detail::raise_problem(problem, core_.call_, core_.buffer_, raw);
  }
}

template <class Container>
void probing_request<Container>::receive_matched(MPI_Message message, const MPI_Status& probed) {
  waiting_for_match_ = false;
  buffer_ = detail::held<Container, detail::holder_site::moving>(
      detail::sized_for<Container>(message, probed, call()));
  const detail::mutable_buffer buffer = detail::recv_buffer(buffer_.get());
  MPI_Request handle = MPI_REQUEST_NULL;
  const int rc = detail::imrecv(buffer.data, buffer.count, buffer.type, &message, &handle);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    detail::raise_receive(rc, call(), buffer, probed);
  }
  core_ = request(handle, call(), buffer, detail::direction::receive);
}

/// The request isend() returns for P: borrowed for named payloads and views, owning otherwise.
template <class P>
using isend_request_t =
    std::conditional_t<detail::borrows<P>, request, owning_request<std::remove_cvref_t<P>>>;
/// The request irecv(into, ...) returns for Into: borrowed or owning, as for isend().
template <class Into>
using irecv_request_t =
    std::conditional_t<detail::borrows<Into>, request, owning_request<std::remove_cvref_t<Into>>>;
/// The request irecv<T>() returns: probing for vector/string of unknown size, else owning.
template <class T>
using irecv_new_request_t =
    std::conditional_t<resizable_payload<T>, probing_request<T>, owning_request<T>>;

namespace detail {

/// The request irecv<T>() returns: the serialized payload's own for serialized<T>.
template <class T>
struct irecv_new_result {
  using type = thinmpi::irecv_new_request_t<T>;
};
template <serialized_payload T>
struct irecv_new_result<T> {
  using type = typename T::receive_request;
};
template <class T>
using irecv_new_result_t = typename irecv_new_result<T>::type;

}  // namespace detail

}  // namespace thinmpi
