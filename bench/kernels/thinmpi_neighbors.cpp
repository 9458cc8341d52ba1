// The thinmpi variants of the neighbors suite (placeholder until the topology family lands).
#include <cstddef>

#include "coll_variant.h"
#include "thinmpi/thinmpi.hpp"

extern "C" size_t wb_thinmpi_neighbor_variants(const wb_coll_variant** table) {
  static const wb_coll_variant variants[] = {
      {nullptr, nullptr, nullptr, nullptr, WB_COLL_PROGRAM, nullptr, nullptr, nullptr, nullptr},
  };
  *table = variants;
  return 0;
}
