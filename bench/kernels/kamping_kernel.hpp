// The ping-pong shared by the KaMPIng kernels: one template, one payload policy per variant (as
// boost_kernel.hpp does for Boost.MPI).
//
// A policy is a struct with `using payload`, `element_bytes`, `static payload make(count)`, and
// `send`/`recv` written the way KaMPIng's README and examples write them (named parameters:
// send_buf, recv_buf, destination, source, tag). Each variant's .cpp instantiates the template
// with its policy, so its object file references exactly the calls of its own path.
#ifndef WB_KAMPING_KERNEL_HPP
#define WB_KAMPING_KERNEL_HPP

#include <cstddef>
#include <cstdio>
#include <exception>
#include <kamping/communicator.hpp>
#include <kamping/named_parameters.hpp>
#include <new>
#include <string>
#include <vector>

#include "cxx_variant.hpp"
#include "variant.h"

namespace wb_kamping {

inline constexpr int message_tag = 7;

/// The int payload of `count` elements (the same on both ranks).
inline std::vector<int> int_vector(std::size_t count) {
  std::vector<int> values(count);
  for (std::size_t i = 0; i < count; ++i)
    values[i] = static_cast<int>(i * 2654435761u % 1000003u);
  return values;
}

/// The char payload of `count` letters.
inline std::string letters(std::size_t count) {
  std::string text(count, ' ');
  for (std::size_t i = 0; i < count; ++i)
    text[i] = static_cast<char>('a' + i % 26);
  return text;
}

/// One variant's state on one rank: rank 0 sends `sent`, rank 1 echoes what it received.
/// KaMPIng's Communicator wraps the harness's MPI_Comm without taking ownership (no dup).
template <class Policy>
struct state {
  kamping::Communicator<> comm;
  int rank;
  int peer;
  typename Policy::payload sent;
  typename Policy::payload received;
};

/// KaMPIng reports MPI errors by exceptions (or its assertions); neither can cross the C harness.
[[noreturn]] inline void abort_on(const std::exception& error) {
  std::fprintf(stderr, "KaMPIng kernel failed: %s\n", error.what());
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::terminate();
}

/// variant.h's setup.
template <class Policy>
void* setup(MPI_Comm comm, std::size_t count) noexcept {
  try {
    // Built in place: copying a kamping::Communicator is an MPI_Comm_dup.
    auto* s = new state<Policy>{kamping::Communicator<>(comm), 0, 0, Policy::make(count),
                                Policy::make(count)};
    s->rank = s->comm.rank_signed();
    s->peer = 1 - s->rank;
    return s;
  } catch (const std::exception&) {
    return nullptr;
  }
}

/// variant.h's round_trips.
template <class Policy>
void round_trips(void* opaque, long iterations) noexcept {
  auto& s = *static_cast<state<Policy>*>(opaque);
  const bool starts = s.rank == 0;
  try {
    for (long i = 0; i < iterations; ++i) {
      if (starts) Policy::send(s.comm, s.peer, s.sent);
      Policy::recv(s.comm, s.peer, s.received);
      if (!starts) Policy::send(s.comm, s.peer, s.received);
    }
  } catch (const std::exception& error) {
    abort_on(error);
  }
}

/// The table entry of a KaMPIng variant.
template <class Policy>
wb_variant make_variant(const char* payload, const char* baseline, std::size_t max_count) {
  return wb_cxx::make_variant<state<Policy>>("kamping", payload, baseline, Policy::element_bytes,
                                             max_count, setup<Policy>, round_trips<Policy>);
}

}  // namespace wb_kamping

#endif  // WB_KAMPING_KERNEL_HPP
