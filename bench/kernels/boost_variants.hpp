// The Boost.MPI variants, one object file each (so `nm` shows each path's calls).
#ifndef WB_BOOST_VARIANTS_HPP
#define WB_BOOST_VARIANTS_HPP

#include <cstddef>
#include <vector>

#include "variant.h"

extern const wb_variant wb_boost_int;
extern const wb_variant wb_boost_raw;
extern const wb_variant wb_boost_vector;
extern const wb_variant wb_boost_string;

namespace wb_boost {
/// The int payload of `count` elements, the same on both ranks.
std::vector<int> int_vector(std::size_t count);
}  // namespace wb_boost

#endif  // WB_BOOST_VARIANTS_HPP
