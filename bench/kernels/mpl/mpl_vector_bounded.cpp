// mpl/vector_bounded: send(v.data(), layout, dest, tag) / recv(v.data(), layout, source, tag)
// with an mpl::contiguous_layout<int> of the known size built once (MPL's blocking_vector.cc).
#include "mpl_adapter.hpp"
#include "mpl_variants.hpp"

const wb_variant wb_mpl_vector_bounded =
    wb_mpl::make_variant<wb_mpl::known_layout<int, wb_cxx::int_vector>>("vector_bounded",
                                                                        "c/int_buffer", 0);
