// The node suite's thinmpi variants: thinmpi::node_channel between the two ranks of a pair
// (wb_node; the channel is made over the pair's communicator), each against the C variant that
// moves the same bytes through MPI in the same process:
//
//   thinmpi/channel_known    send(span) / recv(span): the size is known    vs c/char_buffer
//   thinmpi/channel_unknown  send(span) / recv<std::vector<char>>()        vs c/char_buffer
//   thinmpi/channel_ring     channel_known with mpi_from_bytes past every size: the ring
//                            carries every payload (where the ring stops beating C: the
//                            crossover the default mpi_from_bytes comes from)
//   thinmpi/channel_rate     a window of node_window.h's messages one way, a 1-byte ack back
//                            vs c/rate_isend
//
// Rank 0 sends first; rank 1 sends back what it received, so both ranks can verify it.

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <limits>
#include <span>
#include <vector>

#include "cxx_variant.hpp"
#include "node_window.h"
#include "thinmpi/thinmpi.hpp"
#include "variant.h"

namespace {

constexpr int tag = 7;

/// One variant's channel and buffers on one rank of its pair.
struct channel_state {
  int rank;
  int peer;
  thinmpi::node_channel channel;
  std::vector<char> sent;
  std::vector<char> received;  // the last payload; channel_rate: the window's buffers
};

/// The C kernels' byte pattern (c_kernel.h), so that every variant sends the same bytes.
std::vector<char> pattern(std::size_t bytes) {
  std::vector<char> values(bytes);
  for (std::size_t i = 0; i < bytes; ++i)
    values[i] = static_cast<char>((i * 31 + 7) & 0x7f);
  return values;
}

thinmpi::node_channel_options options_for(bool ring_only) {
  thinmpi::node_channel_options options;
  if (ring_only) options.mpi_from_bytes = std::numeric_limits<std::size_t>::max();
  return options;
}

template <bool RingOnly, std::size_t Buffers = 1>
void* make_state(MPI_Comm comm, std::size_t count) noexcept {
  return wb_cxx::in_setup([&]() -> void* {
    const thinmpi::comm_view pair(comm);
    const int rank = pair.rank();
    return new channel_state{rank, 1 - rank, thinmpi::node_channel(pair, options_for(RingOnly)),
                             pattern(count), std::vector<char>(Buffers * count)};
  });
}

channel_state& as_state(void* raw) {
  return *static_cast<channel_state*>(raw);
}

/// Runs `iterations` of exchange(s); an exception ends the job (it cannot cross the C harness).
template <class Exchange>
void run(void* raw, long iterations, Exchange exchange) noexcept {
  auto& s = as_state(raw);
  wb_cxx::in_call("thinmpi node", [&] {
    for (long i = 0; i < iterations; ++i)
      exchange(s);
  });
}

// --- channel_known, channel_ring: into the caller's buffer of the payload's size.
void known_round_trips(void* raw, long iterations) {
  run(raw, iterations, [](channel_state& s) {
    const std::span<char> in(s.received);
    if (s.rank == 0) s.channel.send(std::span<const char>(s.sent), s.peer, tag);
    (void)s.channel.recv(in, s.peer, tag);
    if (s.rank == 1) s.channel.send(std::span<const char>(in), s.peer, tag);
  });
}

// --- channel_unknown: a new vector of the size that was sent.
void unknown_round_trips(void* raw, long iterations) {
  run(raw, iterations, [](channel_state& s) {
    if (s.rank == 0) s.channel.send(std::span<const char>(s.sent), s.peer, tag);
    s.received = s.channel.recv<std::vector<char>>(s.peer, tag);
    if (s.rank == 1) s.channel.send(std::span<const char>(s.received), s.peer, tag);
  });
}

// --- channel_rate: a window one way (rank 1 receives message w into its w-th buffer), the ack
// back; c/rate_isend does the same through MPI.
void rate_round_trips(void* raw, long iterations) {
  run(raw, iterations, [](channel_state& s) {
    const std::size_t bytes = s.sent.size();
    for (std::size_t w = 0; w < WB_NODE_WINDOW; ++w) {
      if (s.rank == 0)
        s.channel.send(std::span<const char>(s.sent), s.peer, tag);
      else
        (void)s.channel.recv(std::span<char>(s.received).subspan(w * bytes, bytes), s.peer, tag);
    }
    if (s.rank == 0)
      (void)s.channel.recv<char>(s.peer, tag);
    else
      s.channel.send(char{1}, s.peer, tag);
  });
}

/// Rank 1 of channel_rate: every buffer of the window holds the pattern; rank 0 has none.
int window_differs(void* raw) noexcept {
  const auto& s = as_state(raw);
  const std::size_t bytes = s.sent.size();
  for (std::size_t w = 0; s.rank == 1 && w < WB_NODE_WINDOW; ++w)
    if (!std::equal(s.sent.begin(), s.sent.end(),
                    s.received.begin() + static_cast<std::ptrdiff_t>(w * bytes)))
      return 1;
  return 0;
}

const wb_variant variants[] = {
    wb_cxx::make_variant<channel_state>("thinmpi", "channel_known", "c/char_buffer", 1, 0,
                                        make_state<false>, known_round_trips),
    wb_cxx::make_variant<channel_state>("thinmpi", "channel_unknown", "c/char_buffer", 1, 0,
                                        make_state<false>, unknown_round_trips),
    wb_cxx::make_variant<channel_state>("thinmpi", "channel_ring", "c/char_buffer", 1, 0,
                                        make_state<true>, known_round_trips),
    {"thinmpi", "channel_rate", "c/rate_isend", 1, 0, make_state<false, WB_NODE_WINDOW>,
     rate_round_trips, window_differs, wb_cxx::teardown<channel_state>},
};

}  // namespace

extern "C" std::size_t wb_thinmpi_node_variants(const wb_variant** table) {
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
