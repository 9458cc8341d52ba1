#include "harness_frame.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "harness_json.h"

void wb_frame_head(const char* name, const char* api, const char* op, const char* form,
                   const char* baseline) {
  fputc('{', stdout);
  wb_json_field_string(stdout, "variant", name, 0);
  wb_json_field_string(stdout, "api", api, 0);
  wb_json_field_string(stdout, "op", op, 0);
  wb_json_field_string(stdout, "form", form, 0);
  wb_json_field_string(stdout, "baseline", baseline, 0);
}

/* Resolves the comma-separated names (or "all"); returns how many, 0 on an unknown name. */
static size_t select_variants(const wb_frame* frame, const void** selected) {
  const void* all[WB_FRAME_MAX_VARIANTS];
  size_t total = frame->variants(all, WB_FRAME_MAX_VARIANTS), n = 0;
  const char* names = *frame->names;
  if (strcmp(names, "all") == 0) {
    memcpy(selected, all, total * sizeof *all);
    return total;
  }
  for (const char* name = names; *name && n < WB_FRAME_MAX_VARIANTS;) {
    size_t length = strcspn(name, ","), found = total;
    for (size_t i = 0; i < total && found == total; ++i) {
      char full[160];
      frame->name(all[i], full, sizeof full);
      if (strlen(full) == length && strncmp(full, name, length) == 0) found = i;
    }
    if (found == total) {
      fprintf(stderr, "%s: %.*s: no such variant in this build\n", frame->program, (int)length,
              name);
      return 0;
    }
    selected[n++] = all[found];
    name += length + (name[length] == ',');
  }
  return n;
}

int wb_frame_main(int argc, char** argv, const wb_frame* frame) {
  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    const void* all[WB_FRAME_MAX_VARIANTS];
    size_t n = frame->variants(all, WB_FRAME_MAX_VARIANTS);
    for (size_t i = 0; i < n; ++i)
      frame->list(all[i]);
    return 0;
  }
  if (!frame->parse(argc, argv, frame->options)) return fputs(frame->usage, stderr), 2;
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0, status = 2;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const void* selected[WB_FRAME_MAX_VARIANTS];
  size_t n = select_variants(frame, selected);
  if (n > 0) status = frame->run(frame->options, selected, n, rank, ranks);
  if (status == 1 && rank == 0) fprintf(stderr, "%s: %s\n", frame->program, frame->wrong);
  fflush(stdout);
  if (status != 0) MPI_Abort(MPI_COMM_WORLD, status == 1 ? 3 : status);
  MPI_Finalize();
  return status;
}
