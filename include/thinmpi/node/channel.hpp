#pragma once
/// \file
/// thinmpi::node_channel: point-to-point messages between the ranks of a communicator that
/// costs less than MPI between ranks of one node. Ranks that share memory (MPI_Comm_split_type
/// shared) talk through one inbound queue per rank in a shared window (detail/ring.hpp: a
/// bounded ring of 64-byte slots, written by any sender, read by its owner), ranks on other
/// nodes through MPI with the framed protocol (framed/channel.hpp), so one program runs on one
/// node or many unchanged. A message carries its size and element kind, so a receive of
/// unknown size needs no probe and a receive of the wrong element type is an error.
///
///     thinmpi::node_channel channel(world);                 // collective
///     channel.send(42, 1, 0);                                // one claim, one slot, no MPI call
///     int x = channel.recv<int>(0, 0);
///     channel.send(std::vector<double>(100, 1.0), 1, 7);
///     auto values = channel.recv<std::vector<double>>(0, 7);  // its size from the header

#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "thinmpi/communicator/communicator.hpp"
#include "thinmpi/core/concepts.hpp"
#include "thinmpi/core/detail/buffers.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/core/detail/serialized_hook.hpp"
#include "thinmpi/core/status.hpp"
#include "thinmpi/framed/channel.hpp"
#include "thinmpi/node/detail/inbox.hpp"
#include "thinmpi/node/detail/ring.hpp"
#include "thinmpi/node/detail/sinks.hpp"
#include "thinmpi/p2p/recv.hpp"
#include "thinmpi/requests/request_face.hpp"

namespace thinmpi {

namespace detail::node {
#if defined(OPEN_MPI)
inline constexpr std::size_t default_mpi_from_bytes = 8 * 1024;
#else
inline constexpr std::size_t default_mpi_from_bytes = 2 * 1024;
#endif
}  // namespace detail::node

/// How a node_channel is made and how it waits. Each rank may pass its own.
struct node_channel_options {
  /// Slots (64 bytes each) in this rank's inbound queue: a power of two, 8 to 2^20. The
  /// node's shared memory is the sum over its ranks, (slots + 4) x 64 bytes each, which MPI
  /// rounds up to whole pages: 36 KiB a rank by default, 4.5 MiB for 128 ranks (it grows as
  /// the ranks, not as their pairs). footprint_bytes() says what it is.
  std::uint32_t queue_slots = 512;
  /// Payloads of this many bytes or more go by MPI (one MPI_Isend on the node communicator,
  /// announced by a header in the ring so that the order of messages holds); smaller ones
  /// go through the ring. The default is where the ring stopped beating the MPI library's
  /// ping-pong on this project's machine (wrapper-bench's node suite; docs/library.md, "The
  /// intra-node channel"): 8 KiB on Open MPI, whose messages above 4 KiB take its slower
  /// rendezvous, 2 KiB on MPICH and others.
  std::size_t mpi_from_bytes = detail::node::default_mpi_from_bytes;
  /// Ranks of one node with different groups do not share a channel's memory: they talk by
  /// MPI as ranks of different nodes do (to keep a channel within a socket, or to try the
  /// multi-node paths on one node).
  int group = 0;
  /// How long a blocked send or receive waits before it throws; 0: as long as it takes. A
  /// wait for a rank whose channel is gone (destroyed, or its rank left by an exception) throws
  /// at once whatever the limit. A send that throws so has sent nothing (one longer than the
  /// receiver's whole queue may have begun: that queue is then unusable). Not applied to a
  /// send to another node, whose payload MPI may still read.
  std::chrono::milliseconds wait_limit{0};
};

template <class T>
class node_recv_request;
namespace detail::node {
template <class T>
struct recv_kind;
}  // namespace detail::node

/// Point-to-point messages over a communicator, through shared memory between ranks of one
/// node and by MPI between nodes. Construction and destruction are collective over the
/// communicator. Move-only.
///
/// Ordering: messages from one sender to one receiver with one tag are received in the order
/// they were sent (MPI's non-overtaking rule), also across the ring and MPI paths. Several
/// threads of one rank must not use one channel at once (MPI_THREAD_SERIALIZED use); ranks
/// need no MPI thread level beyond what their other MPI calls need.
///
/// Blocking: a send to this node returns once the message is in the receiver's queue; it
/// waits only while that queue is full (taking its own rank's incoming messages out of its
/// queue meanwhile, so ranks sending to each other never deadlock on full queues). A payload
/// of mpi_from_bytes or more waits until the receiver's MPI has it: the receiver posts its
/// receive as soon as it sees the header, in any blocking call of its channel (a send that
/// waits, a receive of another message), so a ring of ranks that all send first goes on.
/// Every wait takes this rank's own queue in, also a wait for another node (its receive polls
/// with MPI_Iprobe, its send is an isend tested until done), so no cycle of waits through
/// another node stops this node's senders.
class node_channel {
 public:
  /// Collective over comm: MPI_Comm_split_type (shared memory) and MPI_Comm_split by
  /// options.group for the node communicator, one MPI_Win_allocate_shared over it for the
  /// queues, and, when some rank is on another node, one MPI_Comm_dup (plus the framed
  /// channel's own) for the messages between nodes.
  explicit node_channel(comm_view comm, const node_channel_options& options = {});
  /// Takes the channel over; the moved-from one is closed and frees nothing.
  node_channel(node_channel&&) noexcept = default;
  /// Closes this channel (collective, as the destructor), then takes `other` over.
  node_channel& operator=(node_channel&& other) noexcept {
    if (this != &other) {
      close();
      state_ = std::move(other.state_);
    }
    return *this;
  }
  node_channel(const node_channel&) = delete;
  node_channel& operator=(const node_channel&) = delete;
  /// Collective: marks this rank's queue closed (a rank still waiting for a message from it
  /// throws), then frees the window and communicators. Messages still queued for this rank
  /// are dropped.
  ~node_channel() { close(); }

  /// The communicator whose ranks the channel's sends and receives name.
  [[nodiscard]] comm_view comm() const noexcept { return comm_view(state().comm); }
  /// The ranks that share this rank's memory (and group), in comm's order.
  [[nodiscard]] comm_view node_comm() const noexcept { return state().node; }
  /// Whether messages to and from `rank` (of comm()) go through shared memory.
  [[nodiscard]] bool on_node(int rank) const {
    return node_rank(rank, "thinmpi::node_channel::on_node", "peer") >= 0;
  }
  /// Bytes of shared memory the channel takes on this node (every queue of it).
  [[nodiscard]] std::size_t footprint_bytes() const noexcept { return state().footprint; }
  /// Bytes of this rank's inbound queue.
  [[nodiscard]] std::size_t queue_bytes() const noexcept {
    return detail::node::ring::bytes_for(state().inbox.of(state().inbox.me()).slots());
  }
  /// Payloads of this many bytes or more go by MPI within the node.
  [[nodiscard]] std::size_t mpi_from_bytes() const noexcept { return state().mpi_from; }

  /// Sends a scalar, a contiguous range (vector, array, span, string...) or a serialized value
  /// (thinmpi::serialized(x), encoded once) to `dest` with `tag`. To this node: into dest's
  /// queue, no MPI call (from mpi_from_bytes up: a header there and one MPI_Isend). To another
  /// node: the framed protocol. dest may be thinmpi::proc_null (nothing is sent).
  template <class Payload>
  void send(const Payload& payload, int dest, int tag) const;
  /// send() only if it completes now: to this node, when dest's queue has room for the whole
  /// message (false, nothing sent, if not); payloads of mpi_from_bytes or more, and messages
  /// to other nodes, are sent as send() sends them.
  template <class Payload>
  [[nodiscard]] bool try_send(const Payload& payload, int dest, int tag) const;

  /// Receives into `into`: a scalar must arrive whole, a fixed range takes up to its size, a
  /// resizable container takes up to its current size and shrinks to what arrived. A larger
  /// message, or one of another element type, throws (the message is consumed, not left).
  /// source may be thinmpi::any_source (or proc_null), tag thinmpi::any_tag.
  template <class Into>
  status recv(Into&& into, int source, int tag) const;
  /// Receives a new T: std::vector or std::string of the size sent (no probe: the size is in
  /// the message), a scalar or fixed-size T that the message must fill, or for
  /// thinmpi::serialized<U> a decoded U.
  template <class T>
  [[nodiscard]] detail::received_value_t<T> recv(int source, int tag) const {
    return std::move(*receive_new<T>(source, tag, true)).value;
  }
  /// recv<T>() with the status (the source of an any_source receive, the size).
  template <class T>
  [[nodiscard]] received<detail::received_value_t<T>> recv_with_status(int source, int tag) const {
    return std::move(*receive_new<T>(source, tag, true));
  }
  /// recv_with_status<T>() if a matching message has arrived, else nothing; never waits for
  /// one (a message of this node that is still being written is waited for).
  template <class T>
  [[nodiscard]] std::optional<received<detail::received_value_t<T>>> try_recv(int source,
                                                                              int tag) const {
    return receive_new<T>(source, tag, false);
  }
  /// A receive that completes through the request face (wait(), test(), wait_all...): the
  /// message is taken when the request is tested or waited for, not before.
  template <class T>
  [[nodiscard]] node_recv_request<T> irecv(int source, int tag) const;

  /// Messages this rank has taken out of its queue that no receive has asked for yet.
  [[nodiscard]] std::size_t unexpected_messages() const noexcept { return state().inbox.stored(); }

 private:
  struct channel_state {
    MPI_Comm comm = MPI_COMM_NULL;
    int size = 0;
    int tag_ub = 0;
    communicator node;
    MPI_Win window = MPI_WIN_NULL;
    std::vector<int> comm_to_node;  ///< -1 for ranks of other nodes
    detail::node::inbox inbox;
    std::size_t mpi_from = 0;
    std::size_t footprint = 0;
    communicator remote_comm;  ///< for other nodes: a duplicate of comm
    std::optional<framed_channel> remote;
  };
  template <class T>
  friend class node_recv_request;
  template <class T>
  friend struct detail::node::recv_kind;

  [[nodiscard]] channel_state& state() const noexcept { return *state_; }

  /// The node rank of comm rank `rank`, -1 if on another node; throws for a rank outside comm.
  [[nodiscard]] int node_rank(int rank, const char* operation, const char* role) const {
    const channel_state& s = state();
    if (rank < 0 || rank >= s.size) [[unlikely]] {
      detail::raise(MPI_ERR_RANK,
                    detail::error_site{.operation = operation,
                                       .comm = s.comm,
                                       .peer_role = role,
                                       .peer = rank,
                                       .problem = "rank " + std::to_string(rank) +
                                                  " is not in the channel's communicator of " +
                                                  std::to_string(s.size) + " ranks"});
    }
    return s.comm_to_node[static_cast<std::size_t>(rank)];
  }
  void check_tag(int tag, bool receive, const char* operation) const {
    if ((tag >= 0 && tag <= state().tag_ub) || (receive && tag == MPI_ANY_TAG)) [[likely]]
      return;
    detail::raise(MPI_ERR_TAG,
                  detail::error_site{.operation = operation,
                                     .comm = state().comm,
                                     .tag = tag,
                                     .problem = "tag " + std::to_string(tag) + " is outside 0.." +
                                                std::to_string(state().tag_ub) +
                                                (receive ? " (or thinmpi::any_tag)" : "")});
  }

  template <class Payload>
  bool send_payload(const Payload& payload, int dest, int tag, bool only_now) const;
  bool send_bytes(const detail::node::message_header& header, const std::byte* data, int dest,
                  bool only_now) const;

  /// Receives into sink `s`: from this node through the queue, from another node by the
  /// framed protocol (any_source: both, whichever comes first). False if !block and nothing
  /// matched. Sets `raw` to the status.
  template <class Sink>
  bool receive(Sink& s, int source, int tag, bool block, MPI_Status& raw) const;
  /// Whether a message from `source` (of another node) with `tag` has arrived: one MPI_Iprobe.
  [[nodiscard]] bool remote_arrived(int source, int tag) const {
    int flag = 0;
    detail::check(MPI_Iprobe(source, tag, state().remote_comm.native(), &flag, MPI_STATUS_IGNORE),
                  "MPI_Iprobe", state().comm);
    return flag != 0;
  }
  /// Waits for a send to another node, taking this rank's own queue meanwhile. Not bounded by
  /// wait_limit: the payload is the caller's and MPI may still read it.
  void await_remote_send(framed_send_request&& sending) const {
    detail::node::waiter w(state().inbox.policy().spins);
    while (!sending.test()) {
      state().inbox.pump();
      (void)w.pause();
    }
  }
  template <class T>
  std::optional<received<detail::received_value_t<T>>> receive_new(int source, int tag,
                                                                   bool block) const;

  void close() noexcept;

  std::unique_ptr<channel_state> state_;
};

/// A node_channel receive of a T that completes through the request face: test() takes the
/// message if it has arrived, wait() blocks for it; destroying an active request gives it up
/// (nothing was posted, so nothing is left behind).
template <class T>
class [[nodiscard]] node_recv_request;

namespace detail::node {

/// The request-face kind of a node_channel receive: awaiting its message until matched.
template <class T>
struct recv_kind {
  using value_type = received<received_value_t<T>>;
  const node_channel* channel = nullptr;
  int source = 0;
  int tag = 0;
  std::optional<value_type> got;
  MPI_Request none = MPI_REQUEST_NULL;  ///< never posted: the message is taken, not waited for

  MPI_Request& posted_handle() noexcept { return none; }
  void complete_stage(int, const MPI_Status&) noexcept {}
  [[nodiscard]] bool awaiting_start() const noexcept { return channel != nullptr && !got; }
  bool try_start();
  void start();
  void give_up() noexcept { channel = nullptr; }
  received_value_t<T> result() { return std::move(got->value); }
  [[nodiscard]] thinmpi::status last_status() const { return got->status; }
};

}  // namespace detail::node

template <class T>
class [[nodiscard]] node_recv_request : public detail::request_face<detail::node::recv_kind<T>> {
  using face = detail::request_face<detail::node::recv_kind<T>>;

 public:
  /// An inactive request.
  node_recv_request() = default;

 private:
  friend class node_channel;
  node_recv_request(const node_channel& channel, int source, int tag)
      : face(std::in_place, &channel, source, tag) {}
};

// ---------------------------------------------------------------------------------------------

inline node_channel::node_channel(comm_view comm, const node_channel_options& options)
    : state_(std::make_unique<channel_state>()) {
  channel_state& s = *state_;
  const MPI_Comm c = comm.native();
  s.comm = c;
  s.size = comm.size();
  s.tag_ub = comm.tag_ub();
  s.mpi_from = options.mpi_from_bytes;
  const std::uint32_t slots = options.queue_slots;
  const bool slots_ok = slots >= 8 && slots <= (1U << 20) && (slots & (slots - 1)) == 0;
  const int rank = comm.rank();

  // Every rank takes part in every collective below before any throws for its own options.
  MPI_Comm shared = MPI_COMM_NULL;
  detail::check(MPI_Comm_split_type(c, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared),
                "MPI_Comm_split_type", c);
  communicator shared_owner = communicator::adopt(shared, detail::inherited_errors_return);
  MPI_Comm node = MPI_COMM_NULL;
  detail::check(MPI_Comm_split(shared, options.group < 0 ? 0 : options.group, rank, &node),
                "MPI_Comm_split", shared);
  s.node = communicator::adopt(node, detail::inherited_errors_return);
  const int node_size = s.node.size();
  const int me = s.node.rank();

  // Which ranks of comm are on this node, and theirs in it.
  std::vector<int> node_ranks(static_cast<std::size_t>(node_size));
  std::vector<int> node_to_comm(static_cast<std::size_t>(node_size));
  for (int i = 0; i < node_size; ++i)
    node_ranks[static_cast<std::size_t>(i)] = i;
  MPI_Group node_group = MPI_GROUP_NULL;
  MPI_Group comm_group = MPI_GROUP_NULL;
  detail::check(MPI_Comm_group(node, &node_group), "MPI_Comm_group", node);
  detail::check(MPI_Comm_group(c, &comm_group), "MPI_Comm_group", c);
  const int translated = MPI_Group_translate_ranks(node_group, node_size, node_ranks.data(),
                                                   comm_group, node_to_comm.data());
  MPI_Group_free(&node_group);
  MPI_Group_free(&comm_group);
  detail::check(translated, "MPI_Group_translate_ranks", c);
  s.comm_to_node.assign(static_cast<std::size_t>(s.size), -1);
  for (int i = 0; i < node_size; ++i)
    s.comm_to_node[static_cast<std::size_t>(node_to_comm[static_cast<std::size_t>(i)])] = i;
  // Some rank of comm is elsewhere: then every rank has one elsewhere (nodes partition comm).
  // The same reduction tells every rank whether some rank gave a queue size that is no good,
  // so that all throw, before any memory is shared.
  const int given[2] = {node_size, slots_ok && node_size <= 65535 ? 1 : 0};
  int least[2] = {0, 0};
  detail::check(MPI_Allreduce(given, least, 2, MPI_INT, MPI_MIN, c), "MPI_Allreduce", c);
  if (least[1] == 0) {
    detail::raise(MPI_ERR_ARG,
                  detail::error_site{
                      .operation = "thinmpi::node_channel",
                      .comm = c,
                      .problem = node_size > 65535
                                     ? "a node_channel's node holds at most 65535 ranks"
                                     : "node_channel_options::queue_slots must be a power of two "
                                       "from 8 to 2^20 on every rank; " +
                                           (slots_ok ? std::string("another rank gave a bad one")
                                                     : "this rank gave " + std::to_string(slots))});
  }
  const bool other_nodes = least[0] < s.size;

  // The queues: each rank's own segment (page-aligned, on its own NUMA node where MPI does so),
  // 64 bytes over for alignment.
  const std::size_t mine = detail::node::ring::bytes_for(slots) + detail::node::line_bytes;
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* base = nullptr;
  const int allocated =
      MPI_Win_allocate_shared(static_cast<MPI_Aint>(mine), 1, info, node, &base, &s.window);
  MPI_Info_free(&info);
  detail::check(allocated, "MPI_Win_allocate_shared", node);
  detail::check(MPI_Win_lock_all(MPI_MODE_NOCHECK, s.window), "MPI_Win_lock_all", node);
  // This rank's queue first, at the size it asked for; then, once every rank has made its
  // own, the others' at the sizes their owners wrote into them.
  std::vector<void*> bases(static_cast<std::size_t>(node_size));
  std::size_t footprint = 0;
  for (int i = 0; i < node_size; ++i) {
    MPI_Aint bytes = 0;
    int unit = 1;
    void* at = nullptr;
    detail::check(MPI_Win_shared_query(s.window, i, &bytes, &unit, &at), "MPI_Win_shared_query",
                  node);
    const auto address = reinterpret_cast<std::uintptr_t>(at);
    bases[static_cast<std::size_t>(i)] = reinterpret_cast<void*>(
        (address + detail::node::line_bytes - 1) & ~(detail::node::line_bytes - 1));
    footprint += static_cast<std::size_t>(bytes);
  }
  std::vector<detail::node::ring> rings(static_cast<std::size_t>(node_size));
  rings[static_cast<std::size_t>(me)] =
      detail::node::ring(bases[static_cast<std::size_t>(me)], slots);
  rings[static_cast<std::size_t>(me)].format();
  detail::check(MPI_Win_sync(s.window), "MPI_Win_sync", node);
  detail::check(MPI_Barrier(node), "MPI_Barrier", node);
  detail::check(MPI_Win_sync(s.window), "MPI_Win_sync", node);
  for (int i = 0; i < node_size; ++i) {
    void* at = bases[static_cast<std::size_t>(i)];
    rings[static_cast<std::size_t>(i)] =
        detail::node::ring(at, detail::node::ring::formatted_slots(at));
  }
  s.footprint = footprint;
  unsigned cores = std::thread::hardware_concurrency();
  if (cores == 0) cores = 1;
  // Spinning for a few microseconds catches a reply that is on its way; past that the core
  // goes to whoever else runs on it (immediately, almost, where the node has more ranks than
  // cores; other communicators' ranks on the node are not seen here, so the spin stays short).
  detail::node::wait_policy policy{.spins = static_cast<unsigned>(node_size) > cores ? 16U : 256U,
                                   .limit = options.wait_limit};
  s.inbox = detail::node::inbox(std::move(rings), me, node, c, std::move(node_to_comm), policy,
                                other_nodes);
  if (other_nodes) {
    s.remote_comm = comm.dup();
    s.remote.emplace(s.remote_comm);
  }
}

inline void node_channel::close() noexcept {
  if (!state_ || detail::mpi_finalized()) {
    state_.reset();
    return;
  }
  channel_state& s = *state_;
  s.inbox.close();
  s.remote.reset();
  if (s.window != MPI_WIN_NULL) {
    MPI_Win_unlock_all(s.window);
    MPI_Win_free(&s.window);
  }
  state_.reset();
}

inline bool node_channel::send_bytes(const detail::node::message_header& header,
                                     const std::byte* data, int dest, bool only_now) const {
  channel_state& s = state();
  // To itself a rank streams any size through its ring (taking it out while it waits).
  if (header.bytes >= s.mpi_from && dest != s.inbox.me()) {
    detail::node::message_header marker = header;
    marker.kind |= detail::node::kind_by_mpi;
    s.inbox.put(dest, marker, nullptr);
    MPI_Request request = MPI_REQUEST_NULL;
    detail::check(MPI_Isend(data, static_cast<int>(header.bytes), MPI_BYTE, dest, header.tag,
                            s.node.native(), &request),
                  "MPI_Isend", s.node.native());
    detail::node::waiter w(s.inbox.policy().spins);
    int done = 0;
    while (true) {
      detail::check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test", s.node.native());
      if (done) return true;
      s.inbox.pump();
      if (w.pause()) {
        try {
          s.inbox.check_alive(dest, w, "its payload to be received");
        } catch (...) {
          MPI_Cancel(&request);
          MPI_Request_free(&request);
          throw;
        }
      }
    }
  }
  if (only_now) return s.inbox.try_put(dest, header, data);
  s.inbox.put(dest, header, data);
  return true;
}

template <class Payload>
inline bool node_channel::send_payload(const Payload& payload, int dest, int tag,
                                       bool only_now) const {
  static_assert(!view_payload<Payload>,
                "thinmpi::node_channel sends contiguous data; send a strided or subarray view "
                "with comm().send(), or copy it into a vector");
  const char* operation =
      only_now ? "thinmpi::node_channel::try_send" : "thinmpi::node_channel::send";
  if (dest == MPI_PROC_NULL) return true;
  const int to = node_rank(dest, operation, "dest");
  check_tag(tag, false, operation);
  channel_state& s = state();
  if (to < 0) {
    // To another node: the framed protocol, of the payload's bytes as this node's queues
    // carry them (padding too), or of a serialized value's encoding.
    // Sent without blocking, then waited for while this rank takes its own queue: a rank
    // that waited in MPI_Send left its node's senders stuck on its full queue, and a cycle
    // through another node hung (AWaitForAnotherNodeKeepsTakingItsOwnQueue).
    if constexpr (detail::serialized_payload<Payload>) {
      await_remote_send(s.remote->isend(payload, dest, tag));
    } else if constexpr (contiguous_payload<Payload>) {
      await_remote_send(s.remote->isend(
          std::as_bytes(std::span(std::ranges::data(payload), std::ranges::size(payload))), dest,
          tag));
    } else {
      await_remote_send(s.remote->isend(
          std::as_bytes(std::span<const Payload, 1>(std::addressof(payload), 1)), dest, tag));
    }
    return true;
  }
  const auto checked_size = [&](std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max())) [[unlikely]] {
      detail::raise(MPI_ERR_COUNT,
                    detail::error_site{.operation = operation,
                                       .comm = s.comm,
                                       .peer_role = "dest",
                                       .peer = dest,
                                       .tag = tag,
                                       .problem = "a node_channel message holds at most 2 GiB - 1; "
                                                  "this one has " +
                                                  std::to_string(bytes) + " bytes"});
    }
    return bytes;
  };
  const int me = s.inbox.me();
  if constexpr (detail::serialized_payload<Payload>) {
    const auto wire = payload.encode();
    const auto header = detail::node::header_of<std::byte>(tag, me, checked_size(wire.size()),
                                                           detail::node::encoded);
    return send_bytes(header, wire.data(), to, only_now);
  } else if constexpr (contiguous_payload<Payload>) {
    using element = std::ranges::range_value_t<Payload>;
    static_assert(std::is_trivially_copyable_v<element>,
                  "thinmpi::node_channel copies elements as bytes: they must be trivially "
                  "copyable; send other types as thinmpi::serialized(x)");
    const std::size_t bytes = checked_size(std::ranges::size(payload) * sizeof(element));
    const auto header = detail::node::header_of<element>(tag, me, bytes);
    return send_bytes(header, reinterpret_cast<const std::byte*>(std::ranges::data(payload)), to,
                      only_now);
  } else {
    static_assert(scalar_payload<Payload>,
                  "thinmpi::node_channel sends a scalar, a contiguous range or "
                  "thinmpi::serialized(x)");
    static_assert(std::is_trivially_copyable_v<Payload>,
                  "thinmpi::node_channel copies values as bytes: the type must be trivially "
                  "copyable; send other types as thinmpi::serialized(x)");
    const auto header = detail::node::header_of<Payload>(tag, me, sizeof(Payload));
    return send_bytes(header, reinterpret_cast<const std::byte*>(std::addressof(payload)), to,
                      only_now);
  }
}

template <class Payload>
inline void node_channel::send(const Payload& payload, int dest, int tag) const {
  send_payload(payload, dest, tag, false);
}

template <class Payload>
inline bool node_channel::try_send(const Payload& payload, int dest, int tag) const {
  return send_payload(payload, dest, tag, true);
}

template <class Sink>
inline bool node_channel::receive(Sink& sink, int source, int tag, bool block,
                                  MPI_Status& raw) const {
  channel_state& s = state();
  const char* operation = block ? "thinmpi::node_channel::recv" : "thinmpi::node_channel::try_recv";
  check_tag(tag, true, operation);
  if (source == MPI_PROC_NULL) {
    raw = detail::node::make_status(MPI_PROC_NULL, MPI_ANY_TAG, 0);
    return true;
  }
  int from = MPI_ANY_SOURCE;
  if (source != MPI_ANY_SOURCE) {
    from = node_rank(source, operation, "source");
    if (from < 0) {
      if (!block) {
        if (!remote_arrived(source, tag)) return false;
      } else {
        // Polled, taking this rank's own queue meanwhile (as every wait of the channel does),
        // then received: one MPI_Iprobe more than the framed receive alone.
        detail::node::waiter w(s.inbox.policy().spins);
        while (!remote_arrived(source, tag)) {
          s.inbox.pump();
          if (w.pause()) s.inbox.check_limit(w, "a message from another node");
        }
      }
      raw = sink.from_remote(*s.remote, source, tag);
      return true;
    }
  }
  bool remote = false;
  const auto probe_other_nodes = [&]() {
    if (from != MPI_ANY_SOURCE || !s.remote) return false;
    int flag = 0;
    MPI_Status probed;
    detail::check(MPI_Iprobe(MPI_ANY_SOURCE, tag, s.remote_comm.native(), &flag, &probed),
                  "MPI_Iprobe", s.comm);
    if (flag == 0) return false;
    raw = sink.from_remote(*s.remote, probed.MPI_SOURCE, probed.MPI_TAG);
    remote = true;
    return true;
  };
  if (!s.inbox.receive(from, tag, sink, block, probe_other_nodes)) return false;
  if (!remote) {
    raw = detail::node::make_status(s.inbox.comm_rank_of(sink.node_source), sink.tag,
                                    sink.received_bytes());
  }
  return true;
}

template <class Into>
inline status node_channel::recv(Into&& into, int source, int tag) const {
  detail::require_receivable<Into&&>();
  using target = std::remove_cvref_t<Into>;
  static_assert(!view_payload<target>,
                "thinmpi::node_channel receives into contiguous memory; receive a strided or "
                "subarray view with comm().recv()");
  MPI_Status raw;  // set by receive() before it is read
  if constexpr (contiguous_payload<target>) {
    using element = std::ranges::range_value_t<target>;
    detail::node::buffer_sink<element> sink{std::ranges::data(into), std::ranges::size(into),
                                            false};
    receive(sink, source, tag, true, raw);
    if constexpr (resizable_payload<target>) {
      if (source != MPI_PROC_NULL) into.resize(detail::status_bytes(raw) / sizeof(element));
    }
    return status(raw, datatype_of<element>());
  } else {
    detail::node::buffer_sink<target> sink{std::addressof(into), 1, true};
    receive(sink, source, tag, true, raw);
    return status(raw, datatype_of<target>());
  }
}

template <class T>
inline std::optional<received<detail::received_value_t<T>>> node_channel::receive_new(
    int source, int tag, bool block) const {
  using result = received<detail::received_value_t<T>>;
  MPI_Status raw;  // set by receive() before it is read
  if constexpr (detail::serialized_payload<T>) {
    detail::node::encoded_sink<T> sink;
    if (!receive(sink, source, tag, block, raw)) return std::nullopt;
    if (source == MPI_PROC_NULL) return result{{}, status(raw, MPI_BYTE)};
    if (!sink.value) sink.decode(state().comm, raw);
    return result{std::move(*sink.value), status(raw, MPI_BYTE)};
  } else if constexpr (resizable_payload<T>) {
    detail::require_writable<T&>();
    detail::node::container_sink<T> sink;
    if (!receive(sink, source, tag, block, raw)) return std::nullopt;
    return result{std::move(sink.value), status(raw, datatype_of<std::ranges::range_value_t<T>>())};
  } else {
    static_assert(std::is_default_constructible_v<T>,
                  "thinmpi cannot create the T to receive into: it has no default constructor; "
                  "receive into an object you construct with recv(object, source, tag)");
    T value;
    if constexpr (contiguous_payload<T>) {
      using element = std::ranges::range_value_t<T>;
      detail::node::buffer_sink<element> sink{std::ranges::data(value), std::ranges::size(value),
                                              true};
      if (!receive(sink, source, tag, block, raw)) return std::nullopt;
      return result{std::move(value), status(raw, datatype_of<element>())};
    } else {
      detail::node::buffer_sink<T> sink{std::addressof(value), 1, true};
      if (!receive(sink, source, tag, block, raw)) return std::nullopt;
      return result{std::move(value), status(raw, datatype_of<T>())};
    }
  }
}

template <class T>
inline node_recv_request<T> node_channel::irecv(int source, int tag) const {
  check_tag(tag, true, "thinmpi::node_channel::irecv");
  if (source != MPI_ANY_SOURCE && source != MPI_PROC_NULL)
    (void)node_rank(source, "thinmpi::node_channel::irecv", "source");
  return node_recv_request<T>(*this, source, tag);
}

namespace detail::node {

template <class T>
inline bool recv_kind<T>::try_start() {
  got = channel->template receive_new<T>(source, tag, false);
  return got.has_value();
}

template <class T>
inline void recv_kind<T>::start() {
  got = channel->template receive_new<T>(source, tag, true);
}

}  // namespace detail::node

}  // namespace thinmpi
