// The table of KaMPIng variants (wb_kamping_variants of variant.h).
#include "kamping_variants.hpp"

extern "C" size_t wb_kamping_variants(const wb_variant** table) {
  static const wb_variant variants[] = {wb_kamping_int, wb_kamping_vector_bounded,
                                        wb_kamping_vector, wb_kamping_string};
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
