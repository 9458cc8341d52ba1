// The table of Boost.MPI variants (wb_boost_variants of variant.h) and the Boost version.
#include "boost_variants.hpp"

#include <boost/version.hpp>

#include "boost_kernel.hpp"
#include "harness_info.h"

std::vector<int> wb_boost::int_vector(std::size_t count) {
  std::vector<int> values(count);
  for (std::size_t i = 0; i < count; ++i)
    values[i] = int_at(i);
  return values;
}

extern "C" size_t wb_boost_variants(const wb_variant** table) {
  static const wb_variant variants[] = {wb_boost_int, wb_boost_raw, wb_boost_vector,
                                        wb_boost_string};
  *table = variants;
  return sizeof variants / sizeof variants[0];
}

extern "C" const char* wb_boost_version(void) {
  return BOOST_LIB_VERSION;
}
