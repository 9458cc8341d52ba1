#include "harness_args.h"

#include <stdlib.h>
#include <string.h>

static const wb_arg* arg_named(const char* key, const wb_arg* args, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(key, args[i].key) == 0) return &args[i];
  return NULL;
}

int wb_parse_args(int argc, char** argv, const wb_arg* args, size_t n) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const wb_arg* arg = arg_named(argv[i], args, n);
    if (!arg) return 0;
    if (arg->kind == WB_ARG_TEXT)
      *(const char**)arg->field = argv[i + 1];
    else if (arg->kind == WB_ARG_LONG)
      *(long*)arg->field = atol(argv[i + 1]);
    else
      *(size_t*)arg->field = (size_t)atol(argv[i + 1]);
  }
  return argc % 2 == 1;
}

int wb_parse_timing(int argc, char** argv, wb_timing_options* o, const wb_arg* args, size_t n) {
  wb_arg all[7 + WB_TIMING_EXTRA_ARGS] = {
      {"--variants", WB_ARG_TEXT, &o->variants},
      {"--count", WB_ARG_SIZE, &o->count},
      {"--iterations", WB_ARG_LONG, &o->iterations},
      {"--warmup", WB_ARG_LONG, &o->warmup},
      {"--blocks", WB_ARG_LONG, &o->blocks},
      {"--audit", WB_ARG_LONG, &o->audit},
      {"--instructions", WB_ARG_LONG, &o->instructions},
  };
  if (n > WB_TIMING_EXTRA_ARGS) return 0;
  for (size_t i = 0; i < n; ++i)
    all[7 + i] = args[i];
  return wb_parse_args(argc, argv, all, 7 + n) && o->variants && o->count > 0 && o->warmup >= 0;
}
