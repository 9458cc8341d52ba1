/* The harness's measuring modes. Both ranks run the same sequence of calls; only rank 0 prints. */
#include "harness_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor.h"
#include "harness_json.h"
#include "harness_windows.h"
#include "placement.h"
#include "tables.h"

size_t wb_all_variants(const wb_variant** out, size_t capacity) {
  wb_variant_table* const tables[] = {
      wb_c_variants,
#ifdef WB_NODE
      wb_c_node_variants,
#endif
#ifdef WB_HAVE_BOOST
      wb_boost_variants,
      wb_boost_serial_variants,
#endif
#ifdef WB_HAVE_THINMPI
      wb_thinmpi_variants,
      wb_thinmpi_serial_variants,
#endif
#ifdef WB_HAVE_THINMPI_NODE
      wb_thinmpi_node_variants,
#endif
#ifdef WB_HAVE_KAMPING
      wb_kamping_variants,
#endif
#ifdef WB_HAVE_MPL
      wb_mpl_variants,
#endif
  };
  WB_RETURN_TABLE_ENTRIES(wb_variant, tables, out, capacity);
}

/* The variant called `name` ("api/payload"), or NULL. */
static const wb_variant* find_variant(const char* name, size_t length) {
  static const wb_variant* all[WB_MAX_VARIANTS];
  size_t n = wb_all_variants(all, WB_MAX_VARIANTS);
  for (size_t i = 0; i < n; ++i) {
    size_t api_length = strlen(all[i]->api);
    if (length == api_length + 1 + strlen(all[i]->payload) &&
        strncmp(name, all[i]->api, api_length) == 0 && name[api_length] == '/' &&
        strncmp(name + api_length + 1, all[i]->payload, length - api_length - 1) == 0)
      return all[i];
  }
  return NULL;
}

/* Only rank 0 prints results. */
static int rank_prints(void) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

/* Whether v can carry `count` elements. */
static int admits(const wb_variant* v, size_t count) {
  return v->max_count == 0 || count <= v->max_count;
}

size_t wb_select_variants(const wb_run_options* options, const wb_variant** selected) {
  const wb_variant* all[WB_MAX_VARIANTS];
  size_t n = 0;
  if (strcmp(options->timing.variants, "all") == 0) {
    size_t total = wb_all_variants(all, WB_MAX_VARIANTS);
    for (size_t i = 0; i < total; ++i)
      if (admits(all[i], options->timing.count)) selected[n++] = all[i];
    return n;
  }
  for (const char* name = options->timing.variants; *name && n < WB_MAX_VARIANTS;) {
    size_t length = strcspn(name, ",");
    const wb_variant* v = find_variant(name, length);
    if (!v || !admits(v, options->timing.count)) {
      fprintf(stderr, "wb_kernels: %.*s: %s\n", (int)length, name,
              v ? "does not take this count" : "no such variant in this build");
      return 0;
    }
    selected[n++] = v;
    name += length + (name[length] == ',');
  }
  return n;
}

/* Sets up every selected variant on this rank; 0 when it worked on both ranks. */
static int setup_all(const wb_run_options* options, const wb_variant** selected, size_t n,
                     void** states) {
  int failed = 0, any_failed = 0;
  wb_placement_begin();
  for (size_t i = 0; i < n; ++i) {
    states[i] = selected[i]->setup(options->pair, options->timing.count);
    if (!states[i]) failed = 1;
  }
  wb_placement_end();
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any_failed) fputs("wb_kernels: a variant's setup failed\n", stderr);
  return any_failed;
}

/* Verifies and tears down one variant; returns 1 on rank 0 when either rank saw a wrong payload. */
static int verify_and_teardown(const wb_variant* v, void* state) {
  int wrong = v->verify(state) != 0, any_wrong = 0;
  MPI_Reduce(&wrong, &any_wrong, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  v->teardown(state);
  return any_wrong;
}

/* Seconds for `iterations` round trips of v, started together on every rank. */
static double timed(const wb_variant* v, void* state, long iterations) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  v->round_trips(state, iterations);
  return MPI_Wtime() - start;
}

/* Prints the JSON head shared by both modes: `{"variant": ..., ..., ` */
static void print_head(const wb_variant* v, const wb_run_options* options) {
  char name[128];
  snprintf(name, sizeof name, "%s/%s", v->api, v->payload);
  fputc('{', stdout);
  wb_json_field_string(stdout, "variant", name, 0);
  wb_json_field_string(stdout, "api", v->api, 0);
  wb_json_field_string(stdout, "payload", v->payload, 0);
  wb_json_field_string(stdout, "baseline", v->baseline, 0);
  wb_json_field_number(stdout, "count", (double)options->timing.count, 0);
  wb_json_field_number(stdout, "bytes", (double)(options->timing.count * v->element_bytes), 0);
  wb_json_field_number(stdout, "warmup", (double)options->timing.warmup, 0);
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  wb_json_field_number(stdout, "ranks", (double)ranks, 0);
}

/* Writes `"key": value, ` or `"key": null, ` when the floor could not be measured. */
static void print_floor(const char* key, double value) {
  if (value > 0)
    wb_json_field_number(stdout, key, value, 0);
  else
    printf("\"%s\": null, ", key);
}

/* Prints the timing record of one variant: the whole run and each block, and the process's
 * physical floor (floor.h) before and after all its variants. */
static void print_timing(const wb_variant* v, const wb_run_options* options,
                         const double* block_seconds, int wrong, const wb_floor* floors) {
  const wb_timing_options* t = &options->timing;
  double total = 0, block_us[1024];
  long blocks = t->blocks;
  for (long b = 0; b < blocks; ++b) {
    long in_block = t->iterations * (b + 1) / blocks - t->iterations * b / blocks;
    total += block_seconds[b];
    block_us[b] = block_seconds[b] * 1e6 / (2.0 * (double)in_block);
  }
  print_head(v, options);
  wb_json_field_number(stdout, "iterations", (double)t->iterations, 0);
  wb_json_field_number(stdout, "blocks", (double)blocks, 0);
  wb_json_field_number(stdout, "one_way_us", total * 1e6 / (2.0 * (double)t->iterations), 0);
  wb_json_field_numbers(stdout, "block_one_way_us", block_us, blocks, 0);
  print_floor("floor_before_us", floors[0].low_decile_us);
  print_floor("floor_after_us", floors[1].low_decile_us);
  wb_json_close_bool(stdout, "verified", !wrong);
}

/* The floor of this process now: the cache-line ping-pong, with no MPI on its path. */
static wb_floor floor_now(MPI_Comm pair) {
  void* floor = wb_floor_open(pair);
  wb_floor measured = wb_floor_measure(floor, WB_FLOOR_ROUND_TRIPS, WB_FLOOR_BLOCKS);
  wb_floor_close(floor);
  return measured;
}

/* Each block's seconds on world rank 0: the largest of the pairs' first ranks (one pair: its
 * own). The second rank of a pair times the same round trips and leaves them out. */
static void slowest_pair(const wb_run_options* options, double* seconds, size_t n) {
  int ranks = 0, pair_rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks == 2) return;
  MPI_Comm_rank(options->pair, &pair_rank);
  int cells = (int)(n * (size_t)options->timing.blocks);
  if (pair_rank != 0) memset(seconds, 0, (size_t)cells * sizeof *seconds);
  MPI_Allreduce(MPI_IN_PLACE, seconds, cells, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

int wb_run_blocks(const wb_run_options* options, const wb_variant** selected, size_t n) {
  const wb_timing_options* t = &options->timing;
  void* states[WB_MAX_VARIANTS];
  if (t->blocks < 1 || t->blocks > 1024 || t->iterations < t->blocks)
    return fputs("wb_kernels: need 1 <= blocks <= min(1024, iterations)\n", stderr), 1;
  if (setup_all(options, selected, n, states)) return 1;
  wb_floor floors[2] = {floor_now(options->pair), {-1.0, -1.0}};
  double* seconds = calloc(n * (size_t)t->blocks, sizeof *seconds);
  for (size_t i = 0; i < n; ++i)
    selected[i]->round_trips(states[i], t->warmup);
  for (long b = 0; b < t->blocks; ++b) {
    long in_block = t->iterations * (b + 1) / t->blocks - t->iterations * b / t->blocks;
    for (size_t k = 0; k < n; ++k) { /* each block starts with a different variant */
      size_t i = ((size_t)b + k) % n;
      seconds[i * (size_t)t->blocks + (size_t)b] = timed(selected[i], states[i], in_block);
    }
  }
  floors[1] = floor_now(options->pair);
  slowest_pair(options, seconds, n);
  int any_wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    int wrong = verify_and_teardown(selected[i], states[i]);
    any_wrong |= wrong;
    if (rank_prints())
      print_timing(selected[i], options, &seconds[i * (size_t)t->blocks], wrong, floors);
  }
  free(seconds);
  return any_wrong;
}

/* Runs `count` round trips of a variant (wb_count_windows's work). */
static void round_trips(const void* variant, void* state, long count) {
  const wb_variant* v = variant;
  v->round_trips(state, count);
}

int wb_run_windows(const wb_run_options* options, const wb_variant** selected, size_t n) {
  int any_wrong = 0, instructions = options->timing.instructions > 0;
  for (size_t i = 0; i < n; ++i) {
    void* state = NULL;
    char name[128];
    if (setup_all(options, &selected[i], 1, &state)) return 1;
    snprintf(name, sizeof name, "%s/%s", selected[i]->api, selected[i]->payload);
    wb_count_windows(round_trips, selected[i], state, name, options->timing.count,
                     options->timing.warmup, options->timing.audit, options->timing.instructions);
    int wrong = verify_and_teardown(selected[i], state);
    any_wrong |= wrong;
    if (!rank_prints()) continue;
    print_head(selected[i], options);
    wb_json_field_number(
        stdout, instructions ? "instruction_round_trips" : "audit_round_trips",
        (double)(instructions ? options->timing.instructions : options->timing.audit), 0);
    wb_json_close_bool(stdout, "verified", !wrong);
  }
  return any_wrong;
}
