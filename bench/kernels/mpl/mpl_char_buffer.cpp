// mpl/char_buffer: send(v.data(), layout, dest, tag) / recv(v.data(), layout, source, tag) on a
// std::vector<char> with an mpl::contiguous_layout<char> of the known size built once (MPL's
// blocking_vector.cc): the OSU sweep's path (osu_latency's MPI_CHAR buffer).
#include "mpl_adapter.hpp"
#include "mpl_variants.hpp"

const wb_variant wb_mpl_char_buffer =
    wb_mpl::make_variant<wb_mpl::known_layout<char, wb_cxx::char_vector>>("char_buffer",
                                                                          "c/char_buffer", 0);
