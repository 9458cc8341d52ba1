#pragma once
/// \file
/// Requests of nonblocking point-to-point operations. A request never lets MPI write into freed
/// memory: one destroyed while still active completes first (a send is waited for; a receive is
/// cancelled, then waited for, so that a message that never comes cannot hang the destructor).
/// Every way a request completes goes through detail::progress (detail/request_access.hpp);
/// wait(), test(), active(), last_status() and the completing destructor are written once in
/// requests/request_face.hpp, and each request below states only its kind.
///
/// - request: a borrowed buffer (a named object or a view) that must outlive the request.
/// - `owning_request<B>`: a buffer moved into the request; wait() hands it back.
/// - `probing_request<C>`: a std::vector or std::string of unknown size; nothing is posted until
///   test()/wait() finds the message (MPI_Improbe), then it is received (MPI_Imrecv).

#include <cstddef>
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
#include "thinmpi/requests/request_face.hpp"

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

namespace detail {

/// The kind of thinmpi::request: one posted operation on a buffer it does not own.
struct p2p_transfer {
  MPI_Request handle_ = MPI_REQUEST_NULL;
  MPI_Status status_{};
  p2p_call call_{"", MPI_COMM_NULL, MPI_PROC_NULL, 0};
  mutable_buffer buffer_{nullptr, 0, MPI_BYTE};
  direction direction_ = direction::send;
  receive_finisher finisher_{};

  MPI_Request& posted_handle() noexcept { return handle_; }
  /// Records a completion MPI reported, then throws if it failed or the data was wrong.
  void complete_stage(int rc, const MPI_Status& raw) {
    status_ = raw;
    if (direction_ == direction::send) {
      if (rc != MPI_SUCCESS) [[unlikely]] {
        raise_send(rc, call_, {buffer_.data, buffer_.count, buffer_.type});
      }
      return;
    }
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_receive(rc, call_, buffer_, raw);
    }
    if (finisher_.finish == nullptr || was_cancelled(raw)) return;
    if (const auto problem = finisher_.finish(finisher_.target, raw);
        problem != receive_problem::none) [[unlikely]] {
      raise_problem(problem, call_, buffer_, raw);
    }
  }
  void give_up() noexcept {
    if (direction_ == direction::receive && handle_ != MPI_REQUEST_NULL) MPI_Cancel(&handle_);
  }
  [[nodiscard]] thinmpi::status result() const noexcept { return {status_, buffer_.type}; }
};

/// The kind of owning_request<Buffer>: a p2p_transfer on a buffer it holds.
template <class Buffer>
struct owning_transfer {
  held<Buffer, holder_site::moving> buffer_;
  p2p_transfer core_;
  fill mode_ = fill::up_to;

  MPI_Request& posted_handle() noexcept { return core_.handle_; }
  void give_up() noexcept { core_.give_up(); }
  void complete_stage(int rc, const MPI_Status& raw) {
    core_.complete_stage(rc, raw);
    if (core_.direction_ == direction::send || was_cancelled(raw)) return;
    if (const auto problem = finish_receive(buffer_.get(), raw, mode_);
        problem != receive_problem::none) [[unlikely]] {
      raise_problem(problem, core_.call_, core_.buffer_, raw);
    }
  }
  Buffer result() { return buffer_.take(); }
  [[nodiscard]] thinmpi::status last_status() const noexcept { return core_.result(); }
};

/// The kind of probing_request<Container>: waits for its message (MPI_Improbe / MPI_Mprobe),
/// then receives it (MPI_Imrecv) into a container of its size.
template <class Container>
struct probing_receive {
  using element = std::ranges::range_value_t<Container>;

  probing_receive() = default;
  probing_receive(MPI_Comm comm, int source, int tag) noexcept
      : comm_(comm), source_(source), tag_(tag), waiting_for_match_(true) {}

  [[nodiscard]] p2p_call call() const noexcept { return {"MPI_Imrecv", comm_, source_, tag_}; }
  [[nodiscard]] MPI_Comm comm() const noexcept { return comm_; }

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
    check_probe(improbe(source_, tag_, comm_, &flag, &message, &probed), "MPI_Improbe", probed);
    if (flag == 0) return false;
    receive_matched(message, probed);
    return true;
  }
  /// MPI_Mprobe: blocks until the message is there, then starts the receive.
  void start() {
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status probed{};
    check_probe(mprobe(source_, tag_, comm_, &message, &probed), "MPI_Mprobe", probed);
    receive_matched(message, probed);
  }
  void complete_stage(int rc, const MPI_Status& raw) { core_.complete_stage(rc, raw); }
  Container result() { return buffer_.take(); }
  [[nodiscard]] thinmpi::status last_status() const noexcept { return core_.result(); }

  held<Container, holder_site::moving> buffer_;
  p2p_transfer core_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int source_ = MPI_PROC_NULL;
  int tag_ = 0;
  bool waiting_for_match_ = false;

 private:
  void check_probe(int rc, const char* operation, const MPI_Status& probed) const {
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_receive(rc, {operation, comm_, source_, tag_}, no_buffer(datatype_of<element>()),
                    probed);
    }
  }
  /// Sizes the container for a matched message and starts receiving it.
  void receive_matched(MPI_Message message, const MPI_Status& probed) {
    waiting_for_match_ = false;
    buffer_ = held<Container, holder_site::moving>(sized_for<Container>(message, probed, call()));
    const mutable_buffer buffer = recv_buffer(buffer_.get());
    MPI_Request handle = MPI_REQUEST_NULL;
    const int rc = imrecv(buffer.data, buffer.count, buffer.type, &message, &handle);
    if (rc != MPI_SUCCESS) [[unlikely]] {
      raise_receive(rc, call(), buffer, probed);
    }
    core_ = {handle, {}, call(), buffer, direction::receive, {}};
  }
};

}  // namespace detail

/// A nonblocking operation on a buffer the caller keeps alive: wait() returns its status (again,
/// on a completed request), test() the status if it has completed. Move-only; one destroyed while
/// active completes first: a send is waited for, a receive cancelled, then waited for.
///
///     std::vector<int> buffer(n);
///     auto r = world.irecv(std::span(buffer), 0, 7);  // buffer must outlive r
///     thinmpi::status st = r.wait();
class [[nodiscard]] request : public detail::request_face<detail::p2p_transfer> {
 public:
  /// An inactive request.
  request() noexcept = default;
  /// Adopts a posted MPI request; receives are cancelled if destroyed while active.
  request(MPI_Request handle, const detail::p2p_call& call, const detail::mutable_buffer& buffer,
          detail::direction direction, detail::receive_finisher finisher = {}) noexcept
      : request_face(std::in_place, handle, MPI_Status{}, call, buffer, direction, finisher) {}

  /// The MPI handle (MPI_REQUEST_NULL once complete).
  [[nodiscard]] MPI_Request native() const noexcept { return kind().handle_; }

 private:
  template <class>
  friend class owning_request;  // takes a posted request over
};

/// A nonblocking operation that owns its buffer: moved in by isend(std::move(v), ...) or
/// irecv(std::vector<int>(n), ...), handed back by wait() (test(): if complete);
/// last_status() blocks until complete, the buffer staying in the request. Move-only.
///
///     auto r = world.irecv(std::vector<double>(1024), 0, 7);  // up to 1024 doubles
///     std::vector<double> got = r.wait();                      // shrunk to what arrived
template <class Buffer>
class [[nodiscard]] owning_request : public detail::request_face<detail::owning_transfer<Buffer>> {
  using face = detail::request_face<detail::owning_transfer<Buffer>>;

 public:
  /// An inactive request.
  owning_request() = default;
  /// Takes a buffer and the request posted on it; `mode` is how a receive must fill it.
  owning_request(detail::held<Buffer, detail::holder_site::moving>&& buffer, request&& posted,
                 detail::fill mode)
      : face(std::in_place, std::move(buffer), posted.release_kind(), mode) {}
};

/// A receive of a std::vector or std::string whose size only the message knows. Posting it does
/// not block; test() and wait() match the message (MPI_Improbe / MPI_Mprobe), size the container
/// and receive into it (MPI_Imrecv), then hand it over; active() is true while the message is
/// awaited, matched or not; last_status() blocks until it has arrived. An unmatched request is
/// dropped (nothing was posted); a matched one completes first. Works with wait_any().
/// Move-only.
///
///     auto r = world.irecv<std::vector<int>>(thinmpi::any_source, 7);
///     std::vector<int> got = r.wait();
template <class Container>
class [[nodiscard]] probing_request
    : public detail::request_face<detail::probing_receive<Container>> {
  using face = detail::request_face<detail::probing_receive<Container>>;

 public:
  /// A request that matches nothing.
  probing_request() = default;
  /// Will receive from source with tag on comm.
  probing_request(MPI_Comm comm, int source, int tag) noexcept
      : face(std::in_place, comm, source, tag) {}
};

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
