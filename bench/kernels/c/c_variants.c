/* The table of C variants (wb_c_variants of variant.h). */
#include "c_variants.h"

/* c/partitioned is MPI-4 only (c_partitioned.c). */
enum { WB_C_VARIANT_COUNT = MPI_VERSION >= 4 ? 15 : 14 };

size_t wb_c_variants(const wb_variant** table) {
  static wb_variant variants[WB_C_VARIANT_COUNT];
  variants[0] = wb_c_int_buffer;
  variants[1] = wb_c_mprobe;
  variants[2] = wb_c_char_buffer;
  variants[3] = wb_c_char_mprobe;
  variants[4] = wb_c_struct;
  variants[5] = wb_c_framed;
  variants[6] = wb_c_ser_vecstr;
  variants[7] = wb_c_ser_map;
  variants[8] = wb_c_ser_record;
  variants[9] = wb_c_probe;
  variants[10] = wb_c_persistent;
  variants[11] = wb_c_ser_vecstr_kept;
  variants[12] = wb_c_ser_map_kept;
  variants[13] = wb_c_ser_record_kept;
#if MPI_VERSION >= 4
  variants[14] = wb_c_partitioned;
#endif
  *table = variants;
  return sizeof variants / sizeof variants[0];
}
