/* libwb_ckernels: the C variants behind a ctypes-friendly interface (see py_bridge.h). */
#include "py_bridge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor.h"
#include "variant.h"

typedef struct wb_bridge {
  const wb_variant* variant;
  void* state;
} wb_bridge;

void* wb_bridge_setup(const char* name, MPI_Fint fortran_comm, size_t count) {
  const wb_variant* table = NULL;
  size_t n = wb_c_variants(&table);
  for (size_t i = 0; i < n; ++i) {
    char full[128];
    snprintf(full, sizeof full, "%s/%s", table[i].api, table[i].payload);
    if (strcmp(full, name) != 0) continue;
    wb_bridge* bridge = (wb_bridge*)malloc(sizeof *bridge);
    if (!bridge) return NULL;
    bridge->variant = &table[i];
    bridge->state = table[i].setup(MPI_Comm_f2c(fortran_comm), count);
    if (bridge->state) return bridge;
    free(bridge);
    return NULL;
  }
  return NULL;
}

double wb_bridge_time(void* opaque, long iterations) {
  wb_bridge* bridge = (wb_bridge*)opaque;
  double start = MPI_Wtime();
  bridge->variant->round_trips(bridge->state, iterations);
  return MPI_Wtime() - start;
}

int wb_bridge_verify(void* opaque) {
  wb_bridge* bridge = (wb_bridge*)opaque;
  return bridge->variant->verify(bridge->state);
}

void wb_bridge_teardown(void* opaque) {
  wb_bridge* bridge = (wb_bridge*)opaque;
  bridge->variant->teardown(bridge->state);
  free(bridge);
}

double wb_bridge_floor(MPI_Fint fortran_comm) {
  void* floor = wb_floor_open(MPI_Comm_f2c(fortran_comm));
  wb_floor measured = wb_floor_measure(floor, WB_FLOOR_ROUND_TRIPS, WB_FLOOR_BLOCKS);
  wb_floor_close(floor);
  return measured.low_decile_us;
}
