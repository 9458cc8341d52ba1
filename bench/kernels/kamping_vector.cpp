// kamping/vector: send(send_buf(v)) / v = recv<int>(source, tag): the receive of unknown size,
// which KaMPIng makes MPI_Probe + MPI_Get_count + MPI_Recv (kamping/p2p/recv.hpp) into a new
// std::vector.
#include "kamping_kernel.hpp"
#include "kamping_variants.hpp"

#include <kamping/p2p/recv.hpp>
#include <kamping/p2p/send.hpp>

namespace {
struct unknown_size_policy {
  using payload = std::vector<int>;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t count) { return wb_kamping::int_vector(count); }
  static void send(const kamping::Communicator<>& comm, int peer, const payload& values) {
    comm.send(kamping::send_buf(values), kamping::destination(peer),
              kamping::tag(wb_kamping::message_tag));
  }
  static void recv(const kamping::Communicator<>& comm, int peer, payload& values) {
    values = comm.recv<int>(kamping::source(peer), kamping::tag(wb_kamping::message_tag));
  }
};
}  // namespace

const wb_variant wb_kamping_vector =
    wb_kamping::make_variant<unknown_size_policy>("vector", "c/probe", 0);
