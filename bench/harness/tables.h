/* The harnesses' gathering of the kernels' tables, written once (harness_run.c, coll_harness.c,
 * io_harness.c). */
#ifndef WB_TABLES_H
#define WB_TABLES_H

#include <stddef.h>

/* Puts a pointer to every entry of every table in the array `tables` (functions of the kind's
 * table type: wb_variant_table, wb_coll_variant_table, wb_io_variant_table, whose entries are
 * of type `entry`) into out, at most `capacity` of them, and returns how many. */
#define WB_RETURN_TABLE_ENTRIES(entry, tables, out, capacity)                        \
  do {                                                                               \
    size_t gathered_ = 0;                                                            \
    for (size_t table_ = 0; table_ < sizeof(tables) / sizeof(tables)[0]; ++table_) { \
      const entry* entries_ = NULL;                                                  \
      size_t size_ = (tables)[table_](&entries_);                                    \
      for (size_t i_ = 0; i_ < size_ && gathered_ < (capacity); ++i_)                \
        (out)[gathered_++] = &entries_[i_];                                          \
    }                                                                                \
    return gathered_;                                                                \
  } while (0)

#endif /* WB_TABLES_H */
