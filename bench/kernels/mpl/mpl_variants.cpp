// The table of MPL variants (wb_mpl_variants of variant.h).
#include "mpl_variants.hpp"

extern "C" size_t wb_mpl_variants(const wb_variant** table) {
  static const wb_variant variants[] = {wb_mpl_int,    wb_mpl_vector_bounded,
                                        wb_mpl_vector, wb_mpl_vector_container,
                                        wb_mpl_string, wb_mpl_char_buffer};
  return wb_cxx::publish(table, variants);
}
