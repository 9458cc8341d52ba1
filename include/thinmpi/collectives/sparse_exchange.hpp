#pragma once
/// \file
/// sparse_exchange: each rank sends to a few ranks of its choice, and receives from ranks it
/// does not know in advance, by the NBX protocol (collectives/detail/nbx.hpp): one MPI_Issend
/// per message, MPI_Improbe (any source, the exchange's tag) + MPI_Mrecv for each message that
/// arrives, MPI_Testall over the sends until they have completed, then one MPI_Ibarrier tested
/// (MPI_Test) until it completes. The calls grow with the messages a rank sends and receives,
/// not with the number of ranks, where alltoallv with exchange_counts moves one count per rank
/// pair. Collective: every rank of the communicator calls it, with the same tag.
///
///     std::vector<std::pair<int, std::vector<double>>> out = {{3, {1.0, 2.0}}, {7, {}}};
///     auto got = world.sparse_exchange(out, 41);  // [(source, std::vector<double>)], by source
///
/// The tag is the exchange's own: no other message with it may be in flight on the
/// communicator, and two exchanges in a row need different tags (alternate two), as a rank
/// that has finished one exchange may send the next one's messages while another rank is
/// still receiving the first.
///
/// A bad destination or tag on one rank ends the job (the others are in the exchange already);
/// built with THINMPI_CHECKED_COLLECTIVES=1 the ranks agree first and every rank throws
/// (detail/nbx.hpp). A message that is not whole elements of this rank's payload type (ranks
/// that passed different types) is received anyway, so that no sender waits, and this rank
/// throws MPI_ERR_TYPE once the exchange is over.

#include <algorithm>
#include <cstddef>
#include <exception>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/collectives/detail/nbx.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/datatype.hpp"
#include "thinmpi/core/default_init_allocator.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/large_count.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/detail/status_bytes.hpp"

namespace thinmpi {

namespace detail {

/// A list of (destination rank, payload) pairs: a std::vector of std::pair or std::tuple, a
/// std::map<int, P>, ...
template <class M>
concept message_list = std::ranges::forward_range<M> &&
    requires(const std::ranges::range_value_t<M>& message) {
  { std::get<0>(message) } -> std::convertible_to<int>;
  std::get<1>(message);
};

template <class M>
consteval void require_message_list() {
  static_assert(message_list<M>,
                "thinmpi: sparse_exchange takes a range of (destination rank, payload) pairs, "
                "such as std::vector<std::pair<int, std::vector<T>>> or std::map<int, "
                "std::vector<T>>");
}

/// The payload type of a message list.
template <class M>
using message_payload_t =
    std::remove_cvref_t<decltype(std::get<1>(std::declval<std::ranges::range_value_t<M>>()))>;

/// A message list whose payloads can be sent: what sparse_exchange and sparse_exchange_into
/// take (other than thinmpi::serialized(messages)).
template <class M>
concept exchangeable = message_list<M> && payload<message_payload_t<M>>;

/// Fails to compile with one sentence naming the fix (the list's, or the payload's:
/// require_sendable) unless M is exchangeable. The forms call it in a branch of their own, so
/// that nothing else is instantiated for M and the sentence is the first error.
template <class M>
consteval void require_exchangeable() {
  if constexpr (!message_list<M>) {
    require_message_list<M>();
  } else {
    require_sendable<message_payload_t<M>>();
  }
}

/// What a received payload becomes: the sent type if it can be resized (std::vector,
/// std::string), a std::vector of its elements otherwise (spans, arrays, scalars, views).
template <class P>
struct received_block {
  using type = std::vector<element_t<P>>;
};
template <resizable_payload P>
struct received_block<P> {
  using type = P;
};

/// serialized<X> -> serialized<V>: the same hook (core/detail/serialized_hook.hpp) for each
/// message's value, encoded and decoded one by one.
template <class P>
struct serialized_family;
template <template <class> class S, class X>
struct serialized_family<S<X>> {
  template <class V>
  using of = S<V>;
};

/// Runs a user callback for each message, keeping the first exception it throws: the rank
/// goes on receiving (without calling it again) until the exchange ends, so that no other rank
/// is left waiting, then rethrows.
class callback_guard {
 public:
  template <class Call>
  void operator()(Call&& call) {
    if (failure_) return;
    try {
      call();
    } catch (...) {
      failure_ = std::current_exception();
    }
  }
  void rethrow() const {
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  std::exception_ptr failure_;
};

/// Receives the matched message, `count` elements, at `into` (MPI_Mrecv; a failure ends the
/// job: raise_nbx).
template <class E>
void receive_matched_at(E* into, std::size_t count, MPI_Message& message, const MPI_Status& status,
                        MPI_Comm comm, int tag) {
  const int rc = counted_call<&MPI_Mrecv, THINMPI_LARGE_COUNT_CALL(MPI_Mrecv)>(
      counts_at<1>{}, static_cast<void*>(into), count, datatype_of<E>(), &message,
      MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) [[unlikely]] {
    raise_nbx(rc, "MPI_Mrecv", comm, status.MPI_SOURCE, tag, "source");
  }
}

/// A matched message that is not whole elements of this rank's payload type (the sender passed
/// another type): received as bytes into nothing kept, so that the sender's MPI_Issend
/// completes and the exchange goes on; `guard` keeps MPI_ERR_TYPE, thrown when it is over.
template <class E>
[[gnu::cold, gnu::noinline]] void receive_partial(std::size_t bytes, MPI_Message& message,
                                                  const MPI_Status& status, MPI_Comm comm, int tag,
                                                  callback_guard& guard) {
  std::vector<std::byte> dropped(bytes);
  receive_matched_at(dropped.data(), bytes, message, status, comm, tag);
  guard([&] {
    raise(MPI_ERR_TYPE,
          error_site{.operation = "thinmpi::sparse_exchange",
                     .comm = comm,
                     .peer_role = "source",
                     .peer = status.MPI_SOURCE,
                     .tag = tag,
                     .type = datatype_of<E>(),
                     .incoming_bytes = bytes,
                     .problem = "the message of " + std::to_string(bytes) +
                                " bytes is not a whole number of elements: did every rank "
                                "pass the same payload type?"});
  });
}

/// The number of E a matched message holds; where they are not whole, the message is received
/// and dropped (receive_partial) and the result is empty.
template <class E>
std::optional<std::size_t> message_count(MPI_Message& message, const MPI_Status& status,
                                         MPI_Comm comm, int tag, callback_guard& guard) {
  const std::size_t bytes = status_bytes(status);
  if (bytes % wire_size<E>() != 0) [[unlikely]] {
    receive_partial<E>(bytes, message, status, comm, tag, guard);
    return std::nullopt;
  }
  return bytes / wire_size<E>();
}

/// Receives the matched message into `into`, resized to its count (MPI_Mrecv); false where it
/// was not whole elements (message_count).
template <class Buffer>
bool receive_matched(Buffer& into, MPI_Message& message, const MPI_Status& status, MPI_Comm comm,
                     int tag, callback_guard& guard) {
  const auto count =
      message_count<std::ranges::range_value_t<Buffer>>(message, status, comm, tag, guard);
  if (!count) [[unlikely]] {
    return false;
  }
  into.resize(*count);
  receive_matched_at(into.data(), into.size(), message, status, comm, tag);
  return true;
}

/// Where sparse_exchange_into's place(source, count) puts a message: the first element of the
/// room it returned, after checking that room is contiguous E with space for count of them.
template <class E, class Room>
E* room_for(Room&& room, std::size_t count, MPI_Comm comm, int source, int tag) {
  static_assert(std::ranges::contiguous_range<Room> && std::ranges::sized_range<Room> &&
                    std::ranges::borrowed_range<Room> &&
                    std::is_same_v<std::ranges::range_value_t<Room>, E> &&
                    !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<Room>>>,
                "thinmpi: sparse_exchange_into's place(source, count) must return writable "
                "contiguous storage of the sent element type that outlives the call, such as "
                "std::span<T> or a std::vector<T>&");
  if (std::ranges::size(room) < count) [[unlikely]] {
    raise(MPI_ERR_TRUNCATE,
          error_site{.operation = "thinmpi::sparse_exchange_into",
                     .comm = comm,
                     .peer_role = "source",
                     .peer = source,
                     .tag = tag,
                     .type = datatype_of<E>(),
                     .incoming_bytes = count * wire_size<E>(),
                     .problem = "place(source, count) returned room for " +
                                std::to_string(std::ranges::size(room)) + " of the " +
                                std::to_string(count) + " elements that arrived"});
  }
  return std::ranges::data(room);
}

/// The wire form of a plain payload: itself (checked sendable, with the one-sentence fix).
struct payload_as_given {
  template <class P>
  const P& operator()(const P& payload, std::size_t) const noexcept {
    require_sendable<P>();
    return payload;
  }
};

}  // namespace detail

/// The sparse exchange of a communicator (comm_view derives from this family).
template <class Comm>
class collective_sparse_exchange {
 public:
  /// Sends each (dest, payload) of `messages` to dest and returns every message sent to this
  /// rank as (source, data) pairs, sorted by source; messages from one source keep the order it
  /// listed them in. A payload is anything send() takes (std::vector, std::string, std::span,
  /// a scalar, a strided or sub-array view); it arrives as the same std::vector or std::string,
  /// or as a std::vector of its elements. Empty payloads arrive as empty messages, a message to
  /// this rank is received like any other, a dest of thinmpi::proc_null sends nothing.
  /// thinmpi::serialized(messages) sends each payload as its encoded bytes and returns the
  /// decoded values. Calls: see the file comment (NBX); a dest that is not a rank is an
  /// mpi_error before any MPI call.
  ///
  ///     std::map<int, std::vector<int>> out{{(rank + 1) % size, {rank}}};
  ///     for (auto& [source, data] : world.sparse_exchange(out, 5)) use(source, data);
  template <class Messages>
  [[nodiscard]] auto sparse_exchange(const Messages& messages, int tag) const {
    if constexpr (detail::serialized_payload<Messages>) {
      using list = typename Messages::thinmpi_serialized_value;
      if constexpr (!detail::message_list<list>) {
        detail::require_message_list<list>();  // the one sentence, the first error
        return std::vector<std::pair<int, int>>{};
      } else {
        using value = detail::message_payload_t<list>;
        std::vector<std::pair<int, value>> got;
        detail::callback_guard guard;  // a value that does not decode is thrown at the end
        exchange_serialized(messages, tag, guard, [&](int source, value&& data) {
          got.emplace_back(source, std::move(data));
        });
        guard.rethrow();
        return by_source(std::move(got));
      }
    } else if constexpr (!detail::exchangeable<Messages>) {
      detail::require_exchangeable<Messages>();  // the one sentence, the first error
      return std::vector<std::pair<int, int>>{};
    } else {
      using block = typename detail::received_block<detail::message_payload_t<Messages>>::type;
      std::vector<std::pair<int, block>> got;
      detail::callback_guard guard;  // a message of another type is thrown at the end
      exchange(messages, tag, detail::payload_as_given{},
               [&](MPI_Message& message, const MPI_Status& status) {
                 block& data = got.emplace_back(status.MPI_SOURCE, block{}).second;
                 if (!detail::receive_matched(data, message, status, comm(), tag, guard)) {
                   got.pop_back();
                 }
               });
      guard.rethrow();
      return by_source(std::move(got));
    }
  }
  /// sparse_exchange() that hands each message to receive(int source, std::span<const T> data)
  /// as it arrives (arrival order), from one buffer reused for all of them, so nothing is kept.
  /// For thinmpi::serialized(messages), receive(int source, U&& value). If receive throws (or a
  /// value does not decode), the rank finishes the exchange without calling it again, so that
  /// no rank is left waiting, then rethrows.
  template <class Messages, class Receive>
  void sparse_exchange(const Messages& messages, int tag, Receive&& receive) const {
    detail::callback_guard guard;
    if constexpr (detail::serialized_payload<Messages>) {
      using list = typename Messages::thinmpi_serialized_value;
      if constexpr (!detail::message_list<list>) {
        detail::require_message_list<list>();  // the one sentence, the first error
      } else {
        using value = detail::message_payload_t<list>;
        exchange_serialized(messages, tag, guard,
                            [&](int source, value&& data) { receive(source, std::move(data)); });
      }
    } else if constexpr (!detail::exchangeable<Messages>) {
      detail::require_exchangeable<Messages>();  // the one sentence, the first error
    } else {
      using element = detail::element_t<detail::message_payload_t<Messages>>;
      std::vector<element, default_init_allocator<element>> scratch;
      exchange(messages, tag, detail::payload_as_given{},
               [&](MPI_Message& message, const MPI_Status& status) {
                 if (detail::receive_matched(scratch, message, status, comm(), tag, guard)) {
                   guard([&] { receive(status.MPI_SOURCE, std::span<const element>(scratch)); });
                 }
               });
    }
    guard.rethrow();
  }
  /// sparse_exchange() that receives each message straight into storage the caller gives, so
  /// no byte is copied after MPI writes it: once a message of `count` elements from `source`
  /// has been matched, place(int source, std::size_t count) returns where it goes, writable
  /// contiguous storage of the sent element type with room for count (a std::span<T>, or a
  /// std::vector<T>& it has resized), and MPI_Mrecv writes the message into its first count
  /// elements. Messages come in arrival order. If place throws, or returns less room
  /// (MPI_ERR_TRUNCATE), the rank finishes the exchange without calling it again, receiving
  /// the rest into scratch, so that no rank is left waiting, then rethrows.
  ///
  ///     std::map<int, std::vector<int>> out{{(rank + 1) % size, {rank}}};
  ///     std::vector<int> inbox;  // every message, one after the other
  ///     world.sparse_exchange_into(out, 7, [&](int source, std::size_t count) {
  ///       inbox.resize(inbox.size() + count);
  ///       return std::span<int>(inbox).last(count);
  ///     });
  template <class Messages, class Place>
  void sparse_exchange_into(const Messages& messages, int tag, Place&& place) const {
    if constexpr (!detail::exchangeable<Messages>) {
      detail::require_exchangeable<Messages>();  // the one sentence, the first error
    } else {
      using element = detail::element_t<detail::message_payload_t<Messages>>;
      detail::callback_guard guard;
      std::vector<element, default_init_allocator<element>> scratch;  // once place has failed
      exchange(messages, tag, detail::payload_as_given{},
               [&](MPI_Message& message, const MPI_Status& status) {
                 const auto count =
                     detail::message_count<element>(message, status, comm(), tag, guard);
                 if (!count) return;
                 element* into = nullptr;
                 guard([&] {
                   into = detail::room_for<element>(place(status.MPI_SOURCE, *count), *count,
                                                    comm(), status.MPI_SOURCE, tag);
                 });
                 if (into == nullptr) {
                   scratch.resize(*count);
                   into = scratch.data();
                 }
                 detail::receive_matched_at(into, *count, message, status, comm(), tag);
               });
      guard.rethrow();
    }
  }

 private:
  [[nodiscard]] MPI_Comm comm() const noexcept { return static_cast<const Comm&>(*this).native(); }

  /// The protocol over `messages`: checks every dest (and, checked, agrees), then one
  /// MPI_Issend of wire(payload, index) per message, then the probe loop, in which
  /// on_message(MPI_Message&, const MPI_Status&) receives each message that arrives.
  template <class Messages, class Wire, class OnMessage>
  void exchange(const Messages& messages, int tag, Wire wire, OnMessage&& on_message) const {
    detail::nbx_exchange nbx(comm(), tag, static_cast<const Comm&>(*this).size());
    std::size_t index = 0;
    for (const auto& message : messages) {
      nbx.check_dest(static_cast<int>(std::get<0>(message)), index++);
    }
    nbx.agree();
    nbx.reserve(index);
    index = 0;
    for (const auto& message : messages) {
      nbx.send(static_cast<int>(std::get<0>(message)),
               detail::send_buffer(wire(std::get<1>(message), index++)));
    }
    nbx.run(on_message);
  }

  /// The protocol over the values of serialized(messages): each encoded first (one buffer
  /// each, kept until the exchange ends); each message that arrives is decoded and handed to
  /// on_value(int source, U&&), both under guard.
  template <class Serialized, class OnValue>
  void exchange_serialized(const Serialized& payload, int tag, detail::callback_guard& guard,
                           OnValue&& on_value) const {
    using list = typename Serialized::thinmpi_serialized_value;
    detail::require_message_list<list>();
    using value = detail::message_payload_t<list>;
    using family = detail::serialized_family<std::remove_cvref_t<Serialized>>;
    std::vector<detail::wire_bytes> encoded;
    for (const auto& message : payload.value()) {
      encoded.push_back(typename family::template of<const value&>(std::get<1>(message)).encode());
    }
    detail::wire_bytes scratch;
    exchange(
        payload.value(), tag,
        [&](const value&, std::size_t index) -> const detail::wire_bytes& {
          return encoded[index];
        },
        [&](MPI_Message& message, const MPI_Status& status) {
          if (detail::receive_matched(scratch, message, status, comm(), tag, guard)) {
            guard([&] {
              on_value(status.MPI_SOURCE,
                       family::template of<value>::decode(scratch, comm(), status));
            });
          }
        });
  }

  template <class Pairs>
  static Pairs by_source(Pairs got) {
    std::stable_sort(got.begin(), got.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    return got;
  }
};

}  // namespace thinmpi
