// kamping/vector_bounded: send(send_buf(v)) / recv(recv_buf<no_resize>(v), recv_count(n)): the
// receive into a buffer of known size, as KaMPIng's README writes it (one MPI_Recv, no probe).
#include "kamping_kernel.hpp"
#include "kamping_variants.hpp"

#include <kamping/p2p/recv.hpp>
#include <kamping/p2p/send.hpp>

namespace {
struct bounded_policy {
  using payload = std::vector<int>;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t count) { return wb_kamping::int_vector(count); }
  static void send(const kamping::Communicator<>& comm, int peer, const payload& values) {
    comm.send(kamping::send_buf(values), kamping::destination(peer),
              kamping::tag(wb_kamping::message_tag));
  }
  static void recv(const kamping::Communicator<>& comm, int peer, payload& values) {
    comm.recv(kamping::recv_buf<kamping::no_resize>(values),
              kamping::recv_count(static_cast<int>(values.size())), kamping::source(peer),
              kamping::tag(wb_kamping::message_tag));
  }
};
}  // namespace

const wb_variant wb_kamping_vector_bounded =
    wb_kamping::make_variant<bounded_policy>("vector_bounded", "c/int_buffer", 0);
