// KaMPIng's adapter to the harnesses (cxx_variant.hpp, cxx_coll_variant.hpp): how a KaMPIng
// variant attaches to the harness's MPI_Comm, and the payload policies its ping-pong variants
// share, written the way KaMPIng's README and examples write them (named parameters: send_buf,
// recv_buf, destination, source, tag).
#ifndef WB_KAMPING_ADAPTER_HPP
#define WB_KAMPING_ADAPTER_HPP

#include <cstddef>
#include <kamping/communicator.hpp>
#include <kamping/named_parameters.hpp>
#include <kamping/p2p/recv.hpp>
#include <kamping/p2p/send.hpp>
#include <vector>

#include "cxx_coll_variant.hpp"
#include "cxx_variant.hpp"

namespace wb_kamping {

inline constexpr int message_tag = 7;

/// KaMPIng's Communicator wraps the harness's MPI_Comm without taking ownership (no dup).
/// KaMPIng reports MPI errors by exceptions (or its assertions): the templates end the job.
struct adapter {
  static constexpr const char* api = "kamping";
  static constexpr bool reports_by_exception = true;
  using communicator = kamping::Communicator<>;
  static communicator attach(MPI_Comm comm) { return communicator(comm); }
  /// alltoallv's count for every destination.
  struct coll_kept {
    std::vector<int> send_counts;
  };
  static coll_kept make_coll_kept(std::size_t count, int size) {
    return {std::vector<int>(static_cast<std::size_t>(size), static_cast<int>(count))};
  }
};

using coll_state = wb_cxx::coll_state<adapter>;

/// send(send_buf(x), destination(peer), tag): how every KaMPIng ping-pong variant sends.
template <class Payload, Payload (*Make)(std::size_t), std::size_t ElementBytes>
struct sends_whole : wb_cxx::payload_of<Payload, Make, ElementBytes> {
  static void send(const kamping::Communicator<>& comm, int peer, const Payload& value) {
    comm.send(kamping::send_buf(value), kamping::destination(peer), kamping::tag(message_tag));
  }
};

/// recv(recv_buf<no_resize>(v), recv_count(n), source, tag): the receive into a buffer of known
/// size, as KaMPIng's README writes it (one MPI_Recv, no probe).
template <class Payload, Payload (*Make)(std::size_t), std::size_t ElementBytes>
struct known_size : sends_whole<Payload, Make, ElementBytes> {
  static void recv(const kamping::Communicator<>& comm, int peer, Payload& values) {
    comm.recv(kamping::recv_buf<kamping::no_resize>(values),
              kamping::recv_count(static_cast<int>(values.size())), kamping::source(peer),
              kamping::tag(message_tag));
  }
};

/// The table entry of a KaMPIng ping-pong variant.
template <class Policy>
wb_variant make_variant(const char* payload, const char* baseline, std::size_t max_count) {
  return wb_cxx::pingpong_variant<adapter, Policy>(payload, baseline, max_count);
}

}  // namespace wb_kamping

#endif  // WB_KAMPING_ADAPTER_HPP
