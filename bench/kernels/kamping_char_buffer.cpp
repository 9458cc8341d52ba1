// kamping/char_buffer: send(send_buf(v)) / recv(recv_buf<no_resize>(v), recv_count(n)) on a
// std::vector<char> of known size: the OSU sweep's path (osu_latency's MPI_CHAR buffer), written
// as KaMPIng's README writes a receive into a buffer of known size (one MPI_Recv, no probe).
#include "kamping_kernel.hpp"
#include "kamping_variants.hpp"

#include <kamping/p2p/recv.hpp>
#include <kamping/p2p/send.hpp>

namespace {
struct char_buffer_policy {
  using payload = std::vector<char>;
  static constexpr std::size_t element_bytes = 1;
  static payload make(std::size_t count) {
    const std::string text = wb_kamping::letters(count);
    return payload(text.begin(), text.end());
  }
  static void send(const kamping::Communicator<>& comm, int peer, const payload& chars) {
    comm.send(kamping::send_buf(chars), kamping::destination(peer),
              kamping::tag(wb_kamping::message_tag));
  }
  static void recv(const kamping::Communicator<>& comm, int peer, payload& chars) {
    comm.recv(kamping::recv_buf<kamping::no_resize>(chars),
              kamping::recv_count(static_cast<int>(chars.size())), kamping::source(peer),
              kamping::tag(wb_kamping::message_tag));
  }
};
}  // namespace

const wb_variant wb_kamping_char_buffer =
    wb_kamping::make_variant<char_buffer_policy>("char_buffer", "c/char_buffer", 0);
