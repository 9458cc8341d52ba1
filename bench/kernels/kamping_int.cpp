// kamping/int: send(send_buf(value), destination, tag) / recv_single<int>(source, tag), one int.
#include "kamping_kernel.hpp"
#include "kamping_variants.hpp"

#include <kamping/p2p/recv.hpp>
#include <kamping/p2p/send.hpp>

namespace {
struct int_policy {
  using payload = int;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t) { return wb_kamping::int_vector(1)[0]; }
  static void send(const kamping::Communicator<>& comm, int peer, const payload& value) {
    comm.send(kamping::send_buf(value), kamping::destination(peer),
              kamping::tag(wb_kamping::message_tag));
  }
  static void recv(const kamping::Communicator<>& comm, int peer, payload& value) {
    value = comm.recv_single<int>(kamping::source(peer), kamping::tag(wb_kamping::message_tag));
  }
};
}  // namespace

const wb_variant wb_kamping_int = wb_kamping::make_variant<int_policy>("int", "c/int_buffer", 1);
