// kamping/vector: send(send_buf(v)) / v = recv<int>(source, tag): the receive of unknown size,
// which KaMPIng makes MPI_Probe + MPI_Get_count + MPI_Recv (kamping/p2p/recv.hpp) into a new
// std::vector.
#include "kamping_adapter.hpp"
#include "kamping_variants.hpp"

namespace {
struct unknown_size_policy
    : wb_kamping::sends_whole<std::vector<int>, wb_cxx::int_vector, sizeof(int)> {
  static void recv(const kamping::Communicator<>& comm, int peer, payload& values) {
    values = comm.recv<int>(kamping::source(peer), kamping::tag(wb_kamping::message_tag));
  }
};
}  // namespace

const wb_variant wb_kamping_vector =
    wb_kamping::make_variant<unknown_size_policy>("vector", "c/probe", 0);
