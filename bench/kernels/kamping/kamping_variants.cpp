// The table of KaMPIng variants (wb_kamping_variants of variant.h); the serialization suite's
// ones where cereal was found (WB_KAMPING_SERIAL, bench/cmake/WbPeers.cmake).
#include "kamping_variants.hpp"

extern "C" size_t wb_kamping_variants(const wb_variant** table) {
  static const wb_variant variants[] = {
      wb_kamping_int,        wb_kamping_vector_bounded, wb_kamping_vector,
      wb_kamping_string,     wb_kamping_char_buffer,
#ifdef WB_KAMPING_SERIAL
      wb_kamping_ser_vecstr, wb_kamping_ser_map,        wb_kamping_ser_record,
#endif
  };
  return wb_cxx::publish(table, variants);
}
