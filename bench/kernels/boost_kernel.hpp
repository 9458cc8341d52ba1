// The ping-pong shared by the Boost.MPI kernels: one template, one payload policy per variant.
//
// A policy is a struct with `using payload`, `element_bytes`, `static payload make(count)`, and
// `send`/`recv` written the way a Boost.MPI user writes them (object_policy for whole objects).
// Each variant's .cpp instantiates the template with its policy, so its object file references
// exactly the calls of its own path.
#ifndef WB_BOOST_KERNEL_HPP
#define WB_BOOST_KERNEL_HPP

#include <boost/mpi/communicator.hpp>
#include <cstddef>
#include <new>

#include "cxx_variant.hpp"
#include "variant.h"

namespace wb_boost {

inline constexpr int tag = 7;

/// The value of element `index` of every int payload (the same on both ranks).
inline int int_at(std::size_t index) {
  return static_cast<int>(index * 2654435761u % 1000003u);
}

/// A payload sent and received whole, as a Boost.MPI user writes it for an object:
/// comm.send(peer, tag, value) / comm.recv(peer, tag, value).
template <class T, T (*Make)(std::size_t), std::size_t ElementBytes>
struct object_policy {
  using payload = T;
  static constexpr std::size_t element_bytes = ElementBytes;
  static payload make(std::size_t count) { return Make(count); }
  static void send(const boost::mpi::communicator& c, int peer, const payload& value) {
    c.send(peer, tag, value);
  }
  static void recv(const boost::mpi::communicator& c, int peer, payload& value) {
    c.recv(peer, tag, value);
  }
};

/// One variant's state on one rank: rank 0 sends `sent`, rank 1 echoes what it received.
template <class Policy>
struct state {
  boost::mpi::communicator comm;
  int rank;
  int peer;
  typename Policy::payload sent;
  typename Policy::payload received;
};

/// variant.h's setup: attaches to `comm` (never frees it) and builds the payload.
template <class Policy>
void* setup(MPI_Comm comm, std::size_t count) {
  boost::mpi::communicator attached(comm, boost::mpi::comm_attach);
  const int rank = attached.rank();
  return new (std::nothrow)
      state<Policy>{attached, rank, 1 - rank, Policy::make(count), Policy::make(count)};
}

/// variant.h's round_trips.
template <class Policy>
void round_trips(void* opaque, long iterations) {
  auto& s = *static_cast<state<Policy>*>(opaque);
  const bool starts = s.rank == 0;
  for (long i = 0; i < iterations; ++i) {
    if (starts) Policy::send(s.comm, s.peer, s.sent);
    Policy::recv(s.comm, s.peer, s.received);
    if (!starts) Policy::send(s.comm, s.peer, s.received);
  }
}

/// The table entry of a Boost.MPI variant.
template <class Policy>
wb_variant make_variant(const char* payload, const char* baseline, std::size_t max_count) {
  return wb_cxx::make_variant<state<Policy>>("boost", payload, baseline, Policy::element_bytes,
                                             max_count, setup<Policy>, round_trips<Policy>);
}

}  // namespace wb_boost

#endif  // WB_BOOST_KERNEL_HPP
