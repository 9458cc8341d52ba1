/* The harness's two modes: timed interleaved blocks, and audit windows for the PMPI counter. */
#ifndef WB_HARNESS_RUN_H
#define WB_HARNESS_RUN_H

#include "harness_args.h"
#include "variant.h"

enum { WB_MAX_VARIANTS = 64 };

typedef struct wb_run_options {
  wb_timing_options timing; /* variants: "api/payload" names; count: elements per message */
  const char* counts;       /* "N:I,N:I,...": one process runs count N with I round trips (warm-up
                               I/10, blocks min(B, I)) for each pair in turn; NULL: count alone */
  const char* jobs;         /* "N:NAMES;N:NAMES;...": the variants NAMES (comma-separated) at count
                               N, each job in turn in one process (the instruction counts' one
                               launch a build); NULL: --variants at --count */
  MPI_Comm pair;            /* the two ranks of this rank's ping-pong (MPI_COMM_WORLD at 2 ranks;
                               wb_node at 4 ranks: 0-1 and 2-3); the variants, the floor and the
                               payload checks live on it, the blocks start together on the world */
} wb_run_options;

/* Every variant compiled into this harness (C, then Boost.MPI, then thinmpi; wb_node: the
 * node suite's, node_harness.c); returns how many. */
size_t wb_all_variants(const wb_variant** out, size_t capacity);

/* Resolves options->variants into `selected`; on error returns 0 and writes a message to stderr.
 * "all" selects every variant whose max_count admits options->count. */
size_t wb_select_variants(const wb_run_options* options, const wb_variant** selected);

/* Runs the selected variants in interleaved blocks; rank 0 prints one JSON line per variant
 * (with several pairs, each block's time is the slowest pair's). Returns 0 when every payload
 * verified. */
int wb_run_blocks(const wb_run_options* options, const wb_variant** selected, size_t n);

/* Runs the counted windows of each variant (harness_windows.h): with options->instructions > 0
 * under valgrind --tool=callgrind --collect-atstart=no, its round trips in two collected windows,
 * options->instructions and twice as many, each dumped as "wb rank=R variant=api/payload calls=K"
 * (bench/driver/wrapper_bench/suites/instructions/instructions.py takes the difference, which
 * cancels what a window costs besides its round trips; outside valgrind it runs the same round
 * trips and dumps nothing); otherwise options->audit round trips inside
 * MPI_Pcontrol(1, "api/payload") ... MPI_Pcontrol(0). Rank 0 prints one JSON line per variant.
 * Returns 0 when all verified. */
int wb_run_windows(const wb_run_options* options, const wb_variant** selected, size_t n);

#endif /* WB_HARNESS_RUN_H */
