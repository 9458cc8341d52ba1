// mpl/string: send(text, dest, tag) / recv(text, source, tag) on a std::string (MPL's
// STL-container path: MPI_Mprobe + MPI_Get_count + resize + MPI_Mrecv).
#include "mpl_kernel.hpp"
#include "mpl_variants.hpp"

namespace {
struct string_policy : wb_mpl::no_layout {
  using payload = std::string;
  using layout = wb_mpl::no_layout;
  static constexpr std::size_t element_bytes = 1;
  static payload make(std::size_t count) { return wb_mpl::letters(count); }
  static void send(const mpl::communicator& comm, int peer, const payload& text, layout&) {
    comm.send(text, peer, wb_mpl::message_tag);
  }
  static void recv(const mpl::communicator& comm, int peer, payload& text, layout&) {
    comm.recv(text, peer, wb_mpl::message_tag);
  }
};
}  // namespace

const wb_variant wb_mpl_string = wb_mpl::make_variant<string_policy>("string", "c/char_mprobe", 0);
