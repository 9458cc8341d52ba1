// The ping-pong shared by the MPL kernels: one template, one payload policy per variant (as
// boost_kernel.hpp does for Boost.MPI).
//
// A policy is a struct with `using payload`, `element_bytes`, `static payload make(count)`, and
// `send`/`recv` written the way MPL's examples write them (blocking.cc, blocking_vector.cc,
// probe.cc, stl_container.cc). Each variant's .cpp instantiates the template with its policy, so
// its object file references exactly the calls of its own path.
#ifndef WB_MPL_KERNEL_HPP
#define WB_MPL_KERNEL_HPP

#include <cstddef>
#include <mpl/mpl.hpp>
#include <new>
#include <string>
#include <vector>

#include "cxx_variant.hpp"
#include "variant.h"

namespace wb_mpl {

inline const mpl::tag_t message_tag{7};

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

/// MPL's communicator over the harness's MPI_Comm. An MPL program uses
/// mpl::environment::comm_world(), whose static object outlives the harness's MPI_Finalize;
/// MPL's constructor from an MPI_Comm is protected, so the kernels derive to reach it (MPL neither
/// dups nor frees MPI_COMM_WORLD).
struct attached_communicator : mpl::communicator {
  explicit attached_communicator(MPI_Comm comm) : mpl::communicator(comm) {}
};

/// One variant's state on one rank: rank 0 sends `sent`, rank 1 echoes what it received.
/// `layout` is what the policy keeps between messages (mpl::contiguous_layout for the bounded
/// path, nothing for the others).
template <class Policy>
struct state {
  attached_communicator comm;
  int rank;
  int peer;
  typename Policy::payload sent;
  typename Policy::payload received;
  typename Policy::layout layout;
};

/// variant.h's setup.
template <class Policy>
void* setup(MPI_Comm comm, std::size_t count) noexcept {
  auto* s = new (std::nothrow)
      state<Policy>{attached_communicator(comm), 0, 0, Policy::make(count), Policy::make(count),
                    Policy::make_layout(count)};
  if (!s) return nullptr;
  s->rank = s->comm.rank();
  s->peer = 1 - s->rank;
  return s;
}

/// variant.h's round_trips.
template <class Policy>
void round_trips(void* opaque, long iterations) {
  auto& s = *static_cast<state<Policy>*>(opaque);
  const bool starts = s.rank == 0;
  for (long i = 0; i < iterations; ++i) {
    if (starts) Policy::send(s.comm, s.peer, s.sent, s.layout);
    Policy::recv(s.comm, s.peer, s.received, s.layout);
    if (!starts) Policy::send(s.comm, s.peer, s.received, s.layout);
  }
}

/// The table entry of an MPL variant.
template <class Policy>
wb_variant make_variant(const char* payload, const char* baseline, std::size_t max_count) {
  return wb_cxx::make_variant<state<Policy>>("mpl", payload, baseline, Policy::element_bytes,
                                             max_count, setup<Policy>, round_trips<Policy>);
}

/// The policies without a layout kept between messages.
struct no_layout {
  static no_layout make_layout(std::size_t) { return {}; }
};

}  // namespace wb_mpl

#endif  // WB_MPL_KERNEL_HPP
