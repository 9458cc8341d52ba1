/* wb_io: the io suite's harness (one binary per MPI implementation x compiler, any rank count).
 *
 *   wb_io --list
 *   mpiexec -n P wb_io --variants c/write_at,thinmpi/write_at,posix/write_at --sizes 8:2000,...
 *       --dir DIR [--warmup W] [--blocks B] [--audit K]
 *
 * Every variant runs at every size (bytes:calls; for the collective forms bytes is the whole
 * array's size), each such instance with a file of its own in DIR. Timed mode: the instances run
 * in interleaved blocks (block b of every instance, then block b+1, each block starting with a
 * different instance), so ratios are measured side by side in one process; a block is its calls
 * back to back between a barrier and the clock, a rank's figure its microseconds per call, the
 * block's the slowest rank's. Rank 0 prints one JSON line per instance with the per-block
 * figures and the process's physical floor before and after (floor.h, on 2 ranks). Audit mode
 * runs K calls of each instance inside MPI_Pcontrol(1, "api/op/bytes") ... MPI_Pcontrol(0), for
 * libwb_audit. Each file is checked with POSIX reads (or each read's bytes against what was
 * written) and deleted. */
#include <stdio.h>
#include <stdlib.h>

#include "floor.h"
#include "harness_args.h"
#include "harness_frame.h"
#include "harness_json.h"
#include "io_instance.h"
#include "tables.h"

enum { MAX_SIZES = 16, MAX_BLOCKS = 1024 };

typedef struct options {
  const char* variants;
  const char* dir;
  size_t bytes[MAX_SIZES];
  long calls[MAX_SIZES];
  int sizes;
  long warmup, blocks, audit;
} options;

static const char usage[] =
    "usage: wb_io --list | --variants NAMES|all --sizes BYTES:CALLS,... --dir DIR "
    "[--warmup W] [--blocks B] [--audit K]\n";

static size_t all_variants(const void** out, size_t capacity) {
  wb_io_variant_table* const tables[] = {
      wb_c_io_variants,
      wb_posix_io_variants,
#ifdef WB_HAVE_THINMPI_IO
      wb_thinmpi_io_variants,
#endif
  };
  WB_RETURN_TABLE_ENTRIES(wb_io_variant, tables, out, capacity);
}

static void name_of(const void* variant, char* name, size_t capacity) {
  wb_io_name(variant, name, capacity);
}

static const char* form_name(wb_io_form form) {
  return form == WB_IO_COLLECTIVE ? "collective" : form == WB_IO_SHARED ? "shared" : "independent";
}

static void print_head(const wb_io_variant* v) {
  char name[96];
  wb_io_name(v, name, sizeof name);
  wb_frame_head(name, v->api, v->op, form_name(v->form), v->baseline);
}

static void print_list_line(const void* variant) {
  const wb_io_variant* v = variant;
  print_head(v);
  wb_json_close_bool(stdout, "reads", v->reads);
}

/* The calls of block b of an instance making `calls` calls in `blocks` blocks. */
static long block_calls(long calls, long blocks, long b) {
  return calls * (b + 1) / blocks - calls * b / blocks;
}

/* The records a shared form reaches: the largest block or the warm-up. */
static long records_of(const options* o, int size) {
  long most = (o->calls[size] + o->blocks - 1) / o->blocks;
  return most > o->warmup ? most : (o->warmup > 0 ? o->warmup : 1);
}

/* Opens every instance (variant x size); 0 when all did, else closes those that did. */
static int open_all(const options* o, const void* const* v, size_t n, wb_io_instance* inst) {
  for (size_t i = 0; i < n; ++i)
    for (int s = 0; s < o->sizes; ++s) {
      const wb_io_variant* variant = v[i];
      size_t k = i * (size_t)o->sizes + (size_t)s;
      if (wb_io_instance_open(&inst[k], variant, MPI_COMM_WORLD, o->dir, o->bytes[s],
                              records_of(o, s), (int)k) == 0)
        continue;
      fprintf(stderr, "wb_io: %s/%s at %zu bytes: open failed\n", variant->api, variant->op,
              o->bytes[s]);
      for (size_t j = 0; j < k; ++j)
        wb_io_instance_close(&inst[j]);
      return 1;
    }
  return 0;
}

static void warm_up(const options* o, wb_io_instance* inst, size_t count) {
  for (size_t k = 0; k < count; ++k)
    if (o->warmup > 0) wb_io_instance_block(&inst[k], o->warmup);
}

typedef struct floors {
  double before, after;
} floors;

/* The process's floor (floor.h) where it can be measured: on 2 ranks. */
static double measure_floor(void* floor) {
  return floor ? wb_floor_measure(floor, WB_FLOOR_ROUND_TRIPS, WB_FLOOR_BLOCKS).low_decile_us
               : -1.0;
}

static void print_timing(const wb_io_instance* inst, const options* o, int s, int ranks,
                         const double* block_us, floors floor, int wrong) {
  double sum = 0;
  for (long b = 0; b < o->blocks; ++b)
    sum += block_us[b];
  const wb_io_layout* l = &inst->layout;
  print_head(inst->variant);
  wb_json_field_number(stdout, "ranks", ranks, 0);
  wb_json_field_number(stdout, "bytes", (double)o->bytes[s], 0);
  wb_json_field_number(stdout, "rank_bytes", (double)l->bytes, 0);
  if (l->form == WB_IO_COLLECTIVE) {
    wb_json_field_number(stdout, "rows", l->sizes[0], 0);
    wb_json_field_number(stdout, "columns", l->sizes[1], 0);
  }
  wb_json_field_number(stdout, "iterations", (double)o->calls[s], 0);
  wb_json_field_number(stdout, "warmup", (double)o->warmup, 0);
  wb_json_field_number(stdout, "blocks", (double)o->blocks, 0);
  wb_json_field_number(stdout, "us", sum / (double)o->blocks, 0);
  wb_json_field_numbers(stdout, "block_us", block_us, o->blocks, 0);
  if (floor.before > 0) wb_json_field_number(stdout, "floor_before_us", floor.before, 0);
  if (floor.after > 0) wb_json_field_number(stdout, "floor_after_us", floor.after, 0);
  wb_json_field_string(stdout, "dir", o->dir, 0);
  wb_json_close_bool(stdout, "verified", !wrong);
}

static int run_blocks(const options* o, const void* const* v, size_t n, int rank, int ranks) {
  size_t count = n * (size_t)o->sizes;
  if (o->blocks < 1 || o->blocks > MAX_BLOCKS)
    return fputs("wb_io: need 1 <= blocks <= 1024\n", stderr), 1;
  for (int s = 0; s < o->sizes; ++s)
    if (o->calls[s] < o->blocks) return fputs("wb_io: need calls >= blocks\n", stderr), 1;
  void* floor = ranks == 2 ? wb_floor_open(MPI_COMM_WORLD) : NULL;
  floors measured = {measure_floor(floor), 0};
  wb_io_instance* inst = calloc(count, sizeof *inst);
  double* mine = calloc(count * (size_t)o->blocks, sizeof *mine);
  double* slowest = calloc(count * (size_t)o->blocks, sizeof *slowest);
  if (!inst || !mine || !slowest || open_all(o, v, n, inst))
    return free(inst), free(mine), free(slowest), 1;
  warm_up(o, inst, count);
  for (long b = 0; b < o->blocks; ++b)
    for (size_t j = 0; j < count; ++j) {
      size_t k = ((size_t)b + j) % count;
      long calls = block_calls(o->calls[k % (size_t)o->sizes], o->blocks, b);
      mine[k * (size_t)o->blocks + (size_t)b] = wb_io_instance_block(&inst[k], calls);
    }
  MPI_Reduce(mine, slowest, (int)(count * (size_t)o->blocks), MPI_DOUBLE, MPI_MAX, 0,
             MPI_COMM_WORLD);
  measured.after = measure_floor(floor);
  if (floor) wb_floor_close(floor);
  int any_wrong = 0;
  for (size_t k = 0; k < count; ++k) {
    wb_io_instance closed = inst[k]; /* its layout is freed by close; print from a copy */
    int wrong = wb_io_instance_close(&inst[k]);
    any_wrong |= wrong;
    if (rank == 0)
      print_timing(&closed, o, (int)(k % (size_t)o->sizes), ranks, &slowest[k * (size_t)o->blocks],
                   measured, wrong);
  }
  free(inst), free(mine), free(slowest);
  return any_wrong;
}

static int run_audit(const options* o, const void* const* v, size_t n, int rank, int ranks) {
  int any_wrong = 0;
  for (size_t i = 0; i < n; ++i)
    for (int s = 0; s < o->sizes; ++s) {
      const wb_io_variant* variant = v[i];
      wb_io_instance inst;
      char name[128], label[160];
      if (wb_io_instance_open(&inst, variant, MPI_COMM_WORLD, o->dir, o->bytes[s], o->audit, 0))
        return 1;
      if (o->warmup > 0) wb_io_instance_block(&inst, o->warmup < o->audit ? o->warmup : o->audit);
      if (variant->rewind) variant->rewind(inst.state);
      wb_io_name(variant, name, sizeof name);
      snprintf(label, sizeof label, "%s/%zu", name, o->bytes[s]);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Pcontrol(1, label);
      for (long k = 0; k < o->audit; ++k)
        variant->call(inst.state);
      MPI_Pcontrol(0);
      int wrong = wb_io_instance_close(&inst);
      any_wrong |= wrong;
      if (rank != 0) continue;
      print_head(variant);
      wb_json_field_number(stdout, "ranks", ranks, 0);
      wb_json_field_number(stdout, "bytes", (double)o->bytes[s], 0);
      wb_json_field_number(stdout, "audit_calls", (double)o->audit, 0);
      wb_json_field_string(stdout, "label", label, 0);
      wb_json_close_bool(stdout, "verified", !wrong);
    }
  return any_wrong;
}

static int run(const void* opts, const void* const* selected, size_t n, int rank, int ranks) {
  const options* o = opts;
  return o->audit > 0 ? run_audit(o, selected, n, rank, ranks)
                      : run_blocks(o, selected, n, rank, ranks);
}

/* "8:2000,65536:300" into o->bytes and o->calls; 0 on a malformed list. */
static int parse_sizes(const char* text, options* o) {
  o->sizes = 0;
  while (*text && o->sizes < MAX_SIZES) {
    char* end = NULL;
    unsigned long long bytes = strtoull(text, &end, 10);
    if (*end != ':') return 0;
    long calls = strtol(end + 1, &end, 10);
    if (bytes == 0 || calls < 1 || (*end != ',' && *end != '\0')) return 0;
    o->bytes[o->sizes] = (size_t)bytes;
    o->calls[o->sizes++] = calls;
    text = *end ? end + 1 : end;
  }
  return o->sizes > 0 && *text == '\0';
}

static int parse(int argc, char** argv, void* opts) {
  options* o = opts;
  const char* sizes = NULL;
  const wb_arg args[] = {
      {"--variants", WB_ARG_TEXT, &o->variants}, {"--dir", WB_ARG_TEXT, &o->dir},
      {"--sizes", WB_ARG_TEXT, &sizes},          {"--warmup", WB_ARG_LONG, &o->warmup},
      {"--blocks", WB_ARG_LONG, &o->blocks},     {"--audit", WB_ARG_LONG, &o->audit},
  };
  return wb_parse_args(argc, argv, args, sizeof args / sizeof args[0]) && o->variants && o->dir &&
         sizes && parse_sizes(sizes, o) && o->warmup >= 0;
}

int main(int argc, char** argv) {
  static options o = {.warmup = 10, .blocks = 10};
  static const wb_frame frame = {"wb_io",      usage,   "a call failed or a file did not verify",
                                 all_variants, name_of, print_list_line,
                                 parse,        run,     &o,
                                 &o.variants};
  return wb_frame_main(argc, argv, &frame);
}
