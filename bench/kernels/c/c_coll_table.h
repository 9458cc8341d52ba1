/* The variant tables of the collectives harness's C kernels (c_coll.c, c_rma.c): a row of the
 * table, and the table returned with the two programs of bench/programs that follow its calls. */
#ifndef WB_C_COLL_TABLE_H
#define WB_C_COLL_TABLE_H

#include <string.h>

#include "coll_variant.h"

/* A C variant's row: c/<op>/<form>, the baseline of the others. */
#define WB_C_COLL_ROW(op, form, kind, setup, call, verify, teardown) \
  { "c", op, form, NULL, kind, setup, call, verify, teardown }

/* The number of rows of a table. */
#define WB_C_ROWS(table) (sizeof(table) / sizeof((table)[0]))

/* Points *table at `all`, which holds the `rows` of `variants`, then `first` and `second`, and
 * returns how many that are. C cannot initialize a static table from other objects' constants,
 * so `all` (rows + 2 entries, static) is filled at each call. */
static inline size_t wb_c_table_with_programs(const wb_coll_variant** table, wb_coll_variant* all,
                                              const wb_coll_variant* variants, size_t rows,
                                              const wb_coll_variant* first,
                                              const wb_coll_variant* second) {
  memcpy(all, variants, rows * sizeof *variants);
  all[rows] = *first;
  all[rows + 1] = *second;
  *table = all;
  return rows + 2;
}

#endif /* WB_C_COLL_TABLE_H */
