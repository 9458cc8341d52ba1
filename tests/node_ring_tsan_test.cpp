// The node_channel's queue (node/detail/ring.hpp, inbox.hpp) between threads of one process,
// built with ThreadSanitizer: three "ranks" share three rings; ranks 1 and 2 send rank 0
// thousands of messages of random sizes (one slot to several, longer than the ring) and tags
// while rank 0 receives by source and by tag, checking every byte and that each (source, tag)
// stream arrives in order. No MPI call is made (MPI is not initialised); a data race in the
// ring's memory ordering is a TSan report, and a lost or reordered message a failure.
//
// First, on one thread, the case that stress run found once in a fresh-clone run (two
// messages of one (source, tag) delivered in the wrong order): a receive that finishes storing
// a half-arrived message of another source also stores the messages behind it, and must look
// in the store before it takes the next message at the head of the ring.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "thinmpi/node/detail/inbox.hpp"

namespace {

namespace node = thinmpi::detail::node;

constexpr int messages = 4000;
constexpr std::uint32_t slots = 16;

std::uint8_t byte_of(int from, int seq, std::size_t i) {
  return static_cast<std::uint8_t>(
      (static_cast<std::size_t>(from) * 31 + static_cast<std::size_t>(seq) * 7 + i) & 0xff);
}

/// Message k of sender `from`: its tag and size (up to 1.5 rings).
std::pair<int, std::size_t> plan(int from, int k) {
  std::mt19937 gen(static_cast<unsigned>(from * 1000003 + k));
  const int tag = static_cast<int>(gen() % 2);
  const std::size_t size = gen() % 16 == 0 ? gen() % (slots * 90) : gen() % 130;
  return {tag, size};
}

struct bytes_sink {
  std::vector<std::uint8_t> value;
  int tag = 0;
  int source = 0;
  std::byte* open(const node::message_header& h, std::string&) {
    value.resize(h.bytes);
    return value.empty() ? reinterpret_cast<std::byte*>(this)
                         : reinterpret_cast<std::byte*>(value.data());
  }
  void close(const node::message_header& h) {
    tag = h.tag;
    source = h.source;
  }
};

int failures = 0;
void fail(const std::string& what) {
  if (++failures < 10) std::fprintf(stderr, "node_ring_tsan_test: %s\n", what.c_str());
}

}  // namespace

/// Writes one message at position `at` of `r` and publishes its slots (only the first when
/// `only_first`: the others are published later, as a producer still filling them would).
void publish_message(node::ring& r, std::uint64_t at, const node::message_header& h,
                     const std::vector<std::uint8_t>& payload, bool only_first) {
  std::memcpy(r.body(at), &h, sizeof h);
  const std::size_t first = std::min<std::size_t>(payload.size(), node::first_slot_payload);
  std::memcpy(r.body(at) + sizeof h, payload.data(), first);
  r.publish(at);
  for (std::size_t done = first, i = 1; done < payload.size(); ++i) {
    const std::size_t piece = std::min<std::size_t>(payload.size() - done, node::next_slot_payload);
    std::memcpy(r.body(at + i), payload.data() + done, piece);
    if (!only_first) r.publish(at + i);
    done += piece;
  }
}

/// The store is searched after a receive stored what followed a half-arrived message: rank 2's
/// message of three slots arrives one slot at a time while rank 1's two messages wait behind it.
void stored_messages_come_first(unsigned char* memory) {
  node::ring r(memory, slots);
  r.format();
  std::vector<node::ring> one{r, r, r};  // rank 0's ring; ranks 1 and 2 only produce here
  node::inbox receiver(one, 0, MPI_COMM_NULL, MPI_COMM_NULL, {0, 1, 2},
                       node::wait_policy{.spins = 1}, false);
  const std::vector<std::uint8_t> long_payload(
      node::first_slot_payload + 2 * node::next_slot_payload, 9);
  const std::uint64_t at_long = r.claim(3);
  const std::uint64_t at_a = r.claim(1);
  const std::uint64_t at_b = r.claim(1);
  publish_message(r, at_long, {5, 2, 1, 1, static_cast<std::uint32_t>(long_payload.size())},
                  long_payload, true);
  publish_message(r, at_a, {0, 1, 1, 1, 1}, {0xa}, false);
  bytes_sink first;
  if (receiver.receive(1, 0, first, false, [] { return false; })) {
    fail("a message from rank 1 arrived behind a message that has not");
  }
  // The rest of rank 2's message; rank 1's first (0xa) is behind it, its second (0xb) comes
  // after this receive stored the first.
  for (std::uint64_t i = 1; i < 3; ++i)
    r.publish(at_long + i);
  bytes_sink got;
  if (!receiver.receive(1, 0, got, false, [] { return false; })) {
    fail("rank 1's message stored behind rank 2's was not received");
  } else if (got.value != std::vector<std::uint8_t>{0xa}) {
    fail("rank 1's messages were received out of order");
  }
  publish_message(r, at_b, {0, 1, 1, 1, 1}, {0xb}, false);
  bytes_sink second;
  if (!receiver.receive(1, 0, second, false, [] { return false; }) ||
      second.value != std::vector<std::uint8_t>{0xb}) {
    fail("rank 1's second message was not received after its first");
  }
  bytes_sink rest;
  if (!receiver.receive(2, 5, rest, false, [] { return false; }) || rest.value != long_payload) {
    fail("rank 2's message of three slots was not received whole");
  }
}

int main() {
  const std::size_t each = node::ring::bytes_for(slots);
  {
    auto* alone = static_cast<unsigned char*>(std::aligned_alloc(64, each));
    stored_messages_come_first(alone);
    std::free(alone);
  }
  auto* memory = static_cast<unsigned char*>(std::aligned_alloc(64, 3 * each));
  std::vector<node::ring> rings;
  for (int i = 0; i < 3; ++i) {
    rings.emplace_back(memory + static_cast<std::size_t>(i) * each, slots);
    rings.back().format();
  }
  const auto inbox_of = [&](int me) {
    return node::inbox(rings, me, MPI_COMM_NULL, MPI_COMM_NULL, {0, 1, 2},
                       node::wait_policy{.spins = 256}, false);
  };
  std::vector<std::thread> senders;
  for (int from = 1; from <= 2; ++from) {
    senders.emplace_back([&, from] {
      node::inbox mine = inbox_of(from);
      std::vector<std::uint8_t> payload;
      for (int k = 0; k < messages; ++k) {
        const auto [tag, size] = plan(from, k);
        payload.resize(size);
        for (std::size_t i = 0; i < size; ++i)
          payload[i] = byte_of(from, k, i);
        const node::message_header h{tag, static_cast<std::uint16_t>(from), 1, 4,
                                     static_cast<std::uint32_t>(size)};
        mine.put(0, h, reinterpret_cast<const std::byte*>(payload.data()));
      }
    });
  }
  node::inbox receiver = inbox_of(0);
  // Per (source, tag): the next k expected.
  int next[3][2] = {{0, 0}, {0, 0}, {0, 0}};
  const auto advance = [&](int from, int tag) {
    int& k = next[from][tag];
    while (k < messages && plan(from, k).first != tag)
      ++k;
    return k;
  };
  int received = 0;
  for (int round = 0; received < 2 * messages; ++round) {
    // Alternate: a given source and tag, then any source with a tag, then anything.
    const int from = 1 + round % 2;
    const int tag = (round / 2) % 2;
    int ask_source = round % 3 == 2 ? MPI_ANY_SOURCE : from;
    int ask_tag = round % 5 == 4 ? MPI_ANY_TAG : tag;
    // Ask only for what some sender still has to send, else for anything.
    bool satisfiable = false;
    for (int s = 1; s <= 2; ++s)
      for (int t = 0; t < 2; ++t)
        if ((ask_source == MPI_ANY_SOURCE || ask_source == s) &&
            (ask_tag == MPI_ANY_TAG || ask_tag == t) && advance(s, t) < messages)
          satisfiable = true;
    if (!satisfiable) ask_source = MPI_ANY_SOURCE, ask_tag = MPI_ANY_TAG;
    bytes_sink sink;
    receiver.receive(ask_source, ask_tag, sink, true, [] { return false; });
    const int k = advance(sink.source, sink.tag);
    if (k >= messages) {
      fail("a message nobody sent, from " + std::to_string(sink.source));
      break;
    }
    ++next[sink.source][sink.tag];
    const auto [want_tag, want_size] = plan(sink.source, k);
    if (sink.value.size() != want_size)
      fail("message " + std::to_string(k) + " has the wrong size");
    for (std::size_t i = 0; i < sink.value.size() && i < want_size; ++i) {
      if (sink.value[i] != byte_of(sink.source, k, i)) {
        fail("message " + std::to_string(k) + " byte " + std::to_string(i) + " differs");
        break;
      }
    }
    ++received;
  }
  for (auto& t : senders)
    t.join();
  std::free(memory);
  std::printf("node_ring_tsan_test: %d messages, %d failures\n", received, failures);
  return failures == 0 ? 0 : 1;
}
