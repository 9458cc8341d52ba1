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

#endif /* WB_HARNESS_ARGS_H */
