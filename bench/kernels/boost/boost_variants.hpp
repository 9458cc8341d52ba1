// The Boost.MPI variants, one object file each (so `nm` shows each path's calls).
#ifndef WB_BOOST_VARIANTS_HPP
#define WB_BOOST_VARIANTS_HPP

#include "cxx_variant.hpp"

extern const wb_variant wb_boost_int;
extern const wb_variant wb_boost_raw;
extern const wb_variant wb_boost_vector;
extern const wb_variant wb_boost_string;

#endif  // WB_BOOST_VARIANTS_HPP
