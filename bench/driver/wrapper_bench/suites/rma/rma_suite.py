"""The rma suite: one-sided communication on 2 ranks. Put, get and accumulate with a lock held
and a flush per operation (passive target), with fences (active target, a round trip per call)
and in bandwidth form (64 operations, one flush), fetch_and_op and compare_and_swap, and the
counter and histogram programs (examples/rma_*.cpp and their C versions in bench/programs);
thinmpi and mpi4py each against the same calls in C, inside one process.

It runs on the collectives harness built with the rma variants (wb_rma, manifest wb_rma.json;
bench/cmake/WbRma.cmake) and the mpi4py kernel mpi4py_rma.py, with the collectives suite's
launches and cells (core/harness.py, core/harness_cells.py); the harness times an RMA variant
as OSU's one-sided tests do (osu_put_latency: the calls back to back between two barriers). The
audit is kept per rank: in the passive-target forms rank 1 makes no call at all.

OSU's own one-sided latency tests run beside the gcc harness's launch of each size (the
machinery of core/osu_programs.py, with the benchmarks of OSU below): osu_put_latency,
osu_get_latency and osu_acc_latency with -s flush (lock + flush) and -s fence, osu_fop_latency
and osu_cas_latency with -s flush, all on an MPI_Win_allocate window (-w allocate), with the
harness's calls.
"""

import sys
from collections import defaultdict

from ...core import harness, harness_cells, harness_run, osu_programs
from ...core.osu_programs import Benchmark

MANIFEST = "wb_rma.json"
MPI4PY_KERNEL = harness.MPI4PY_KERNELS / "mpi4py_rma.py"
RMA_BYTES = (8, 4096, 65536, 1048576)  # per operation (osu_put_latency's sizes, a few of them)
# The quick run stops at 64 KiB: at 1 MiB the bandwidth forms (a window of 1 MiB operations per
# call; MPICH's accumulate takes 0.11 s a call) were over half the suite's time (185 of 345 s of
# timed calls in a quick run). --full and --sizes run 1 MiB.
QUICK_RMA_BYTES = RMA_BYTES[:3]
RANKS = 2
ATOMIC_OPS = ("fetch_and_op", "compare_and_swap")  # one int whatever the size: smallest job only
# Calls per launch at sizes up to 4 KiB, fewer above (one operation of 1 MiB is ~100 us); an RMA
# call costs a tenth of a collective's, so many more than the collectives suite makes (the quick
# run 5x its 1,000: its bandwidth forms, 27-54 us a call at 8 B, made 20,000 calls cost seconds).
CALLS = {"full": 50000, "quick": 5000, "smoke": 200}
MIN_CALLS = 100
PYTHON_SHARE = 10  # the mpi4py kernel makes a tenth of the calls: each costs it a microsecond
# or more, and its fences were milliseconds on the loaded 2-core machine (Open MPI 4.1.4 at
# mpi4py's MPI_THREAD_MULTIPLE)
PROGRAM_CALLS = {"full": 40, "quick": 10, "smoke": 2}  # each call runs a whole program
# A bandwidth call makes BANDWIDTH_OPS operations, so from BANDWIDTH_APART up it gets the calls of
# an operation that many times larger, in a launch of its own (C's and each library's together):
# MPICH 4.0.2 accumulates 64 KiB in about 600 us, so its bandwidth calls took 32-42 ms each, and
# their 312 calls a process 100 of a quick rma suite's 160 s (fresh clone at e3bf26f).
BANDWIDTH_OPS = 64
BANDWIDTH_APART = 65536
AUDIT_CALLS, AUDIT_COUNT = 20, 2  # the audit at 8 B


def _osu(program, op, form, sync, datatype=(), **kwargs):
    return Benchmark(program, f"c/{op}/{form}", op, form,
                     ("-w", "allocate", "-s", sync, *datatype, "-z"), f"-{sync}", **kwargs)


# OSU's one-sided latency tests beside the C variants making the same calls. Its fence tests
# time the harness's round trip (three fences, an operation from each rank) and print half of
# it (osu_acc_latency halves its average, not its percentiles); osu_put/get_latency move
# MPI_CHAR (no -T), the same bytes; the atomics print one int's row and get a 4 KiB window.
ATOMIC_WINDOW = 4096
OSU = {"put/lock_flush": _osu("osu_put_latency", "put", "lock_flush", "flush"),
       "put/fence": _osu("osu_put_latency", "put", "fence", "fence", per_call=2),
       "get/lock_flush": _osu("osu_get_latency", "get", "lock_flush", "flush"),
       "get/fence": _osu("osu_get_latency", "get", "fence", "fence", per_call=2),
       "accumulate/lock_flush": _osu("osu_acc_latency", "accumulate", "lock_flush", "flush",
                                     ("-T", "mpi_int")),
       "accumulate/fence": _osu("osu_acc_latency", "accumulate", "fence", "fence",
                                ("-T", "mpi_int"), per_call=2, p50_per_call=1),
       "fetch_and_op/lock_flush": _osu("osu_fop_latency", "fetch_and_op", "lock_flush", "flush",
                                       ("-T", "mpi_int"), fixed_size=4, window=ATOMIC_WINDOW),
       "compare_and_swap/lock_flush": _osu("osu_cas_latency", "compare_and_swap", "lock_flush",
                                           "flush", ("-T", "mpi_int"), fixed_size=4,
                                           window=ATOMIC_WINDOW)}


def find_builds(setup, options):
    """The rma harnesses of the presets the driver registered, and the mpi4py kernels;
    [(build or None, why)]."""
    return harness_run.harness_builds(setup, options, MANIFEST, "thinmpi rma kernel",
                                      MPI4PY_KERNEL)


def sizes_for(mode, asked=None):
    """The sizes a run times: `asked` (--sizes), else the quick run's, else all."""
    return asked or (QUICK_RMA_BYTES if mode == "quick" else RMA_BYTES)


def calls_at(base, size_bytes):
    """Calls per launch: `base` up to 4 KiB, then in proportion to the size."""
    return max(MIN_CALLS, base * 4096 // max(size_bytes, 4096))


def jobs_for(build, mode, sizes=None, api_filter=None):
    """The timed launches of one build (one per size, the atomics in the first, and from
    BANDWIDTH_APART up one more of the bandwidth forms with fewer calls; the programs in one
    more), then one audit launch; all on 2 ranks."""
    blocks = harness.COUNTS[mode].blocks
    sizes = [s for s in sizes_for(mode, sizes) if s >= 4] or [RMA_BYTES[0]]
    if mode == "smoke":
        sizes = sizes[:1]
    names = [v["variant"] for v in build.variants
             if api_filter is None or v["api"] == "c" or v["api"] in api_filter]
    programs = tuple(n for n in names if _is_program(build, n))
    operations = tuple(n for n in names if n not in programs)
    jobs = []
    for index, size in enumerate(sizes):
        chosen = tuple(n for n in operations if index == 0 or n.split("/")[1] not in ATOMIC_OPS)
        base = CALLS[mode] // (PYTHON_SHARE if build.compiler == "python" else 1)
        calls, apart = calls_at(base, size), calls_at(base, size * BANDWIDTH_OPS)
        bandwidth = tuple(n for n in chosen if n.split("/")[2] == "bandwidth"
                          and size >= BANDWIDTH_APART and apart != calls)
        for names, count, part in ((tuple(n for n in chosen if n not in bandwidth), calls, ""),
                                   (bandwidth, apart, "bandwidth")):  # dropped when empty
            jobs.append(harness.CollJob(build, RANKS, max(1, size // 4), names, count,
                                        min(blocks, count), suite="rma", part=part))
    calls = PROGRAM_CALLS[mode]
    jobs.append(harness.CollJob(build, RANKS, 1, programs, calls, min(blocks, calls),
                                suite="rma"))
    jobs.append(harness.CollJob(build, RANKS, AUDIT_COUNT, operations + programs,
                                AUDIT_CALLS, 1, True, "rma"))
    return [j for j in jobs if j.variants]


def osu_builds(setup, options):
    """OSU's one-sided tests of each MPI ([(build or None, why)]), unless --api leaves osu out."""
    if options.api is not None and "osu" not in options.api:
        return []
    return osu_programs.builds(setup, list(dict.fromkeys(m for m, _ in setup.manifests)),
                               getattr(options, "osu_dir", None), OSU, "one-sided latency tests")


def add_osu_jobs(jobs, setup, options, mode, part):
    """`jobs` with OSU's one-sided tests right after the gcc harness's launch of each size,
    beside the C variants it runs there, with its calls per launch."""
    sizes = [s for s in sizes_for(mode, options.sizes) if s >= 4] or [RMA_BYTES[0]]
    return osu_programs.add_jobs(jobs, osu_builds(setup, options), mode, sizes, part,
                                 lambda size: calls_at(CALLS[mode], size), "rma")


def _is_program(build, name):
    return any(v["variant"] == name and v.get("program") for v in build.variants)


def audit_rows(job, audit_lines):
    """MPI calls per call of each variant, per rank (rank 0 is the origin of the passive-target
    forms, where rank 1 makes no call)."""
    totals = defaultdict(lambda: defaultdict(float))
    for line in audit_lines:
        for call, n in line.get("calls", {}).items():
            totals[(line["label"], line["rank"])][call] += n / job.iterations
    return [{"mpi": job.build.mpi, "compiler": job.build.compiler, "ranks": job.ranks,
             "variant": label, "rank": rank, "calls": dict(sorted(calls.items()))}
            for (label, rank), calls in sorted(totals.items())]


def run(setup, options, mode):
    """Every rma job of the builds at hand; returns doc["rma"]."""
    part = {"ranks": [RANKS], "records": [], "audit": [], "failures": [], "missing": [],
            "notes": []}
    jobs = []
    for build, why in find_builds(setup, options):
        if build is None:
            part["missing"].append(why)
        elif options.compiler is None or build.compiler in (*options.compiler, "python"):
            jobs += jobs_for(build, mode, options.sizes, options.api)
    jobs = add_osu_jobs(jobs, setup, options, mode, part)
    reps, osu_reps = harness.COUNTS[mode].reps, harness.COUNTS[mode].osu_reps
    for number, job in enumerate(jobs, 1):
        ok = harness_run.run_job(job, reps, part, setup.failures, audit_rows, osu_reps)
        print(f"[rma {number}/{len(jobs)}] {'' if ok else 'FAILED '}{job.key}", file=sys.stderr)
    return recompute(part)


def recompute(part):
    """The cells of an rma part from its raw records (also for --render)."""
    return dict(part, cells=harness_cells.aggregate(part["records"]))
