// The KaMPIng variants, one object file each (so `nm` shows each path's calls).
#ifndef WB_KAMPING_VARIANTS_HPP
#define WB_KAMPING_VARIANTS_HPP

#include "cxx_variant.hpp"

extern const wb_variant wb_kamping_int;
extern const wb_variant wb_kamping_vector_bounded;
extern const wb_variant wb_kamping_vector;
extern const wb_variant wb_kamping_string;
extern const wb_variant wb_kamping_char_buffer;
// kamping_serial.cpp, where cereal is found (WB_KAMPING_SERIAL).
extern const wb_variant wb_kamping_ser_vecstr;
extern const wb_variant wb_kamping_ser_map;
extern const wb_variant wb_kamping_ser_record;

#endif  // WB_KAMPING_VARIANTS_HPP
