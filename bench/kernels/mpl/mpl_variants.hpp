// The MPL variants, one object file each (so `nm` shows each path's calls).
#ifndef WB_MPL_VARIANTS_HPP
#define WB_MPL_VARIANTS_HPP

#include "cxx_variant.hpp"

extern const wb_variant wb_mpl_int;
extern const wb_variant wb_mpl_vector_bounded;
extern const wb_variant wb_mpl_vector;
extern const wb_variant wb_mpl_vector_container;
extern const wb_variant wb_mpl_string;
extern const wb_variant wb_mpl_char_buffer;

#endif  // WB_MPL_VARIANTS_HPP
