/* One io instance: open, blocks of calls, close, check, delete (io_instance.h). */
#include "io_instance.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "placement.h"

void wb_io_name(const wb_io_variant* variant, char* name, size_t capacity) {
  snprintf(name, capacity, "%s/%s", variant->api, variant->op);
}

static int everyone(MPI_Comm comm, int ok) {
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  return all;
}

int wb_io_instance_open(wb_io_instance* instance, const wb_io_variant* variant, MPI_Comm comm,
                        const char* dir, size_t bytes, long records, int tag) {
  memset(instance, 0, sizeof *instance);
  instance->variant = variant;
  snprintf(instance->path, sizeof instance->path, "%s/wb-io-%s-%s-%zu-%d.dat", dir, variant->api,
           variant->op, bytes, tag);
  wb_placement_begin();
  int made = wb_io_layout_make(&instance->layout, comm, variant->form, bytes, records) == 0;
  wb_placement_end();
  instance->layout.path = instance->path;
  if (!everyone(comm, made)) return wb_io_layout_free(&instance->layout), 1;
  int written = !variant->reads || wb_io_prewrite(&instance->layout) == 0;
  wb_placement_begin();
  if (everyone(comm, written)) instance->state = variant->setup(&instance->layout);
  wb_placement_end();
  if (everyone(comm, instance->state != NULL)) return 0;
  if (instance->state) variant->finish(instance->state);
  instance->state = NULL;
  MPI_Barrier(comm);
  if (instance->layout.rank == 0) unlink(instance->path);
  wb_io_layout_free(&instance->layout);
  return 1;
}

double wb_io_instance_block(wb_io_instance* instance, long calls) {
  const wb_io_variant* v = instance->variant;
  void* state = instance->state;
  if (v->rewind) v->rewind(state);
  MPI_Barrier(instance->layout.comm);
  double start = MPI_Wtime();
  for (long k = 0; k < calls; ++k)
    v->call(state);
  return (MPI_Wtime() - start) * 1e6 / (double)(calls > 0 ? calls : 1);
}

int wb_io_instance_close(wb_io_instance* instance) {
  const wb_io_variant* v = instance->variant;
  MPI_Comm comm = instance->layout.comm;
  int failed = v->finish(instance->state) != 0;
  instance->state = NULL;
  MPI_Barrier(comm); /* every rank's bytes are in the file before any rank checks it */
  failed |= wb_io_check(&instance->layout, v->reads, v->op) != 0;
  int ok = everyone(comm, !failed);
  if (instance->layout.rank == 0) unlink(instance->path);
  wb_io_layout_free(&instance->layout);
  return !ok;
}
