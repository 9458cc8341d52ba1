// mpl/vector_bounded: send(v.data(), layout, dest, tag) / recv(v.data(), layout, source, tag)
// with an mpl::contiguous_layout<int> of the known size built once (MPL's blocking_vector.cc).
#include "mpl_kernel.hpp"
#include "mpl_variants.hpp"

namespace {
struct bounded_policy {
  using payload = std::vector<int>;
  using layout = mpl::contiguous_layout<int>;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t count) { return wb_mpl::int_vector(count); }
  static layout make_layout(std::size_t count) { return layout(count); }
  static void send(const mpl::communicator& comm, int peer, const payload& values, layout& l) {
    comm.send(values.data(), l, peer, wb_mpl::message_tag);
  }
  static void recv(const mpl::communicator& comm, int peer, payload& values, layout& l) {
    comm.recv(values.data(), l, peer, wb_mpl::message_tag);
  }
};
}  // namespace

const wb_variant wb_mpl_vector_bounded =
    wb_mpl::make_variant<bounded_policy>("vector_bounded", "c/int_buffer", 0);
