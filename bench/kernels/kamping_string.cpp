// kamping/string: send(send_buf(text)) / recv(recv_buf<resize_to_fit>(text)): a std::string of
// unknown length, resized to what arrives (MPI_Probe + MPI_Get_count + MPI_Recv).
#include "kamping_kernel.hpp"
#include "kamping_variants.hpp"

#include <kamping/p2p/recv.hpp>
#include <kamping/p2p/send.hpp>

namespace {
struct string_policy {
  using payload = std::string;
  static constexpr std::size_t element_bytes = 1;
  static payload make(std::size_t count) { return wb_kamping::letters(count); }
  static void send(const kamping::Communicator<>& comm, int peer, const payload& text) {
    comm.send(kamping::send_buf(text), kamping::destination(peer),
              kamping::tag(wb_kamping::message_tag));
  }
  static void recv(const kamping::Communicator<>& comm, int peer, payload& text) {
    comm.recv(kamping::recv_buf<kamping::resize_to_fit>(text), kamping::source(peer),
              kamping::tag(wb_kamping::message_tag));
  }
};
}  // namespace

const wb_variant wb_kamping_string =
    wb_kamping::make_variant<string_policy>("string", "c/char_mprobe", 0);
