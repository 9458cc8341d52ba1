/* libwb_ckernels: the C collective variants behind a ctypes-friendly interface (coll_bridge.h). */
#include "coll_bridge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_variant.h"

typedef struct wb_coll_bridge {
  const wb_coll_variant* variant;
  void* state;
  MPI_Comm comm;
} wb_coll_bridge;

/* The C variant `name` of the collectives, the neighbors or the rma suite. */
static const wb_coll_variant* find_c_variant(const char* name) {
  size_t (*tables[])(const wb_coll_variant**) = {wb_c_coll_variants, wb_c_neighbor_variants,
                                                 wb_c_rma_variants};
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; ++t) {
    const wb_coll_variant* table = NULL;
    size_t n = tables[t](&table);
    for (size_t i = 0; i < n; ++i) {
      char full[160];
      snprintf(full, sizeof full, "%s/%s/%s", table[i].api, table[i].op, table[i].form);
      if (strcmp(full, name) == 0) return &table[i];
    }
  }
  return NULL;
}

void* wb_coll_bridge_setup(const char* name, MPI_Fint fortran_comm, size_t count) {
  const wb_coll_variant* variant = find_c_variant(name);
  if (!variant) return NULL;
  wb_coll_bridge* bridge = malloc(sizeof *bridge);
  if (!bridge) return NULL;
  bridge->variant = variant;
  bridge->comm = MPI_Comm_f2c(fortran_comm);
  bridge->state = variant->setup(bridge->comm, count);
  if (bridge->state) return bridge;
  free(bridge);
  return NULL;
}

double wb_coll_bridge_block(void* opaque, long calls) {
  wb_coll_bridge* bridge = opaque;
  return wb_coll_osu_block(bridge->variant, bridge->state, bridge->comm, calls);
}

void wb_coll_bridge_calls(void* opaque, long calls) {
  wb_coll_bridge* bridge = opaque;
  for (long i = 0; i < calls; ++i)
    bridge->variant->call(bridge->state);
}

int wb_coll_bridge_verify(void* opaque) {
  wb_coll_bridge* bridge = opaque;
  return bridge->variant->verify(bridge->state);
}

void wb_coll_bridge_teardown(void* opaque) {
  wb_coll_bridge* bridge = opaque;
  bridge->variant->teardown(bridge->state);
  free(bridge);
}
