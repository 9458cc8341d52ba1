/* wb_kernels: the ping-pong harness of wrapper-bench (one binary per MPI implementation x
 * compiler). Built again with WB_NODE as wb_node, the node suite's harness: the node variants
 * (c_node.c, thinmpi_node.cpp) beside the point-to-point ones, on 2 ranks or on pairs of ranks
 * (0-1, 2-3, ...) that run the same blocks at the same time.
 *
 *   wb_kernels --list                 one JSON line per variant compiled in
 *   wb_kernels --info                 one JSON line: MPI library, compilers, Boost version
 *   mpiexec -n 2 wb_kernels --variants c/int_buffer,boost/vector --count N
 *       [--iterations I] [--warmup W] [--blocks B] [--audit K] [--instructions K]
 *   mpiexec -n 2 wb_kernels --variants ... --counts N:I,N:I,... [--blocks B]
 *       the timed blocks at several counts in one process, I round trips at count N
 *   mpiexec -n 2 wb_kernels --jobs N:NAMES;N:NAMES;... [--iterations I] ... [--instructions K]
 *       several variant lists, each at its own count, one after another in one process (one
 *       valgrind start for all of a build's instruction counts)
 *
 * Timed mode runs the variants in interleaved blocks (block b of every variant, then block b+1),
 * so that every ratio is measured side by side; audit mode runs K round trips of each variant
 * inside an MPI_Pcontrol window for the PMPI counter (bench/audit); instructions mode (under
 * callgrind) runs K and 2K round trips of each variant in two collected windows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_args.h"
#include "harness_info.h"
#include "harness_json.h"
#include "harness_run.h"

static const char usage[] =
    "usage: wb_kernels --list | --info | (--variants NAMES (--count N [--iterations I] "
    "[--warmup W] | --counts N:I,...) | --jobs N:NAMES;N:NAMES;... [--iterations I] "
    "[--warmup W]) [--blocks B] [--audit K] [--instructions K]\n";

/* The C compiler of the C kernels and of this harness. */
static const char* c_compiler(void) {
  return WB_COMPILER_NAME("clang", "gcc");
}

static void print_list(void) {
  const wb_variant* all[WB_MAX_VARIANTS];
  size_t n = wb_all_variants(all, WB_MAX_VARIANTS);
  for (size_t i = 0; i < n; ++i) {
    char name[128];
    snprintf(name, sizeof name, "%s/%s", all[i]->api, all[i]->payload);
    fputc('{', stdout);
    wb_json_field_string(stdout, "variant", name, 0);
    wb_json_field_string(stdout, "api", all[i]->api, 0);
    wb_json_field_string(stdout, "payload", all[i]->payload, 0);
    wb_json_field_string(stdout, "baseline", all[i]->baseline, 0);
    wb_json_field_number(stdout, "element_bytes", (double)all[i]->element_bytes, 0);
    wb_json_field_number(stdout, "max_count", (double)all[i]->max_count, 1);
    fputs("}\n", stdout);
  }
}

/* MPI_Get_library_version may be called before MPI_Init, so --info needs no launcher. */
static void print_info(void) {
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0, version = 0, subversion = 0;
  MPI_Get_library_version(library, &length);
  MPI_Get_version(&version, &subversion);
  fputc('{', stdout);
  wb_json_field_string(stdout, "mpi_library_version", library, 0);
  char standard[16];
  snprintf(standard, sizeof standard, "%d.%d", version, subversion);
  wb_json_field_string(stdout, "mpi_standard", standard, 0);
  wb_json_field_string(stdout, "c_compiler", c_compiler(), 0);
  wb_json_field_string(stdout, "cxx_compiler", wb_cxx_compiler(), 0);
#ifdef WB_HAVE_BOOST
  wb_json_field_string(stdout, "boost", wb_boost_version(), 0);
#else
  wb_json_field_string(stdout, "boost", NULL, 0);
#endif
#ifdef WB_HAVE_THINMPI
  fputs("\"thinmpi\": true}\n", stdout);
#else
  fputs("\"thinmpi\": false}\n", stdout);
#endif
}

/* Reads the options after argv[0]; returns 0 on a usage error (--jobs with --variants or
 * --counts, or neither --jobs nor --variants). */
static int parse(int argc, char** argv, wb_run_options* options) {
  const wb_arg extra[] = {{"--counts", WB_ARG_TEXT, &options->counts},
                          {"--jobs", WB_ARG_TEXT, &options->jobs}};
  options->timing.variants = ""; /* --jobs names each job's variants instead */
  if (!wb_parse_timing(argc, argv, &options->timing, extra, 2)) return 0;
  int variants = *options->timing.variants != '\0';
  return options->jobs ? !variants && !options->counts : variants;
}

/* The communicator of this rank's pair: the world at 2 ranks; wb_node splits an even number of
 * ranks into pairs. MPI_COMM_NULL when the rank count does not fit. */
static MPI_Comm pair_of_ranks(void) {
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size == 2) return MPI_COMM_WORLD;
#ifdef WB_NODE
  MPI_Comm pair = MPI_COMM_NULL;
  if (size % 2 == 0) MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
  return pair;
#else
  return MPI_COMM_NULL;
#endif
}

/* Runs the measurement of one count; returns the exit status. */
static int measure_count(const wb_run_options* options) {
  const wb_variant* selected[WB_MAX_VARIANTS];
  size_t n = wb_select_variants(options, selected);
  if (n == 0) return 2;
  int wrong = options->timing.instructions > 0 || options->timing.audit > 0
                  ? wb_run_windows(options, selected, n)
                  : wb_run_blocks(options, selected, n);
  if (wrong) fputs("wb_kernels: a payload did not verify\n", stderr);
  return wrong ? 3 : 0;
}

/* Runs each job of --jobs ("N:NAMES;...") in turn; returns the exit status of the first that
 * failed. */
static int measure_jobs(wb_run_options* options) {
  for (const char* next = options->jobs; *next;) {
    char* end = NULL;
    options->timing.count = (size_t)strtoul(next, &end, 10);
    size_t length = strcspn(end, ";");
    if (options->timing.count == 0 || *end != ':' || length < 2)
      return fputs("wb_kernels: --jobs wants N:NAMES;N:NAMES;...\n", stderr), 2;
    char* names = malloc(length);
    if (!names) return fputs("wb_kernels: out of memory\n", stderr), 2;
    memcpy(names, end + 1, length - 1);
    names[length - 1] = '\0';
    options->timing.variants = names;
    int status = measure_count(options);
    free(names);
    if (status != 0) return status;
    next = end[length] ? end + length + 1 : end + length;
  }
  return 0;
}

/* Runs the measurement that the options ask for: --variants at --count, at each of --counts in
 * turn, or each of --jobs; returns the exit status of the first that failed. */
static int measure(wb_run_options* options) {
  options->pair = pair_of_ranks();
  if (options->pair == MPI_COMM_NULL)
    return fputs("wb_kernels: run me with exactly 2 ranks (wb_node: an even number)\n", stderr), 2;
  if (options->jobs) return measure_jobs(options);
  if (!options->counts) return measure_count(options);
  long blocks = options->timing.blocks;
  for (const char* next = options->counts; *next;) {
    char* end = NULL;
    options->timing.count = (size_t)strtoul(next, &end, 10);
    options->timing.iterations = *end == ':' ? strtol(end + 1, &end, 10) : 0;
    if (options->timing.count == 0 || options->timing.iterations < 1 || (*end && *end != ','))
      return fputs("wb_kernels: --counts wants N:I,N:I,...\n", stderr), 2;
    options->timing.warmup = options->timing.iterations / 10;
    options->timing.blocks =
        blocks < options->timing.iterations ? blocks : options->timing.iterations;
    int status = measure_count(options);
    if (status != 0) return status;
    next = *end ? end + 1 : end;
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "--list") == 0) return print_list(), 0;
  if (argc == 2 && strcmp(argv[1], "--info") == 0) return print_info(), 0;
  wb_run_options options = {{NULL, 1, 10000, 1000, 10, 0, 0}, NULL, NULL, MPI_COMM_NULL};
  if (!parse(argc, argv, &options)) return fputs(usage, stderr), 2;
  MPI_Init(&argc, &argv);
  int status = measure(&options);
  fflush(stdout);
  if (status != 0) MPI_Abort(MPI_COMM_WORLD, status);
  MPI_Finalize();
  return status;
}
