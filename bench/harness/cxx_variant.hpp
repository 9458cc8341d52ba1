#ifndef WB_CXX_VARIANT_HPP
#define WB_CXX_VARIANT_HPP
// What a C++ wrapper's ping-pong variant (variant.h's wb_variant) has in common whatever the
// wrapper, written once: the payloads, the state, setup, round trips, the check of the last
// payload received, the teardown and the table entry. Each wrapper's adapter (boost_adapter.hpp,
// kamping_adapter.hpp, mpl_adapter.hpp) says how it attaches to the harness's MPI_Comm and names
// itself; each variant's policy says how its payload is made, sent and received:
//
//   struct adapter {
//     static constexpr const char* api = "kamping";
//     using communicator = ...;
//     static communicator attach(MPI_Comm comm);    // never frees comm
//     static constexpr bool reports_by_exception = ...;  // see guarded()
//   };
//   struct policy : wb_cxx::payload_of<payload, make, element_bytes> {
//     static void send(const communicator&, int peer, payload&);
//     static void recv(const communicator&, int peer, payload&);
//     // optional: what the policy keeps between messages (MPL's layout), passed last to both
//     using kept = ...;  static kept make_kept(std::size_t count);
//   };
//
// Each variant's .cpp instantiates the templates with its policy, so its object file references
// exactly the calls of its own path.

#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "variant.h"

namespace wb_cxx {

/// Element `index` of every int payload (the same on both ranks).
inline int int_at(std::size_t index) {
  return static_cast<int>(index * 2654435761u % 1000003u);
}

/// The int payload of `count` elements.
inline std::vector<int> int_vector(std::size_t count) {
  std::vector<int> values(count);
  for (std::size_t i = 0; i < count; ++i)
    values[i] = int_at(i);
  return values;
}

/// The char payload of `count` letters.
inline std::string letters(std::size_t count) {
  std::string text(count, ' ');
  for (std::size_t i = 0; i < count; ++i)
    text[i] = static_cast<char>('a' + i % 26);
  return text;
}

/// The same letters in a std::vector<char> (the OSU sweep's char buffer).
inline std::vector<char> char_vector(std::size_t count) {
  const std::string text = letters(count);
  return std::vector<char>(text.begin(), text.end());
}

/// This rank and the ranks of a wrapper's communicator (KaMPIng's are std::size_t).
template <class Communicator>
int rank_of(const Communicator& comm) {
  return static_cast<int>(comm.rank());
}
template <class Communicator>
int size_of(const Communicator& comm) {
  return static_cast<int>(comm.size());
}

/// What a policy's payload is: `Make(count)` builds it (the same on both ranks), of
/// `ElementBytes` an element.
template <class Payload, Payload (*Make)(std::size_t), std::size_t ElementBytes>
struct payload_of {
  using payload = Payload;
  static constexpr std::size_t element_bytes = ElementBytes;
  static payload make(std::size_t count) { return Make(count); }
};

/// A table of variants as the harness takes it: `*table` is set, the count returned.
template <class Variant, std::size_t Count>
std::size_t publish(const Variant** table, const Variant (&variants)[Count]) {
  *table = variants;
  return Count;
}

/// A wrapper's error cannot cross the C harness: say what it was and end the job.
[[noreturn]] inline void abort_on(const char* api, const std::exception& error) {
  std::fprintf(stderr, "%s kernel failed: %s\n", api, error.what());
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::terminate();
}

/// Runs `body` in one of the harness's calls and returns what it returns; an exception ends the
/// job (abort_on, with `api` naming the kernel).
template <class Body>
auto in_call(const char* api, Body body) noexcept -> decltype(body()) {
  try {
    return body();
  } catch (const std::exception& error) {
    abort_on(api, error);
  }
}

/// Runs `body` in a setup and returns what it returns: a failed setup (nullptr, or `{}`) on an
/// exception, which the harness reports.
template <class Body>
auto in_setup(Body body) noexcept -> decltype(body()) {
  try {
    return body();
  } catch (const std::exception&) {
    return {};
  }
}

/// Runs `body`. A wrapper that reports errors by exceptions (Adapter::reports_by_exception,
/// KaMPIng) has them end the job with what they said (in_call); the others' kernels never caught
/// (a throw ends in std::terminate), so that their objects reference no MPI_Abort in the symbols
/// table.
template <class Adapter, class Body>
void guarded(Body body) noexcept {
  if constexpr (Adapter::reports_by_exception)
    in_call(Adapter::api, body);
  else
    body();
}

/// variant.h's verify: 0 when the last payload received is the pattern.
template <class State>
int verify(void* opaque) noexcept {
  const auto& s = *static_cast<const State*>(opaque);
  return s.received == s.sent ? 0 : 1;
}

/// variant.h's teardown.
template <class State>
void teardown(void* opaque) noexcept {
  delete static_cast<State*>(opaque);
}

/// The table entry of a variant of `api` whose state is State.
template <class State>
wb_variant make_variant(const char* api, const char* payload, const char* baseline,
                        std::size_t element_bytes, std::size_t max_count,
                        void* (*setup)(MPI_Comm, std::size_t), void (*round_trips)(void*, long)) {
  return wb_variant{api,   payload,     baseline,      element_bytes,  max_count,
                    setup, round_trips, verify<State>, teardown<State>};
}

/// Whether a policy keeps something between messages (policy::kept, e.g. MPL's layout).
template <class Policy>
concept keeps = requires {
  typename Policy::kept;
};

/// What a policy keeps between messages: policy::kept, or nothing.
template <class Policy>
struct kept_by {
  struct type {};
  static type make(std::size_t) { return {}; }
};
template <keeps Policy>
struct kept_by<Policy> {
  using type = typename Policy::kept;
  static type make(std::size_t count) { return Policy::make_kept(count); }
};

/// One ping-pong variant's state on one rank: rank 0 sends `sent`, rank 1 echoes what it
/// received.
template <class Adapter, class Policy>
struct pingpong_state {
  typename Adapter::communicator comm;
  int rank;
  int peer;
  typename Policy::payload sent;
  typename Policy::payload received;
  [[no_unique_address]] typename kept_by<Policy>::type kept;
};

/// variant.h's setup: the communicator is built in place (copying a kamping::Communicator is an
/// MPI_Comm_dup).
template <class Adapter, class Policy>
void* pingpong_setup(MPI_Comm comm, std::size_t count) noexcept {
  return in_setup([&]() -> void* {
    auto* s = new pingpong_state<Adapter, Policy>{
        Adapter::attach(comm),       0, 0, Policy::make(count), Policy::make(count),
        kept_by<Policy>::make(count)};
    s->rank = rank_of(s->comm);
    s->peer = 1 - s->rank;
    return s;
  });
}

/// One message of a policy, with what it keeps where it keeps something.
template <class Policy, class State>
void send_one(State& s, typename Policy::payload& payload) {
  if constexpr (keeps<Policy>)
    Policy::send(s.comm, s.peer, payload, s.kept);
  else
    Policy::send(s.comm, s.peer, payload);
}
template <class Policy, class State>
void recv_one(State& s) {
  if constexpr (keeps<Policy>)
    Policy::recv(s.comm, s.peer, s.received, s.kept);
  else
    Policy::recv(s.comm, s.peer, s.received);
}

/// variant.h's round_trips.
template <class Adapter, class Policy>
void pingpong_round_trips(void* opaque, long iterations) noexcept {
  auto& s = *static_cast<pingpong_state<Adapter, Policy>*>(opaque);
  const bool starts = s.rank == 0;
  guarded<Adapter>([&] {
    for (long i = 0; i < iterations; ++i) {
      if (starts) send_one<Policy>(s, s.sent);
      recv_one<Policy>(s);
      if (!starts) send_one<Policy>(s, s.received);
    }
  });
}

/// The table entry of a ping-pong variant of the adapter's wrapper.
template <class Adapter, class Policy>
wb_variant pingpong_variant(const char* payload, const char* baseline, std::size_t max_count) {
  return make_variant<pingpong_state<Adapter, Policy>>(
      Adapter::api, payload, baseline, Policy::element_bytes, max_count,
      pingpong_setup<Adapter, Policy>, pingpong_round_trips<Adapter, Policy>);
}

}  // namespace wb_cxx

#endif  // WB_CXX_VARIANT_HPP
