/* wb_coll: the collectives harness of wrapper-bench (one binary per MPI implementation x
 * compiler, any number of ranks); wb_neighbors is the same harness with the neighbors suite's
 * variants.
 *
 *   wb_coll --list
 *   mpiexec -n P wb_coll --variants c/allreduce/sum,thinmpi/allreduce/plus --count N
 *       [--iterations I] [--warmup W] [--blocks B] [--audit K] [--instructions K]
 *
 * Timed mode: the OSU collective method (osu_allreduce): each call timed alone, calls separated
 * by MPI_Barrier, a rank's figure the average of its calls, the result the maximum over ranks;
 * the variants run in interleaved blocks (block b of every variant, then block b+1, each block
 * starting with a different variant) so that ratios are measured side by side. Rank 0 prints one
 * JSON line per variant with the per-block figures. Audit mode runs K calls of each variant
 * inside MPI_Pcontrol(1, "api/op/form") ... MPI_Pcontrol(0), without barriers, for libwb_audit.
 * Instructions mode (under callgrind) runs K and 2K calls of each variant in two collected
 * windows (callgrind_window.h). */
#include <stdio.h>
#include <stdlib.h>

#include "coll_variant.h"
#include "harness_args.h"
#include "harness_frame.h"
#include "harness_json.h"
#include "harness_windows.h"
#include "placement.h"
#include "tables.h"

enum { MAX_BLOCKS = 1024 };

static const char usage[] =
    "usage: wb_coll --list | --variants NAMES|all --count N "
    "[--iterations I] [--warmup W] [--blocks B] [--audit K] [--instructions K]\n";

/* Built three times: wb_coll (the collectives suite), with WB_NEIGHBORS defined wb_neighbors
 * (the neighbors suite: neighborhood collectives, the halo program, the sparse exchange) and
 * with WB_RMA defined wb_rma (the rma suite: one-sided operations and programs). */
static size_t all_variants(const void** out, size_t capacity) {
  wb_coll_variant_table* const tables[] = {
#ifdef WB_RMA
      wb_c_rma_variants,
#ifdef WB_HAVE_THINMPI_RMA
      wb_thinmpi_rma_variants,
#endif
#elif defined(WB_NEIGHBORS)
      wb_c_neighbor_variants,
#ifdef WB_HAVE_THINMPI_NEIGHBORS
      wb_thinmpi_neighbor_variants,
#endif
#else
      wb_c_coll_variants,
#ifdef WB_HAVE_BOOST
      wb_boost_coll_variants,
#endif
#ifdef WB_HAVE_THINMPI_COLL
      wb_thinmpi_coll_variants,
#endif
#ifdef WB_HAVE_KAMPING
      wb_kamping_coll_variants,
#endif
#ifdef WB_HAVE_MPL
      wb_mpl_coll_variants,
#endif
#ifdef WB_HAVE_KAMPING_PROGRAMS
      wb_kamping_program_variants,
#endif
#ifdef WB_HAVE_MPL_PROGRAMS
      wb_mpl_program_variants,
#endif
#endif
  };
  WB_RETURN_TABLE_ENTRIES(wb_coll_variant, tables, out, capacity);
}

static void name_of(const void* variant, char* name, size_t capacity) {
  const wb_coll_variant* v = variant;
  snprintf(name, capacity, "%s/%s/%s", v->api, v->op, v->form);
}

static void print_head(const wb_coll_variant* v) {
  char name[160];
  name_of(v, name, sizeof name);
  wb_frame_head(name, v->api, v->op, v->form, v->baseline);
}

static void print_list_line(const void* variant) {
  const wb_coll_variant* v = variant;
  print_head(v);
  wb_json_close_bool(stdout, "program", v->kind == WB_COLL_PROGRAM);
}

/* `count` calls of a variant back to back (the warm-up, wb_count_windows's work). */
static void calls_of(const void* variant, void* state, long count) {
  const wb_coll_variant* v = variant;
  for (long k = 0; k < count; ++k)
    v->call(state);
}

/* Sets up the variants; 0 when every rank managed. */
static int setup_all(const wb_timing_options* o, const void* const* v, size_t n, void** states) {
  int failed = 0, any_failed = 0;
  wb_placement_begin();
  for (size_t i = 0; i < n; ++i) {
    const wb_coll_variant* variant = v[i];
    if (!(states[i] = variant->setup(MPI_COMM_WORLD, o->count))) failed = 1;
  }
  wb_placement_end();
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any_failed) fputs("wb_coll: a variant's setup failed\n", stderr);
  return any_failed;
}

/* Verifies and tears down; 1 (on every rank) when any rank saw a wrong result. */
static int verify_and_teardown(const wb_coll_variant* v, void* state) {
  int wrong = v->verify(state) != 0, any_wrong = 0;
  MPI_Allreduce(&wrong, &any_wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  v->teardown(state);
  return any_wrong;
}

static void print_timing(const wb_coll_variant* v, const wb_timing_options* o, int ranks,
                         const double* block_us, int wrong) {
  double sum = 0;
  for (long b = 0; b < o->blocks; ++b)
    sum += block_us[b];
  print_head(v);
  wb_json_field_number(stdout, "ranks", ranks, 0);
  wb_json_field_number(stdout, "count", (double)o->count, 0);
  wb_json_field_number(stdout, "bytes", (double)(o->count * sizeof(int)), 0);
  wb_json_field_number(stdout, "iterations", (double)o->iterations, 0);
  wb_json_field_number(stdout, "warmup", (double)o->warmup, 0);
  wb_json_field_number(stdout, "blocks", (double)o->blocks, 0);
  wb_json_field_number(stdout, "us", sum / (double)o->blocks, 0);
  wb_json_field_numbers(stdout, "block_us", block_us, o->blocks, 0);
  wb_json_close_bool(stdout, "verified", !wrong);
}

static int run_blocks(const wb_timing_options* o, const void* const* v, size_t n, int rank,
                      int ranks) {
  void* states[WB_FRAME_MAX_VARIANTS];
  if (o->blocks < 1 || o->blocks > MAX_BLOCKS || o->iterations < o->blocks)
    return fputs("wb_coll: need 1 <= blocks <= min(1024, iterations)\n", stderr), 1;
  if (setup_all(o, v, n, states)) return 1;
  size_t cells = n * (size_t)o->blocks;
  double* mine = calloc(cells, sizeof *mine);
  double* slowest = calloc(cells, sizeof *slowest);
  for (size_t i = 0; i < n; ++i)
    calls_of(v[i], states[i], o->warmup);
  for (long b = 0; b < o->blocks; ++b) {
    long calls = o->iterations * (b + 1) / o->blocks - o->iterations * b / o->blocks;
    for (size_t k = 0; k < n; ++k) {
      size_t i = ((size_t)b + k) % n;
      mine[i * (size_t)o->blocks + (size_t)b] =
          wb_coll_osu_block(v[i], states[i], MPI_COMM_WORLD, calls);
    }
  }
  MPI_Reduce(mine, slowest, (int)cells, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  int any_wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    int wrong = verify_and_teardown(v[i], states[i]);
    any_wrong |= wrong;
    if (rank == 0) print_timing(v[i], o, ranks, &slowest[i * (size_t)o->blocks], wrong);
  }
  free(mine), free(slowest);
  return any_wrong;
}

/* The audit or the instructions windows (harness_windows.h) of each variant in turn. */
static int run_windows(const wb_timing_options* o, const void* const* v, size_t n, int rank,
                       int ranks) {
  int any_wrong = 0, instructions = o->instructions > 0;
  for (size_t i = 0; i < n; ++i) {
    void* state = NULL;
    char name[160];
    if (setup_all(o, &v[i], 1, &state)) return 1;
    name_of(v[i], name, sizeof name);
    wb_count_windows(calls_of, v[i], state, name, o->count, o->warmup, o->audit, o->instructions);
    int wrong = verify_and_teardown(v[i], state);
    any_wrong |= wrong;
    if (rank != 0) continue;
    print_head(v[i]);
    wb_json_field_number(stdout, "ranks", ranks, 0);
    wb_json_field_number(stdout, "count", (double)o->count, 0);
    wb_json_field_number(stdout, instructions ? "instruction_calls" : "audit_calls",
                         (double)(instructions ? o->instructions : o->audit), 0);
    wb_json_close_bool(stdout, "verified", !wrong);
  }
  return any_wrong;
}

static int run(const void* options, const void* const* selected, size_t n, int rank, int ranks) {
  const wb_timing_options* o = options;
  return o->audit > 0 || o->instructions > 0 ? run_windows(o, selected, n, rank, ranks)
                                             : run_blocks(o, selected, n, rank, ranks);
}

static int parse(int argc, char** argv, void* options) {
  return wb_parse_timing(argc, argv, options, NULL, 0);
}

int main(int argc, char** argv) {
  static wb_timing_options o = {NULL, 1, 1000, 100, 10, 0, 0};
  static const wb_frame frame = {"wb_coll",    usage,   "a result did not verify",
                                 all_variants, name_of, print_list_line,
                                 parse,        run,     &o,
                                 &o.variants};
  return wb_frame_main(argc, argv, &frame);
}
