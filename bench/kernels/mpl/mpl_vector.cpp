// mpl/vector: the receive of unknown size as MPL's probe.cc writes it: probe(source, tag),
// status.get_count<int>(), a vector and an mpl::contiguous_layout<int> of that count, then
// recv(v.data(), layout, source, tag); the sender builds the layout of what it sends.
#include "mpl_adapter.hpp"
#include "mpl_variants.hpp"

namespace {
struct probe_policy {
  using payload = std::vector<int>;
  static constexpr std::size_t element_bytes = sizeof(int);
  static payload make(std::size_t count) { return wb_cxx::int_vector(count); }
  static void send(const mpl::communicator& comm, int peer, const payload& values) {
    const mpl::contiguous_layout<int> l(values.size());
    comm.send(values.data(), l, peer, wb_mpl::message_tag);
  }
  static void recv(const mpl::communicator& comm, int peer, payload& values) {
    const mpl::status_t status = comm.probe(peer, wb_mpl::message_tag);
    const int count = status.get_count<int>();
    std::vector<int> arrived(static_cast<std::size_t>(count));
    const mpl::contiguous_layout<int> l(static_cast<std::size_t>(count));
    comm.recv(arrived.data(), l, peer, wb_mpl::message_tag);
    values = std::move(arrived);
  }
};
}  // namespace

const wb_variant wb_mpl_vector = wb_mpl::make_variant<probe_policy>("vector", "c/probe", 0);
