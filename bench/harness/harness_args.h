/* The harnesses' command line, written once: "--key value" pairs after argv[0], each key naming
 * the field it sets (harness.c, coll_harness.c, io_harness.c). */
#ifndef WB_HARNESS_ARGS_H
#define WB_HARNESS_ARGS_H

#include <stddef.h>

typedef enum wb_arg_kind {
  WB_ARG_TEXT, /* const char*: the value as given */
  WB_ARG_LONG, /* long: atol of the value */
  WB_ARG_SIZE  /* size_t: atol of the value */
} wb_arg_kind;

typedef struct wb_arg {
  const char* key; /* "--count" */
  wb_arg_kind kind;
  void* field; /* what the value sets, of the kind's type */
} wb_arg;

/* Sets the fields of `args` from argv's pairs; returns 0 on a key no entry names or a key
 * without a value (a usage error). */
int wb_parse_args(int argc, char** argv, const wb_arg* args, size_t n);

/* The options of the timed harnesses (harness.c, coll_harness.c). */
typedef struct wb_timing_options {
  const char* variants; /* comma-separated names, or "all" */
  size_t count;         /* elements per message (ints per rank for the collectives) */
  long iterations;      /* measured round trips (calls) per variant, split over the blocks */
  long warmup;          /* per variant before the first block (or counted window) */
  long blocks;          /* interleaved blocks */
  long audit;           /* > 0: audit mode, this many inside each counting window */
  long instructions;    /* > 0: callgrind mode, windows of this many and twice as many */
} wb_timing_options;

enum { WB_TIMING_EXTRA_ARGS = 4 };

/* Sets `o` from argv's --variants, --count, --iterations, --warmup, --blocks, --audit and
 * --instructions, and the `n` (at most WB_TIMING_EXTRA_ARGS) further `args`; returns 0 on a
 * usage error: an unknown key, no --variants, a count of 0 or a negative warm-up. */
int wb_parse_timing(int argc, char** argv, wb_timing_options* o, const wb_arg* args, size_t n);

#endif /* WB_HARNESS_ARGS_H */
