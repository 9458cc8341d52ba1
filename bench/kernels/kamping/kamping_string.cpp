// kamping/string: send(send_buf(text)) / recv(recv_buf<resize_to_fit>(text)): a std::string of
// unknown length, resized to what arrives (MPI_Probe + MPI_Get_count + MPI_Recv).
#include <string>

#include "kamping_adapter.hpp"
#include "kamping_variants.hpp"

namespace {
struct string_policy : wb_kamping::sends_whole<std::string, wb_cxx::letters, 1> {
  static void recv(const kamping::Communicator<>& comm, int peer, payload& text) {
    comm.recv(kamping::recv_buf<kamping::resize_to_fit>(text), kamping::source(peer),
              kamping::tag(wb_kamping::message_tag));
  }
};
}  // namespace

const wb_variant wb_kamping_string =
    wb_kamping::make_variant<string_policy>("string", "c/char_mprobe", 0);
