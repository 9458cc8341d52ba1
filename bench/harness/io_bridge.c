/* libwb_ckernels' io part (io_bridge.h). */
#include "io_bridge.h"

#include <stdlib.h>
#include <string.h>

#include "io_instance.h"

static const wb_io_variant* find_variant(const char* name) {
  size_t (*tables[])(const wb_io_variant**) = {wb_c_io_variants, wb_posix_io_variants};
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; ++t) {
    const wb_io_variant* table = NULL;
    size_t n = tables[t](&table);
    for (size_t i = 0; i < n; ++i) {
      char full[96];
      wb_io_name(&table[i], full, sizeof full);
      if (strcmp(full, name) == 0) return &table[i];
    }
  }
  return NULL;
}

void* wb_io_bridge_open(const char* name, MPI_Fint fortran_comm, const char* dir, size_t bytes,
                        long records, int tag) {
  const wb_io_variant* variant = find_variant(name);
  wb_io_instance* instance = variant ? malloc(sizeof *instance) : NULL;
  if (!instance) return NULL;
  if (wb_io_instance_open(instance, variant, MPI_Comm_f2c(fortran_comm), dir, bytes, records,
                          tag) == 0)
    return instance;
  free(instance);
  return NULL;
}

double wb_io_bridge_block(void* instance, long calls) {
  return wb_io_instance_block((wb_io_instance*)instance, calls);
}

int wb_io_bridge_close(void* instance) {
  int wrong = wb_io_instance_close((wb_io_instance*)instance);
  free(instance);
  return wrong;
}
