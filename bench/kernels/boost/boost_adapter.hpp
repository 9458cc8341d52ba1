// Boost.MPI's adapter to the harnesses (cxx_variant.hpp, cxx_coll_variant.hpp): how a Boost.MPI
// variant attaches to the harness's MPI_Comm, and the payload policy of whole objects, written
// the way a Boost.MPI user writes them.
#ifndef WB_BOOST_ADAPTER_HPP
#define WB_BOOST_ADAPTER_HPP

#include <boost/mpi/communicator.hpp>
#include <cstddef>

#include "cxx_coll_variant.hpp"
#include "cxx_variant.hpp"

namespace wb_boost {

inline constexpr int tag = 7;

/// Attaches to the harness's MPI_Comm (never frees it).
struct adapter {
  static constexpr const char* api = "boost";
  static constexpr bool reports_by_exception = false;
  using communicator = boost::mpi::communicator;
  static communicator attach(MPI_Comm comm) { return communicator(comm, boost::mpi::comm_attach); }
  struct coll_kept {};
  static coll_kept make_coll_kept(std::size_t, int) { return {}; }
};

using coll_state = wb_cxx::coll_state<adapter>;
using coll = wb_cxx::coll_variants<adapter>;

/// A payload sent and received whole, as a Boost.MPI user writes it for an object:
/// comm.send(peer, tag, value) / comm.recv(peer, tag, value).
template <class T, T (*Make)(std::size_t), std::size_t ElementBytes>
struct object_policy : wb_cxx::payload_of<T, Make, ElementBytes> {
  static void send(const boost::mpi::communicator& c, int peer, const T& value) {
    c.send(peer, tag, value);
  }
  static void recv(const boost::mpi::communicator& c, int peer, T& value) {
    c.recv(peer, tag, value);
  }
};

/// The table entry of a Boost.MPI ping-pong variant.
template <class Policy>
wb_variant make_variant(const char* payload, const char* baseline, std::size_t max_count) {
  return wb_cxx::pingpong_variant<adapter, Policy>(payload, baseline, max_count);
}

}  // namespace wb_boost

#endif  // WB_BOOST_ADAPTER_HPP
