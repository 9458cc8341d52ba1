// kamping/int: send(send_buf(value), destination, tag) / recv_single<int>(source, tag), one int.
#include "kamping_adapter.hpp"
#include "kamping_variants.hpp"

namespace {
int first_int(std::size_t) {
  return wb_cxx::int_at(0);
}
struct int_policy : wb_kamping::sends_whole<int, first_int, sizeof(int)> {
  static void recv(const kamping::Communicator<>& comm, int peer, payload& value) {
    value = comm.recv_single<int>(kamping::source(peer), kamping::tag(wb_kamping::message_tag));
  }
};
}  // namespace

const wb_variant wb_kamping_int = wb_kamping::make_variant<int_policy>("int", "c/int_buffer", 1);
