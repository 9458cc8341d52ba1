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
#include <string.h>

#include "callgrind_window.h"
#include "coll_variant.h"
#include "harness_args.h"
#include "harness_json.h"

enum { MAX_VARIANTS = 96, MAX_BLOCKS = 1024 };

typedef struct options {
  const char* variants;
  size_t count;
  long iterations, warmup, blocks, audit, instructions;
} options;

static const char usage[] =
    "usage: wb_coll --list | --variants NAMES|all --count N "
    "[--iterations I] [--warmup W] [--blocks B] [--audit K] [--instructions K]\n";

/* Built three times: wb_coll (the collectives suite), with WB_NEIGHBORS defined wb_neighbors
 * (the neighbors suite: neighborhood collectives, the halo program, the sparse exchange) and
 * with WB_RMA defined wb_rma (the rma suite: one-sided operations and programs). */
static size_t all_variants(const wb_coll_variant** out) {
  size_t (*tables[])(const wb_coll_variant**) = {
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
  size_t n = 0;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; ++t) {
    const wb_coll_variant* table = NULL;
    size_t size = tables[t](&table);
    for (size_t i = 0; i < size && n < MAX_VARIANTS; ++i)
      out[n++] = &table[i];
  }
  return n;
}

static void name_of(const wb_coll_variant* v, char* name, size_t capacity) {
  snprintf(name, capacity, "%s/%s/%s", v->api, v->op, v->form);
}

static void print_head(const wb_coll_variant* v) {
  char name[160];
  name_of(v, name, sizeof name);
  fputc('{', stdout);
  wb_json_field_string(stdout, "variant", name, 0);
  wb_json_field_string(stdout, "api", v->api, 0);
  wb_json_field_string(stdout, "op", v->op, 0);
  wb_json_field_string(stdout, "form", v->form, 0);
  wb_json_field_string(stdout, "baseline", v->baseline, 0);
}

static void print_list(void) {
  const wb_coll_variant* all[MAX_VARIANTS];
  size_t n = all_variants(all);
  for (size_t i = 0; i < n; ++i) {
    print_head(all[i]);
    printf("\"program\": %s}\n", all[i]->kind == WB_COLL_PROGRAM ? "true" : "false");
  }
}

/* Resolves the comma-separated names (or "all"); returns how many, 0 on an unknown name. */
static size_t select_variants(const char* names, const wb_coll_variant** selected) {
  const wb_coll_variant* all[MAX_VARIANTS];
  size_t total = all_variants(all), n = 0;
  if (strcmp(names, "all") == 0) {
    memcpy(selected, all, total * sizeof *all);
    return total;
  }
  for (const char* name = names; *name && n < MAX_VARIANTS;) {
    size_t length = strcspn(name, ",");
    size_t found = total;
    for (size_t i = 0; i < total && found == total; ++i) {
      char full[160];
      name_of(all[i], full, sizeof full);
      if (strlen(full) == length && strncmp(full, name, length) == 0) found = i;
    }
    if (found == total)
      return fprintf(stderr, "wb_coll: %.*s: no such variant in this build\n", (int)length, name),
             0;
    selected[n++] = all[found];
    name += length + (name[length] == ',');
  }
  return n;
}

/* Sets up the variants; 0 when every rank managed. */
static int setup_all(const options* o, const wb_coll_variant** v, size_t n, void** states) {
  int failed = 0, any_failed = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(states[i] = v[i]->setup(MPI_COMM_WORLD, o->count))) failed = 1;
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

static void print_timing(const wb_coll_variant* v, const options* o, int ranks,
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
  printf("\"verified\": %s}\n", wrong ? "false" : "true");
}

static int run_blocks(const options* o, const wb_coll_variant** v, size_t n, int rank, int ranks) {
  void* states[MAX_VARIANTS];
  if (o->blocks < 1 || o->blocks > MAX_BLOCKS || o->iterations < o->blocks)
    return fputs("wb_coll: need 1 <= blocks <= min(1024, iterations)\n", stderr), 1;
  if (setup_all(o, v, n, states)) return 1;
  size_t cells = n * (size_t)o->blocks;
  double* mine = calloc(cells, sizeof *mine);
  double* slowest = calloc(cells, sizeof *slowest);
  for (size_t i = 0; i < n; ++i)
    for (long w = 0; w < o->warmup; ++w)
      v[i]->call(states[i]);
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

/* K and then 2K calls of each variant in collected callgrind windows, without barriers. */
static void instruction_windows(const options* o, const wb_coll_variant* v, void* state, int rank) {
  char name[160];
  name_of(v, name, sizeof name);
  for (long calls = o->instructions; calls <= 2 * o->instructions; calls *= 2) {
    MPI_Barrier(MPI_COMM_WORLD);
    WB_CALLGRIND_WINDOW(for (long k = 0; k < calls; ++k) v->call(state), rank, name, calls);
  }
}

static int run_audit(const options* o, const wb_coll_variant** v, size_t n, int rank, int ranks) {
  int any_wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    void* state = NULL;
    char name[160];
    if (setup_all(o, &v[i], 1, &state)) return 1;
    name_of(v[i], name, sizeof name);
    if (o->instructions > 0) {
      WB_CALLGRIND_WARMUP(for (long w = 0; w < o->warmup; ++w) v[i]->call(state));
      instruction_windows(o, v[i], state, rank);
    } else {
      for (long w = 0; w < o->warmup; ++w)
        v[i]->call(state);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Pcontrol(1, name);
      for (long k = 0; k < o->audit; ++k)
        v[i]->call(state);
      MPI_Pcontrol(0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int wrong = verify_and_teardown(v[i], state);
    any_wrong |= wrong;
    if (rank != 0) continue;
    print_head(v[i]);
    wb_json_field_number(stdout, "ranks", ranks, 0);
    wb_json_field_number(stdout, "count", (double)o->count, 0);
    wb_json_field_number(stdout, o->instructions > 0 ? "instruction_calls" : "audit_calls",
                         (double)(o->instructions > 0 ? o->instructions : o->audit), 0);
    printf("\"verified\": %s}\n", wrong ? "false" : "true");
  }
  return any_wrong;
}

static int parse(int argc, char** argv, options* o) {
  const wb_arg args[] = {
      {"--variants", WB_ARG_TEXT, &o->variants},
      {"--count", WB_ARG_SIZE, &o->count},
      {"--iterations", WB_ARG_LONG, &o->iterations},
      {"--warmup", WB_ARG_LONG, &o->warmup},
      {"--blocks", WB_ARG_LONG, &o->blocks},
      {"--audit", WB_ARG_LONG, &o->audit},
      {"--instructions", WB_ARG_LONG, &o->instructions},
  };
  return wb_parse_args(argc, argv, args, sizeof args / sizeof args[0]) && o->variants &&
         o->count > 0 && o->warmup >= 0;
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "--list") == 0) return print_list(), 0;
  options o = {NULL, 1, 1000, 100, 10, 0, 0};
  if (!parse(argc, argv, &o)) return fputs(usage, stderr), 2;
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0, status = 2;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const wb_coll_variant* selected[MAX_VARIANTS];
  size_t n = select_variants(o.variants, selected);
  if (n > 0)
    status = o.audit > 0 || o.instructions > 0 ? run_audit(&o, selected, n, rank, ranks)
                                               : run_blocks(&o, selected, n, rank, ranks);
  if (status == 1 && rank == 0) fputs("wb_coll: a result did not verify\n", stderr);
  fflush(stdout);
  if (status != 0) MPI_Abort(MPI_COMM_WORLD, status == 1 ? 3 : status);
  MPI_Finalize();
  return status;
}
