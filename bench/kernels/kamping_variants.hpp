// The KaMPIng variants, one object file each (so `nm` shows each path's calls).
#ifndef WB_KAMPING_VARIANTS_HPP
#define WB_KAMPING_VARIANTS_HPP

#include "variant.h"

extern const wb_variant wb_kamping_int;
extern const wb_variant wb_kamping_vector_bounded;
extern const wb_variant wb_kamping_vector;
extern const wb_variant wb_kamping_string;

#endif  // WB_KAMPING_VARIANTS_HPP
