// The thinmpi variants of the ping-pong: each one is the call a user would naturally write for
// its payload, measured against the C variant that does the same thing (its baseline).
//
//   thinmpi/scalar          send(int) / recv<int>()                     vs c/int_buffer
//   thinmpi/span            send(std::span) / recv(std::span)           vs c/int_buffer
//   thinmpi/vector_bounded  send(vector) / recv(vector&) (size = bound) vs c/int_buffer
//   thinmpi/vector_alloc    send(vector) / recv<std::vector<int>>()     vs c/mprobe
//   thinmpi/vector_alloc_uninit  the same into a vector with default_init_allocator (no memset)
//   thinmpi/string          send(string) / recv(string&) (bounded)      vs c/char_buffer
//   thinmpi/string_alloc    send(string) / recv<std::string>()          vs c/char_mprobe
//   thinmpi/struct          send(vector<wb_particle>) / recv(vector&)   vs c/struct
//   thinmpi/char_span       send(std::span<char>) / recv(std::span)     vs c/char_buffer (OSU)
//   thinmpi/vector_framed   framed_channel send / recv<std::vector<int>>() vs c/int_buffer
//   thinmpi/vector_framed_uninit  the same into a vector with default_init_allocator (never
//                           zeroed; a frame larger than the default 8 KiB is received in it)
//   thinmpi/string_framed   framed_channel send / recv<std::string>()   vs c/char_buffer
//   thinmpi/vector_reuse    send(vector) / recv_reuse(vector&)          vs c/mprobe
//   thinmpi/persistent      send_init / recv_init once, start() + wait() each round
//                                                                       vs c/persistent
//   thinmpi/partitioned     psend_init / precv_init of one partition once, start(), pready(0)
//                           on the sender and wait() each round (MPI-4 only)
//                                                                       vs c/partitioned
//
// Rank 0 sends first; rank 1 sends back what it received, so both ranks can verify it.

#include <cstddef>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "thinmpi/thinmpi.hpp"
#include "variant.h"

// particle.h is C: its casts are C casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#include "particle.h"
#pragma GCC diagnostic pop

/// Field-wise equality for verifying received particles (in the global namespace, for ADL).
static bool operator==(const wb_particle& a, const wb_particle& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.mass == b.mass && a.id == b.id &&
         a.species == b.species;
}

namespace {

constexpr int tag = 7;

/// One variant's buffers on one rank; Buffer is what the variant sends and receives.
template <class Buffer>
struct state {
  thinmpi::comm_view comm;
  int rank;
  int peer;
  Buffer sent;
  Buffer received;
};

/// An exception cannot cross the C harness: report it and end the job.
[[noreturn]] void abort_on(const std::exception& error) {
  std::fprintf(stderr, "thinmpi kernel failed: %s\n", error.what());
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::terminate();
}

template <class Buffer>
state<Buffer>& as_state(void* raw) {
  return *static_cast<state<Buffer>*>(raw);
}

template <class Buffer, class Fill>
void* make_state(MPI_Comm comm, std::size_t count, Fill fill) noexcept {
  try {
    auto* s = new state<Buffer>{thinmpi::comm_view(comm), 0, 0, {}, {}};
    s->rank = s->comm.rank();
    s->peer = 1 - s->rank;
    fill(s->sent, count);
    s->received = s->sent;  // the bound (and size) of the receives
    return s;
  } catch (const std::exception&) {
    return nullptr;
  }
}

template <class Buffer>
void destroy_state(void* raw) noexcept {
  delete &as_state<Buffer>(raw);
}

template <class Buffer>
int received_differs(void* raw) noexcept {
  const auto& s = as_state<Buffer>(raw);
  return s.received == s.sent ? 0 : 1;
}

/// Runs `iterations` round trips of exchange(s, send_first) where send_first is rank 0's role.
template <class Buffer, class Exchange>
void run(void* raw, long iterations, Exchange exchange) noexcept {
  auto& s = as_state<Buffer>(raw);
  try {
    for (long i = 0; i < iterations; ++i)
      exchange(s);
  } catch (const std::exception& error) {
    abort_on(error);
  }
}

template <class Ints>
void fill_ints(Ints& values, std::size_t count) {
  values.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    values[i] = static_cast<int>(i * 31 + 7);
}

void fill_chars(std::string& text, std::size_t count) {
  text.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    text[i] = static_cast<char>('a' + i % 26);
}

void fill_char_vector(std::vector<char>& bytes, std::size_t count) {
  bytes.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    bytes[i] = static_cast<char>((i * 31 + 7) & 0x7f);
}

void fill_particles(std::vector<wb_particle>& particles, std::size_t count) {
  particles.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    particles[i] = wb_particle_at(static_cast<long>(i));
}

// --- thinmpi/scalar: one int, received by value.
using scalar_state = state<std::vector<int>>;  // sent[0] and received[0] hold the value

void scalar_round_trips(void* raw, long iterations) {
  run<std::vector<int>>(raw, iterations, [](scalar_state& s) {
    if (s.rank == 0) s.comm.send(s.sent[0], s.peer, tag);
    s.received[0] = s.comm.recv<int>(s.peer, tag);
    if (s.rank == 1) s.comm.send(s.received[0], s.peer, tag);
  });
}

// --- thinmpi/span and thinmpi/char_span: a raw buffer of known size, as a std::span.
template <class Element>
void span_round_trips(void* raw, long iterations) {
  run<std::vector<Element>>(raw, iterations, [](state<std::vector<Element>>& s) {
    const std::span<Element> in(s.received);
    if (s.rank == 0) s.comm.send(std::span<const Element>(s.sent), s.peer, tag);
    s.comm.recv(in, s.peer, tag);
    if (s.rank == 1) s.comm.send(std::span<const Element>(in), s.peer, tag);
  });
}

/// The round trips of the forms that send the container itself: rank 0 sends `sent`, both
/// ranks receive into `received` with receive(s), rank 1 echoes what it received.
template <class Buffer, class Receive>
void echo_round_trips(void* raw, long iterations, Receive receive) {
  run<Buffer>(raw, iterations, [receive](state<Buffer>& s) {
    if (s.rank == 0) s.comm.send(s.sent, s.peer, tag);
    receive(s);
    if (s.rank == 1) s.comm.send(s.received, s.peer, tag);
  });
}

// --- thinmpi/vector_bounded, thinmpi/string, thinmpi/struct: the container is the bound.
template <class Buffer>
void bounded_round_trips(void* raw, long iterations) {
  echo_round_trips<Buffer>(raw, iterations,
                           [](state<Buffer>& s) { s.comm.recv(s.received, s.peer, tag); });
}

// --- thinmpi/vector_alloc, thinmpi/string_alloc: a new container of the size that was sent.
template <class Buffer>
void allocating_round_trips(void* raw, long iterations) {
  echo_round_trips<Buffer>(raw, iterations, [](state<Buffer>& s) {
    s.received = s.comm.template recv<Buffer>(s.peer, tag);
  });
}

// --- thinmpi/vector_reuse: a receive of unknown size into the same vector each time.
template <class Buffer>
void reuse_round_trips(void* raw, long iterations) {
  echo_round_trips<Buffer>(raw, iterations,
                           [](state<Buffer>& s) { s.comm.recv_reuse(s.received, s.peer, tag); });
}

// --- thinmpi/vector_framed, thinmpi/string_framed: the framed protocol (a channel per state).
template <class Buffer>
struct framed_state : state<Buffer> {
  thinmpi::framed_channel channel;
};

template <class Buffer, void (*Fill)(Buffer&, std::size_t)>
void* framed_setup(MPI_Comm comm, std::size_t count) noexcept {
  try {
    const thinmpi::comm_view view(comm);
    auto* s = new framed_state<Buffer>{{view, view.rank(), 1 - view.rank(), {}, {}},
                                       thinmpi::framed_channel(view)};
    Fill(s->sent, count);
    s->received = s->sent;
    return static_cast<state<Buffer>*>(s);  // as every state: received_differs reads it so
  } catch (const std::exception&) {
    return nullptr;
  }
}

template <class Buffer>
void framed_round_trips(void* raw, long iterations) {
  auto& s = static_cast<framed_state<Buffer>&>(as_state<Buffer>(raw));
  try {
    for (long i = 0; i < iterations; ++i) {
      if (s.rank == 0) s.channel.send(s.sent, s.peer, tag);
      s.received = s.channel.template recv<Buffer>(s.peer, tag);
      if (s.rank == 1) s.channel.send(s.received, s.peer, tag);
    }
  } catch (const std::exception& error) {
    abort_on(error);
  }
}

template <class Buffer>
void destroy_framed_state(void* raw) noexcept {
  delete &static_cast<framed_state<Buffer>&>(as_state<Buffer>(raw));
}

// --- The requests set up once (thinmpi/persistent, thinmpi/partitioned): each rank sets its
// send and its receive up once and starts and waits them every round, in c/persistent's order;
// rank 1's send is set up on its receive buffer, so it sends back what came. A State (derived
// from state<Buffer>) sets its requests up (set_up()) and sends and receives one message.
template <template <class> class State, class Buffer, void (*Fill)(Buffer&, std::size_t)>
void* requests_setup(MPI_Comm comm, std::size_t count) noexcept {
  try {
    const thinmpi::comm_view view(comm);
    auto s = std::make_unique<State<Buffer>>();
    s->comm = view;
    s->rank = view.rank();
    s->peer = 1 - s->rank;
    Fill(s->sent, count);
    s->received.assign(count, {});  // zeroed, so that verify sees only what came
    s->set_up();
    return static_cast<state<Buffer>*>(s.release());
  } catch (const std::exception&) {
    return nullptr;
  }
}

template <template <class> class State, class Buffer>
State<Buffer>& as_requests(void* raw) {
  return static_cast<State<Buffer>&>(as_state<Buffer>(raw));
}

template <template <class> class State, class Buffer>
void requests_round_trips(void* raw, long iterations) {
  run<Buffer>(raw, iterations, [](state<Buffer>& base) {
    auto& s = static_cast<State<Buffer>&>(base);
    if (s.rank == 0) s.send_message();
    s.receive_message();
    if (s.rank == 1) s.send_message();
  });
}

template <template <class> class State, class Buffer>
int requests_received_differs(void* raw) noexcept {
  return as_requests<State, Buffer>(raw).received_differs();
}

template <template <class> class State, class Buffer>
void destroy_requests_state(void* raw) noexcept {
  delete &as_requests<State, Buffer>(raw);
}

/// thinmpi/persistent: send_init / recv_init, start() + wait() (the count wait() returns is
/// checked with the payload).
template <class Buffer>
struct persistent_state : state<Buffer> {
  using send_request =
      decltype(std::declval<const thinmpi::comm_view&>().send_init(std::declval<Buffer&>(), 0, 0));
  using receive_request =
      decltype(std::declval<const thinmpi::comm_view&>().recv_init(std::declval<Buffer&>(), 0, 0));
  send_request sending;
  receive_request receiving;
  std::size_t received_count = 0;  ///< what the last round's wait() said came

  void set_up() {
    receiving = this->comm.recv_init(this->received, this->peer, tag);
    sending = this->comm.send_init(this->rank == 0 ? this->sent : this->received, this->peer, tag);
  }
  void send_message() {
    sending.start();
    sending.wait();
  }
  void receive_message() {
    receiving.start();
    received_count = receiving.wait();
  }
  [[nodiscard]] int received_differs() const noexcept {
    return received_count == this->sent.size() && this->received == this->sent ? 0 : 1;
  }
};

#if MPI_VERSION >= 4
/// thinmpi/partitioned (MPI-4): psend_init / precv_init of one partition, start(), pready(0) on
/// the sender, wait(), in c/partitioned's order.
template <class Buffer>
struct partitioned_state : state<Buffer> {
  using send_request = decltype(std::declval<const thinmpi::comm_view&>().psend_init(
      std::declval<Buffer&>(), 1, 0, 0));
  using receive_request = decltype(std::declval<const thinmpi::comm_view&>().precv_init(
      std::declval<Buffer&>(), 1, 0, 0));
  send_request sending;
  receive_request receiving;

  void set_up() {
    receiving = this->comm.precv_init(this->received, 1, this->peer, tag);
    sending =
        this->comm.psend_init(this->rank == 0 ? this->sent : this->received, 1, this->peer, tag);
  }
  void send_message() {
    sending.start();
    sending.pready(0);
    sending.wait();
  }
  void receive_message() {
    receiving.start();
    receiving.wait();
  }
  [[nodiscard]] int received_differs() const noexcept {
    return this->received == this->sent ? 0 : 1;
  }
};
#endif

template <class Buffer, void (*Fill)(Buffer&, std::size_t)>
void* setup(MPI_Comm comm, std::size_t count) {
  return make_state<Buffer>(comm, count, Fill);
}

using ints = std::vector<int>;
using uninit_ints = std::vector<int, thinmpi::default_init_allocator<int>>;
using chars = std::vector<char>;
using particles = std::vector<wb_particle>;

const wb_variant variants[] = {
    {"thinmpi", "scalar", "c/int_buffer", sizeof(int), 1, setup<ints, fill_ints<ints>>,
     scalar_round_trips, received_differs<ints>, destroy_state<ints>},
    {"thinmpi", "span", "c/int_buffer", sizeof(int), 0, setup<ints, fill_ints<ints>>,
     span_round_trips<int>, received_differs<ints>, destroy_state<ints>},
    {"thinmpi", "vector_bounded", "c/int_buffer", sizeof(int), 0, setup<ints, fill_ints<ints>>,
     bounded_round_trips<ints>, received_differs<ints>, destroy_state<ints>},
    {"thinmpi", "vector_alloc", "c/mprobe", sizeof(int), 0, setup<ints, fill_ints<ints>>,
     allocating_round_trips<ints>, received_differs<ints>, destroy_state<ints>},
    {"thinmpi", "vector_alloc_uninit", "c/mprobe", sizeof(int), 0,
     setup<uninit_ints, fill_ints<uninit_ints>>, allocating_round_trips<uninit_ints>,
     received_differs<uninit_ints>, destroy_state<uninit_ints>},
    {"thinmpi", "string", "c/char_buffer", sizeof(char), 0, setup<std::string, fill_chars>,
     bounded_round_trips<std::string>, received_differs<std::string>, destroy_state<std::string>},
    {"thinmpi", "string_alloc", "c/char_mprobe", sizeof(char), 0, setup<std::string, fill_chars>,
     allocating_round_trips<std::string>, received_differs<std::string>,
     destroy_state<std::string>},
    {"thinmpi", "struct", "c/struct", sizeof(wb_particle), 0, setup<particles, fill_particles>,
     bounded_round_trips<particles>, received_differs<particles>, destroy_state<particles>},
    {"thinmpi", "char_span", "c/char_buffer", sizeof(char), 0, setup<chars, fill_char_vector>,
     span_round_trips<char>, received_differs<chars>, destroy_state<chars>},
    {"thinmpi", "vector_framed", "c/int_buffer", sizeof(int), 0,
     framed_setup<ints, fill_ints<ints>>, framed_round_trips<ints>, received_differs<ints>,
     destroy_framed_state<ints>},
    {"thinmpi", "vector_framed_uninit", "c/int_buffer", sizeof(int), 0,
     framed_setup<uninit_ints, fill_ints<uninit_ints>>, framed_round_trips<uninit_ints>,
     received_differs<uninit_ints>, destroy_framed_state<uninit_ints>},
    {"thinmpi", "string_framed", "c/char_buffer", sizeof(char), 0,
     framed_setup<std::string, fill_chars>, framed_round_trips<std::string>,
     received_differs<std::string>, destroy_framed_state<std::string>},
    {"thinmpi", "vector_reuse", "c/mprobe", sizeof(int), 0, setup<ints, fill_ints<ints>>,
     reuse_round_trips<ints>, received_differs<ints>, destroy_state<ints>},
    {"thinmpi", "persistent", "c/persistent", sizeof(int), 0,
     requests_setup<persistent_state, ints, fill_ints<ints>>,
     requests_round_trips<persistent_state, ints>,
     requests_received_differs<persistent_state, ints>,
     destroy_requests_state<persistent_state, ints>},
#if MPI_VERSION >= 4
    {"thinmpi", "partitioned", "c/partitioned", sizeof(int), 0,
     requests_setup<partitioned_state, ints, fill_ints<ints>>,
     requests_round_trips<partitioned_state, ints>,
     requests_received_differs<partitioned_state, ints>,
     destroy_requests_state<partitioned_state, ints>},
#endif
};

}  // namespace

extern "C" std::size_t wb_thinmpi_variants(const wb_variant** table) {
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
