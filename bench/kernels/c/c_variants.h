/* The C variants, one object file each (so `nm` shows each path's MPI calls). */
#ifndef WB_C_VARIANTS_H
#define WB_C_VARIANTS_H

#include "variant.h"

extern const wb_variant wb_c_int_buffer;
extern const wb_variant wb_c_mprobe;
extern const wb_variant wb_c_char_buffer;
extern const wb_variant wb_c_char_mprobe;
extern const wb_variant wb_c_struct;
extern const wb_variant wb_c_framed;
/* The serialization suite's hand-packed floor (c_serial.c). */
extern const wb_variant wb_c_ser_vecstr;
extern const wb_variant wb_c_ser_vecstr_kept;
extern const wb_variant wb_c_ser_map_kept;
extern const wb_variant wb_c_ser_record_kept;
extern const wb_variant wb_c_ser_map;
extern const wb_variant wb_c_ser_record;
extern const wb_variant wb_c_probe;
extern const wb_variant wb_c_persistent;
#if MPI_VERSION >= 4
/* MPI-4 only (c_partitioned.c). */
extern const wb_variant wb_c_partitioned;
#endif

#endif /* WB_C_VARIANTS_H */
