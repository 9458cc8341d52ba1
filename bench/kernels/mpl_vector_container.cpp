// mpl/vector_container: send(v, dest, tag) / recv(v, source, tag) on the std::vector itself,
// MPL's STL-container convenience (stl_container.cc): MPI_Mprobe + MPI_Get_count + resize +
// MPI_Mrecv on the receiving side, a vector_layout datatype built for each send.
#include "mpl_kernel.hpp"
#include "mpl_variants.hpp"

namespace {
struct container_policy : wb_mpl::no_layout {
  using payload = std::vector<int>;
  using layout = wb_mpl::no_layout;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t count) { return wb_mpl::int_vector(count); }
  static void send(const mpl::communicator& comm, int peer, const payload& values, layout&) {
    comm.send(values, peer, wb_mpl::message_tag);
  }
  static void recv(const mpl::communicator& comm, int peer, payload& values, layout&) {
    comm.recv(values, peer, wb_mpl::message_tag);
  }
};
}  // namespace

const wb_variant wb_mpl_vector_container =
    wb_mpl::make_variant<container_policy>("vector_container", "c/mprobe", 0);
