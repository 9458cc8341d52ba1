// mpl/int: communicator::send(value, dest, tag) / recv(value, source, tag), one int
// (MPL's blocking.cc).
#include "mpl_kernel.hpp"
#include "mpl_variants.hpp"

namespace {
struct int_policy : wb_mpl::no_layout {
  using payload = int;
  using layout = wb_mpl::no_layout;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t) { return wb_mpl::int_vector(1)[0]; }
  static void send(const mpl::communicator& comm, int peer, const payload& value, layout&) {
    comm.send(value, peer, wb_mpl::message_tag);
  }
  static void recv(const mpl::communicator& comm, int peer, payload& value, layout&) {
    comm.recv(value, peer, wb_mpl::message_tag);
  }
};
}  // namespace

const wb_variant wb_mpl_int = wb_mpl::make_variant<int_policy>("int", "c/int_buffer", 1);
