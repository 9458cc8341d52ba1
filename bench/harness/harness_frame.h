/* What the collectives harness (coll_harness.c: wb_coll, wb_neighbors, wb_rma) and the io
 * harness (io_harness.c: wb_io) share, written once: --list, the usage error, the variants
 * selected by name, MPI's start and end around the run, and the exit status. A harness
 * describes itself in a wb_frame; its variants are handed around as `const void*`, each
 * harness's own variant type. */
#ifndef WB_HARNESS_FRAME_H
#define WB_HARNESS_FRAME_H

#include <stddef.h>

enum { WB_FRAME_MAX_VARIANTS = 96 };

typedef struct wb_frame {
  const char* program; /* "wb_coll": the messages' prefix */
  const char* usage;   /* printed on a usage error */
  const char* wrong;   /* the message when the run returns 1 */
  /* Every variant compiled in, at most `capacity`; returns how many. */
  size_t (*variants)(const void** out, size_t capacity);
  /* The name a variant is selected by ("api/op/form", "api/op"). */
  void (*name)(const void* variant, char* name, size_t capacity);
  /* Prints a variant's --list line. */
  void (*list)(const void* variant);
  /* Sets *options from argv; 0 on a usage error. */
  int (*parse)(int argc, char** argv, void* options);
  /* Runs the selected variants on MPI_COMM_WORLD; returns 0, 1 when a result did not verify
   * (the harness's stderr says why), or 2. */
  int (*run)(const void* options, const void* const* selected, size_t n, int rank, int ranks);
  void* options;
  const char* const* names; /* the options' --variants: comma-separated names, or "all" */
} wb_frame;

/* Opens a variant's JSON line on stdout:
 * `{"variant": name, "api": api, "op": op, "form": form, "baseline": baseline, ` */
void wb_frame_head(const char* name, const char* api, const char* op, const char* form,
                   const char* baseline);

/* The harness's main: `--list` prints every variant's line; otherwise parses argv (exit status
 * 2 with the usage on an error), starts MPI, selects the variants named (2 on an unknown name)
 * and runs them. A run that returns 1 exits with 3. MPI ends in MPI_Abort with the status when
 * it is not 0, else in MPI_Finalize; returns the status. */
int wb_frame_main(int argc, char** argv, const wb_frame* frame);

#endif /* WB_HARNESS_FRAME_H */
