#pragma once
/// \file
/// The state of one rank's node_channel, below its typed face (node/channel.hpp): the rings of
/// the node, this rank's place in its own (the consumer's position), the messages taken out of
/// the ring before a receive asked for them (in arrival order), and the waiting policy. Typed
/// code hands a sink, which says where a message's bytes go once its header is known.

#include <sched.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <thread>
#include <vector>

#include "thinmpi/core/default_init_allocator.hpp"
#include "thinmpi/core/detail/mpi.hpp"
#include "thinmpi/core/detail/raise.hpp"
#include "thinmpi/node/detail/ring.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace thinmpi::detail::node {

/// Tells the core a spinning thread waits (a pause on x86, a yield hint on Arm).
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

/// Spins, then yields the core: on a node with more ranks than cores a waiting rank gives its
/// core to the one it waits for after `spins` rounds (few when oversubscribed). Every 1024
/// rounds after the spinning it asks the caller to look whether the peer is still there; the
/// clock is first read then, so a wait that ends while spinning never reads it.
class waiter {
 public:
  explicit waiter(unsigned spins) noexcept : spins_(spins) {}
  /// One round of waiting; true when the caller should check the peer and the time limit.
  [[nodiscard]] bool pause() noexcept {
    ++rounds_;
    if (rounds_ < spins_) {
      cpu_relax();
      return false;
    }
    sched_yield();
    return (rounds_ & 1023U) == 0;
  }
  /// Rounds waited so far.
  [[nodiscard]] std::uint64_t rounds() const noexcept { return rounds_; }
  /// How long this wait has lasted since its first check.
  [[nodiscard]] std::chrono::steady_clock::duration waited() noexcept {
    const auto now = std::chrono::steady_clock::now();
    if (!timed_) started_ = now;
    timed_ = true;
    return now - started_;
  }

 private:
  unsigned spins_;
  std::uint64_t rounds_ = 0;
  std::chrono::steady_clock::time_point started_{};
  bool timed_ = false;
};

/// Bytes of a message kept until a receive asks for it.
using stored_bytes = std::vector<std::byte, default_init_allocator<std::byte>>;

/// A message taken out of the ring before a receive matched it.
struct arrival {
  message_header header;
  stored_bytes bytes;                      ///< its payload (none for one that travels by MPI)
  std::uint64_t slots = 1;                 ///< slots it takes in the ring
  std::uint64_t copied = 0;                ///< slots copied out of the ring so far
  MPI_Request request = MPI_REQUEST_NULL;  ///< the receive of a payload that travels by MPI
  [[nodiscard]] bool complete() const noexcept { return copied == slots; }
};

/// Where a receive's bytes go. `open` gets the message's header and returns the address for
/// its bytes, or nullptr with `problem` set when the message does not fit the receive (then
/// the message is taken and dropped, and the receive throws). `close` runs after the copy.
template <class S>
concept sink = requires(S& s, const message_header& h, std::string& problem) {
  { s.open(h, problem) } -> std::same_as<std::byte*>;
  s.close(h);
};

/// How a node_channel waits (node_channel_options, resolved at construction).
struct wait_policy {
  unsigned spins = 256;
  std::chrono::milliseconds limit{0};  ///< 0: no limit
};

/// One rank's view of the channel's shared memory and its own inbound queue.
class inbox {
 public:
  inbox() = default;
  inbox(std::vector<ring> rings, int me, MPI_Comm node_comm, MPI_Comm user_comm,
        std::vector<int> node_to_comm, wait_policy policy, bool other_nodes)
      : rings_(std::move(rings)),
        known_(rings_.size(), 0),
        me_(me),
        node_comm_(node_comm),
        user_comm_(user_comm),
        node_to_comm_(std::move(node_to_comm)),
        policy_(policy),
        other_nodes_(other_nodes) {}

  [[nodiscard]] ring& of(int node_rank) noexcept {
    return rings_[static_cast<std::size_t>(node_rank)];
  }
  [[nodiscard]] int node_size() const noexcept { return static_cast<int>(rings_.size()); }
  [[nodiscard]] int me() const noexcept { return me_; }
  [[nodiscard]] int comm_rank_of(int node_rank) const noexcept {
    return node_to_comm_[static_cast<std::size_t>(node_rank)];
  }
  [[nodiscard]] const wait_policy& policy() const noexcept { return policy_; }
  /// Messages taken out of the ring and not yet received.
  [[nodiscard]] std::size_t stored() const noexcept { return unexpected_.size(); }

  // ---- sending ----

  /// Slots the message of `header` takes: one for a header whose payload goes by MPI.
  [[nodiscard]] static std::uint64_t slots_of(const message_header& header) noexcept {
    return (header.kind & kind_by_mpi) != 0 ? 1 : slots_for(header.bytes);
  }

  /// Puts one message into node rank `dest`'s ring: claims its slots, then fills and
  /// publishes them in order, taking this rank's own messages out of its ring while it waits
  /// for room (so two ranks sending to each other's full rings both go on).
  ///
  /// A message that fits the ring is claimed only once all its slots are free, so a wait that
  /// ends in an error (the time limit, a closed ring) has claimed nothing: a claimed slot that
  /// nobody fills would stop every later message to `dest`. A longer one is claimed at once
  /// and streams through slot by slot.
  void put(int dest, const message_header& header, const std::byte* data) {
    ring& r = of(dest);
    const std::uint64_t slots = slots_of(header);
    if (slots > r.slots()) [[unlikely]] {
      fill(r, r.claim(slots), slots, header, data, dest);
      return;
    }
    if (try_put(dest, header, data)) [[likely]]
      return;
    waiter w(policy_.spins);
    do {
      pump();
      if (wait_round(w)) check_alive(dest, w, "room in the ring");
    } while (!try_put(dest, header, data));
  }
  /// put() only if the ring has room for the whole message now; false (nothing sent) if not.
  [[nodiscard]] bool try_put(int dest, const message_header& header, const std::byte* data) {
    ring& r = of(dest);
    const std::uint64_t slots = slots_of(header);
    std::uint64_t first = 0;
    if (slots > r.slots() || !r.try_claim(slots, first, known_[static_cast<std::size_t>(dest)]))
      return false;
    fill(r, first, slots, header, data, dest);
    return true;
  }

  // ---- receiving ----

  /// Whether a header from node rank `source` (or any) with `tag` (or any) is asked for.
  [[nodiscard]] static bool matches(const message_header& h, int source, int tag) noexcept {
    return (source == MPI_ANY_SOURCE || h.source == source) && (tag == MPI_ANY_TAG || h.tag == tag);
  }

  /// Receives the first message from node rank `source` (or MPI_ANY_SOURCE) with `tag` (or
  /// MPI_ANY_TAG) into `s`. Blocking, or not (then false when none has arrived). `idle` runs
  /// while nothing matching is in the ring (the channel's probe of other nodes); it returns true
  /// when it received the message itself.
  template <sink S, class Idle>
  bool receive(int source, int tag, S& s, bool block, Idle&& idle) {
    waiter w(policy_.spins);
    while (true) {
      if (!unexpected_.empty() && receive_stored(source, tag, s)) return true;
      if (draining_) {
        pump();
        if (draining_) {
          if (!block) return false;
          if (wait_round(w)) check_alive(unexpected_.back().header.source, w, "a message");
        }
        // pump() also stored what had arrived behind the message it finished: a match among
        // those comes before the head of the ring (taking the head first delivered a later
        // message of the same source and tag first).
        continue;
      }
      ring& mine = of(me_);
      if (mine.is_published(head_)) {
        message_header h;
        std::memcpy(&h, mine.body(head_), sizeof h);
        if (matches(h, source, tag)) {
          deliver(h, s);
          release(false);
          return true;
        }
        start_drain(h);
        continue;
      }
      if (idle()) return true;
      release(true);
      if (!block) return false;
      progress_mpi();
      if (wait_round(w)) check_alive(source, w, "a message");
    }
  }

  /// Drives MPI for the stored payloads that travel by it (their senders wait on them, and
  /// MPI moves a large message only while both sides call it).
  void progress_mpi() {
    if (pending_mpi_ == 0) return;
    for (arrival& a : unexpected_) {
      if (a.request == MPI_REQUEST_NULL) continue;
      int done = 0;
      check(MPI_Test(&a.request, &done, MPI_STATUS_IGNORE), "MPI_Test", node_comm_);
      if (done) --pending_mpi_;
    }
  }

  /// Takes what has been published in this rank's ring into the store, without blocking, and
  /// drives the MPI receives of stored payloads.
  void pump() {
    progress_mpi();
    pump_ring();
    release(true);
  }

 private:
  void pump_ring() {
    ring& mine = of(me_);
    while (true) {
      if (draining_) {
        arrival& a = unexpected_.back();
        while (!a.complete() && mine.is_published(head_)) {
          copy_next(mine, a.copied, a.header.bytes, a.bytes.data());
          ++head_;
          ++a.copied;
        }
        if (!a.complete()) return;
        draining_ = false;
      }
      if (!mine.is_published(head_)) return;
      message_header h;
      std::memcpy(&h, mine.body(head_), sizeof h);
      start_drain(h);
    }
  }

 public:
  /// Throws if this rank waited past the time limit, or if what it waits for can no longer
  /// come: node rank `peer` has closed its channel (for MPI_ANY_SOURCE: every other rank of
  /// the node has, and no other node can send). `what` names the wait.
  void check_alive(int peer, waiter& w, const char* what) const {
    const bool gone = peer == MPI_ANY_SOURCE ? (!other_nodes_ && all_others_closed())
                                             : rings_[static_cast<std::size_t>(peer)].closed();
    if (gone) {
      raise(MPI_ERR_OTHER,
            error_site{.operation = "thinmpi::node_channel",
                       .comm = user_comm_,
                       .problem = std::string("waited for ") + what + " from " +
                                  (peer == MPI_ANY_SOURCE
                                       ? std::string("any rank, but every other rank")
                                       : "rank " + std::to_string(comm_rank_of(peer)) +
                                             ", but rank " + std::to_string(comm_rank_of(peer))) +
                                  " of the node has closed its node_channel (it was destroyed, "
                                  "or its rank left by an exception)"});
    }
    check_limit(w, what);
  }
  /// Throws if this rank waited past the time limit; `what` names the wait.
  void check_limit(waiter& w, const char* what) const {
    if (policy_.limit.count() > 0 && w.waited() > policy_.limit) {
      raise(MPI_ERR_OTHER,
            error_site{.operation = "thinmpi::node_channel",
                       .comm = user_comm_,
                       .problem = std::string("waited for ") + what + " longer than the " +
                                  std::to_string(policy_.limit.count()) +
                                  " ms node_channel_options::wait_limit"});
    }
  }

  /// One round of a wait (waiter::pause). When other nodes can send, every 32nd round also
  /// lets MPI progress (an MPI_Iprobe), so that ranks blocked in MPI_Send to this one, whose
  /// eager buffers are full, go on while it waits in the channel.
  [[nodiscard]] bool wait_round(waiter& w) const {
    if (other_nodes_ && (w.rounds() & 31U) == 0) {
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, node_comm_, &flag, MPI_STATUS_IGNORE);
    }
    return w.pause();
  }

  /// Marks this rank's ring closed: ranks waiting on it stop with an error. Gives up the
  /// receives of stored payloads that travel by MPI.
  void close() noexcept {
    if (!rings_.empty()) of(me_).close();
    for (arrival& a : unexpected_) {
      if (a.request == MPI_REQUEST_NULL) continue;
      MPI_Cancel(&a.request);
      MPI_Wait(&a.request, MPI_STATUS_IGNORE);
    }
    unexpected_.clear();
  }

 private:
  void fill(ring& r, std::uint64_t first, std::uint64_t slots, const message_header& header,
            const std::byte* data, int dest) {
    wait_free(r, first, dest);
    unsigned char* body = r.body(first);
    std::memcpy(body, &header, sizeof header);
    const std::size_t bytes = header.bytes;
    const bool by_mpi = (header.kind & kind_by_mpi) != 0;
    const std::size_t head_bytes =
        by_mpi ? 0 : (bytes < first_slot_payload ? bytes : first_slot_payload);
    if (head_bytes != 0) std::memcpy(body + sizeof header, data, head_bytes);
    r.publish(first);
    std::size_t done = head_bytes;
    // A message that fits the ring waits once, for its last slot (the consumer frees in
    // order, so the others are free too), then its stores stream; a longer one waits for
    // each slot as the consumer frees it.
    const bool whole = slots <= r.slots();
    if (whole && slots > 1) {
      wait_free(r, first + slots - 1, dest);
      for (std::uint64_t i = 1; i < slots; ++i)
        __builtin_prefetch(r.body(first + i), 1);
    }
    for (std::uint64_t i = 1; i < slots; ++i) {
      if (!whole) wait_free(r, first + i, dest);
      const std::size_t piece = bytes - done < next_slot_payload ? bytes - done : next_slot_payload;
      copy_piece(r.body(first + i), data + done, piece);
      r.publish(first + i);
      done += piece;
    }
  }

  void wait_free(ring& r, std::uint64_t at, int dest) {
    std::uint64_t& known = known_[static_cast<std::size_t>(dest)];
    if (r.has_room(at, known)) [[likely]]
      return;
    waiter w(policy_.spins);
    while (!r.has_room(at, known)) {
      pump();
      if (wait_round(w)) check_alive(dest, w, "room in the ring");
    }
  }

  /// Hands the slots read so far back to the producers: every quarter ring, or (`now`) before
  /// this rank waits or blocks in MPI.
  void release(bool now) noexcept {
    ring& mine = of(me_);
    if (head_ == released_) return;
    if (now || head_ - released_ >= mine.slots() / 4) {
      mine.release_before(head_);
      released_ = head_;
    }
  }

  /// Copies slot `index` (> 0) of a message of `bytes` bytes, at the head, to `to` (if any).
  void copy_next(ring& mine, std::uint64_t index, std::size_t bytes, std::byte* to) const noexcept {
    const std::size_t offset = first_slot_payload + (index - 1) * next_slot_payload;
    const std::size_t piece =
        bytes - offset < next_slot_payload ? bytes - offset : next_slot_payload;
    if (to != nullptr) copy_piece(to + offset, mine.body(head_), piece);
  }

  /// Copies one slot's piece: a full one with a copy of constant size, which the compiler
  /// inlines (a call of memcpy per 60 bytes cost more than the bytes on both sides).
  static void copy_piece(void* to, const void* from, std::size_t piece) noexcept {
    if (piece == next_slot_payload) [[likely]] {
      std::memcpy(to, from, next_slot_payload);
    } else {
      std::memcpy(to, from, piece);
    }
  }

  /// Begins taking the message whose header is at the head into the store.
  void start_drain(const message_header& h) {
    ring& mine = of(me_);
    arrival& a = unexpected_.emplace_back();
    a.header = h;
    const bool by_mpi = (h.kind & kind_by_mpi) != 0;
    a.slots = slots_of(h);
    a.bytes.resize(h.bytes);
    if (by_mpi) {
      // Received at once into the store, so that the sender, which waits for it, goes on.
      check(MPI_Irecv(a.bytes.data(), static_cast<int>(h.bytes), MPI_BYTE, h.source, h.tag,
                      node_comm_, &a.request),
            "MPI_Irecv", node_comm_);
      ++pending_mpi_;
    } else {
      const std::size_t first = h.bytes < first_slot_payload ? h.bytes : first_slot_payload;
      if (first != 0) std::memcpy(a.bytes.data(), mine.body(head_) + sizeof h, first);
    }
    ++head_;
    a.copied = 1;
    draining_ = !a.complete();
    if (draining_) pump_ring();
  }

  /// Receives the first stored message that matches, finishing it first if it is the one
  /// still being taken out of the ring. False if none matches.
  template <sink S>
  bool receive_stored(int source, int tag, S& s) {
    for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
      if (!matches(it->header, source, tag)) continue;
      if (!it->complete()) {  // the last, still draining: finish it (pump() may store more
        // after it, and invalidates iterators: it is found again by its index)
        const auto index = static_cast<std::size_t>(it - unexpected_.begin());
        waiter w(policy_.spins);
        const int from = it->header.source;
        while (draining_) {
          pump();
          if (draining_ && wait_round(w)) check_alive(from, w, "the rest of a message");
        }
        it = unexpected_.begin() + static_cast<std::ptrdiff_t>(index);
      }
      const message_header h = it->header;
      std::string problem;
      std::byte* to = s.open(h, problem);
      if (it->request != MPI_REQUEST_NULL) {
        --pending_mpi_;
        check(MPI_Wait(&it->request, MPI_STATUS_IGNORE), "MPI_Wait", node_comm_);
      }
      if (to != nullptr && h.bytes != 0) std::memcpy(to, it->bytes.data(), h.bytes);
      unexpected_.erase(it);
      if (to == nullptr) raise_unfit(h, problem);
      s.close(h);
      return true;
    }
    return false;
  }

  /// Receives the message at the head straight into the sink, slot by slot as they come.
  template <sink S>
  void deliver(const message_header& h, S& s) {
    ring& mine = of(me_);
    std::string problem;
    std::byte* to = s.open(h, problem);
    if ((h.kind & kind_by_mpi) != 0) {
      ++head_;
      receive_by_mpi(h, to);
    } else {
      const std::size_t first = h.bytes < first_slot_payload ? h.bytes : first_slot_payload;
      if (to != nullptr) std::memcpy(to, mine.body(head_) + sizeof h, first);
      ++head_;
      const std::uint64_t slots = slots_of(h);
      // A message that fits the ring is copied once its last slot is published (the
      // producer publishes in order, so every slot before it is too): the copy then streams
      // instead of chasing the producer line by line. A longer one streams through the ring,
      // each slot copied as it comes.
      const bool whole = slots <= mine.slots();
      if (whole && slots > 1) {
        wait_published(mine, head_ + slots - 2, h.source);
        // Ask for every line at once: the copies below then wait for none of them in turn.
        for (std::uint64_t i = 0; i + 1 < slots; ++i)
          __builtin_prefetch(mine.body(head_ + i));
      }
      for (std::uint64_t i = 1; i < slots; ++i) {
        if (!whole) {
          release(false);
          wait_published(mine, head_, h.source);
        }
        copy_next(mine, i, h.bytes, to);
        ++head_;
      }
    }
    if (to == nullptr) raise_unfit(h, problem);
    s.close(h);
  }

  void wait_published(ring& mine, std::uint64_t at, int from) {
    if (mine.is_published(at)) return;
    release(true);
    waiter w(policy_.spins);
    while (!mine.is_published(at)) {
      if (wait_round(w)) check_alive(from, w, "the rest of a message");
    }
  }

  /// The payload of a message whose header came through the ring: one MPI_Recv on the node
  /// communicator from its sender, with its tag (into scratch and dropped if `to` is null).
  void receive_by_mpi(const message_header& h, std::byte* to) {
    release(true);
    stored_bytes scratch;
    if (to == nullptr) {
      scratch.resize(h.bytes);
      to = scratch.data();
    }
    check(MPI_Recv(to, static_cast<int>(h.bytes), MPI_BYTE, h.source, h.tag, node_comm_,
                   MPI_STATUS_IGNORE),
          "MPI_Recv", node_comm_);
  }

  [[noreturn]] void raise_unfit(const message_header& h, const std::string& problem) const {
    raise(MPI_ERR_TRUNCATE,
          error_site{.operation = "thinmpi::node_channel::recv",
                     .comm = user_comm_,
                     .peer_role = "source",
                     .peer = comm_rank_of(h.source),
                     .tag = h.tag,
                     .incoming_bytes = h.bytes,
                     .problem = problem + " (the message was taken and dropped)"});
  }

  [[nodiscard]] bool all_others_closed() const noexcept {
    for (std::size_t i = 0; i < rings_.size(); ++i) {
      if (static_cast<int>(i) != me_ && !rings_[i].closed()) return false;
    }
    return true;
  }

  std::vector<ring> rings_;
  std::vector<std::uint64_t> known_;  ///< per ring, the consumer's position last read
  int me_ = 0;
  MPI_Comm node_comm_ = MPI_COMM_NULL;
  MPI_Comm user_comm_ = MPI_COMM_NULL;
  std::vector<int> node_to_comm_;
  wait_policy policy_;
  bool other_nodes_ = false;        ///< ranks of other nodes can send to this one
  std::uint64_t head_ = 0;          ///< the next position of this rank's ring to read
  std::uint64_t released_ = 0;      ///< the position last handed back to the producers
  std::deque<arrival> unexpected_;  ///< taken out of the ring, not yet received
  bool draining_ = false;           ///< the last stored message is still coming
  std::size_t pending_mpi_ = 0;     ///< stored payloads whose MPI receive may not have completed
};

}  // namespace thinmpi::detail::node
