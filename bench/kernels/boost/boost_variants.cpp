// The table of Boost.MPI variants (wb_boost_variants of variant.h) and the Boost version.
#include "boost_variants.hpp"

#include <boost/version.hpp>

#include "harness_info.h"

extern "C" size_t wb_boost_variants(const wb_variant** table) {
  static const wb_variant variants[] = {wb_boost_int, wb_boost_raw, wb_boost_vector,
                                        wb_boost_string};
  return wb_cxx::publish(table, variants);
}

extern "C" const char* wb_boost_version(void) {
  return BOOST_LIB_VERSION;
}
