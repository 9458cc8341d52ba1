#pragma once
/// \file
/// The inbound queue of one rank of a node_channel: a bounded ring of 64-byte slots in memory
/// the ranks of a node share, written by any number of producers (the ranks sending to its
/// owner) and read by one consumer (its owner). No MPI here: tests run it between two threads
/// of one process under ThreadSanitizer (tests/node_ring_tsan_test.cpp).
///
/// Layout, from a 64-byte-aligned base: a cache line holding the producers' claim counter, a
/// line holding the owner's state (closed flag, slot count), a line holding the consumer's
/// position (how far it has read), then the slots. A message takes consecutive positions,
/// claimed together by one fetch_add on the claim counter: its first slot holds a 16-byte
/// header (after the slot's 32-bit sequence number) and up to 48 payload bytes, each further
/// slot 60 bytes. The producer fills a slot and publishes it by a release store of position
/// + 1 into its sequence number; the consumer reads a slot once that number says so (acquire
/// load). Positions only grow, so what an earlier lap left in a slot never reads as
/// published. A position is free for its producer once the consumer's position is past it
/// minus the ring's size; the consumer stores its position every quarter ring and whenever
/// it waits, and each producer keeps the last one it read, so a producer reads the consumer's
/// line once a quarter ring at most and never touches a slot the consumer is reading. A
/// single producer sends a 4-byte message with one claim, one store of 20 bytes and one
/// release store; the consumer spends one acquire load and one copy.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace thinmpi::detail::node {

/// One cache line: the unit of the ring.
inline constexpr std::size_t line_bytes = 64;
/// Payload bytes in a message's first slot, after its header.
inline constexpr std::size_t first_slot_payload = 48;
/// Payload bytes in every further slot of a message, after the slot's sequence number.
inline constexpr std::size_t next_slot_payload = 60;

/// What the first slot of a message says of it.
struct message_header {
  std::int32_t tag = 0;
  std::uint16_t source = 0;       ///< the sender's rank in the node communicator
  std::uint8_t element_size = 0;  ///< bytes per element (255: 255 or more)
  std::uint8_t kind = 0;          ///< element_kind; kind_by_mpi set: the payload travels by MPI
  std::uint32_t bytes = 0;        ///< payload bytes
};
static_assert(sizeof(message_header) == 12);

/// A kind with this bit set names a message whose payload follows by MPI on the node
/// communicator; the ring carries only its header.
inline constexpr std::uint8_t kind_by_mpi = 0x80;

/// Slots a message of `bytes` payload bytes takes in the ring (at least one).
[[nodiscard]] constexpr std::uint64_t slots_for(std::size_t bytes) noexcept {
  if (bytes <= first_slot_payload) return 1;
  return 1 + (bytes - first_slot_payload + next_slot_payload - 1) / next_slot_payload;
}

/// A view of one rank's inbound queue in shared memory (the memory is owned elsewhere).
class ring {
 public:
  /// Bytes of shared memory a ring of `slots` slots takes.
  [[nodiscard]] static constexpr std::size_t bytes_for(std::size_t slots) noexcept {
    return 3 * line_bytes + slots * line_bytes;
  }

  ring() = default;
  /// A view of the ring at `base` (64-byte aligned) of `slots` slots, a power of two.
  ring(void* base, std::uint32_t slots) noexcept
      : base_(static_cast<unsigned char*>(base)), mask_(slots - 1) {}

  /// Makes the memory an empty open ring. Only the owner, before any other rank touches it
  /// (a barrier after).
  void format() noexcept {
    std::memset(base_, 0, bytes_for(mask_ + 1));
    state(1).store(mask_ + 1, std::memory_order_release);
  }
  /// The slot count the owner formatted the ring at `base` with (read after format()).
  [[nodiscard]] static std::uint32_t formatted_slots(const void* base) noexcept {
    return std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t*>(
                                              static_cast<unsigned char*>(const_cast<void*>(base)) +
                                              line_bytes + sizeof(std::uint32_t)))
        .load(std::memory_order_acquire);
  }

  [[nodiscard]] std::uint32_t slots() const noexcept { return mask_ + 1; }

  // ---- producers ----

  /// Claims `n` consecutive positions and returns the first; the caller must then fill and
  /// publish every one of them in order.
  [[nodiscard]] std::uint64_t claim(std::uint64_t n) noexcept {
    return claim_counter().fetch_add(n, std::memory_order_relaxed);
  }
  /// Claims `n` (at most slots()) positions only if all are free now; false if not.
  /// `known` is the caller's last reading of the consumer's position.
  [[nodiscard]] bool try_claim(std::uint64_t n, std::uint64_t& first,
                               std::uint64_t& known) noexcept {
    auto counter = claim_counter();
    std::uint64_t at = counter.load(std::memory_order_relaxed);
    while (true) {
      if (!has_room(at + n - 1, known)) return false;
      if (counter.compare_exchange_weak(at, at + n, std::memory_order_relaxed)) {
        first = at;
        return true;
      }
    }
  }
  /// Whether the slot of position `at` is free for its producer: from `known` (the caller's
  /// last reading of the consumer's position), else from a new reading stored there.
  [[nodiscard]] bool has_room(std::uint64_t at, std::uint64_t& known) const noexcept {
    if (at < known + mask_ + 1) [[likely]]
      return true;
    known = consumed().load(std::memory_order_acquire);
    return at < known + mask_ + 1;
  }
  /// The body of the slot of position `at` (60 bytes after its sequence number).
  [[nodiscard]] unsigned char* body(std::uint64_t at) const noexcept {
    return slot(at) + sizeof(std::uint32_t);
  }
  /// Hands position `at` to the consumer.
  void publish(std::uint64_t at) noexcept {
    sequence(at).store(static_cast<std::uint32_t>(at + 1), std::memory_order_release);
  }

  // ---- the consumer ----

  /// Whether position `at` has been published.
  [[nodiscard]] bool is_published(std::uint64_t at) const noexcept {
    return sequence(at).load(std::memory_order_acquire) == static_cast<std::uint32_t>(at + 1);
  }
  /// Gives every position before `head` back to the producers.
  void release_before(std::uint64_t head) noexcept {
    consumed().store(head, std::memory_order_release);
  }

  // ---- the owner's state ----

  /// Marks the ring's owner as gone: it takes no more messages.
  void close() noexcept { state(0).store(1, std::memory_order_release); }
  [[nodiscard]] bool closed() const noexcept {
    return state(0).load(std::memory_order_acquire) != 0;
  }

 private:
  [[nodiscard]] std::atomic_ref<std::uint64_t> claim_counter() const noexcept {
    return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(base_));
  }
  [[nodiscard]] std::atomic_ref<std::uint32_t> state(std::size_t word) const noexcept {
    return std::atomic_ref<std::uint32_t>(
        reinterpret_cast<std::uint32_t*>(base_ + line_bytes)[word]);
  }
  [[nodiscard]] std::atomic_ref<std::uint64_t> consumed() const noexcept {
    return std::atomic_ref<std::uint64_t>(
        *reinterpret_cast<std::uint64_t*>(base_ + 2 * line_bytes));
  }
  [[nodiscard]] unsigned char* slot(std::uint64_t at) const noexcept {
    return base_ + 3 * line_bytes + (at & mask_) * line_bytes;
  }
  [[nodiscard]] std::atomic_ref<std::uint32_t> sequence(std::uint64_t at) const noexcept {
    return std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t*>(slot(at)));
  }

  unsigned char* base_ = nullptr;
  std::uint32_t mask_ = 0;
};

}  // namespace thinmpi::detail::node
