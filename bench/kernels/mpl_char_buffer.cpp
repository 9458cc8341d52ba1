// mpl/char_buffer: send(v.data(), layout, dest, tag) / recv(v.data(), layout, source, tag) on a
// std::vector<char> with an mpl::contiguous_layout<char> of the known size built once (MPL's
// blocking_vector.cc): the OSU sweep's path (osu_latency's MPI_CHAR buffer).
#include "mpl_kernel.hpp"
#include "mpl_variants.hpp"

namespace {
struct char_buffer_policy {
  using payload = std::vector<char>;
  using layout = mpl::contiguous_layout<char>;
  static constexpr std::size_t element_bytes = 1;
  static payload make(std::size_t count) {
    const std::string text = wb_mpl::letters(count);
    return payload(text.begin(), text.end());
  }
  static layout make_layout(std::size_t count) { return layout(count); }
  static void send(const mpl::communicator& comm, int peer, const payload& chars, layout& l) {
    comm.send(chars.data(), l, peer, wb_mpl::message_tag);
  }
  static void recv(const mpl::communicator& comm, int peer, payload& chars, layout& l) {
    comm.recv(chars.data(), l, peer, wb_mpl::message_tag);
  }
};
}  // namespace

const wb_variant wb_mpl_char_buffer =
    wb_mpl::make_variant<char_buffer_policy>("char_buffer", "c/char_buffer", 0);
