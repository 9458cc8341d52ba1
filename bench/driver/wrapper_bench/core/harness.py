"""The multi-rank harness (bench/harness/coll_harness.c and the mpi4py kernels beside it), on
which the collectives, neighbors and rma suites run and whose collectives the instruction counts
run too: its builds (from a preset's manifest), which launches to make (a suite's Plan), and
making them. harness_cells.py turns their records into cells, harness_run.py runs a suite.

Each launch runs one harness (bench/harness/coll_harness.c, or the mpi4py collectives kernel)
on 2 or 4 ranks at one size, with every variant interleaved in blocks, so that each ratio to C is
taken inside one process. A variant's figure for one process is the low decile of its blocks
(each block: the OSU average per call, the maximum over ranks), its ratio the quotient of two such
figures from the same process; cells keep the median (and spread) over processes.
"""

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from . import placement
from .detect import binding_flags, json_lines, read_json
from .runner import ROOT_ENV, env_flags

MPI4PY_KERNELS = Path(__file__).resolve().parents[4] / "bench" / "kernels" / "mpi4py"
MPI4PY_KERNEL = MPI4PY_KERNELS / "mpi4py_coll.py"  # the collectives' (neighbors, rma: their own)
RANKS = (2, 4)
COLL_BYTES = (4, 32, 256, 4096, 65536, 1048576)
PROGRAM_COUNTS = (4096, 65536)  # elements per rank of the programs (sample sort, BFS)
SMOKE_PROGRAM_COUNT = 512
AUDIT_CALLS = 20
# Oversubscribed launches are sized by a probe: MPICH 4.0's ch4:ucx ranks busy-poll without
# yielding, so on 2 cores each 4-rank collective (and barrier) waits for descheduled ranks'
# timeslices (measured: ~19 ms for a 4 B MPI_Allreduce, against ~0.1 ms on Open MPI, which
# yields when oversubscribed); at the quick counts one launch would outlast its 600 s timeout.
PROBE_VARIANT, PROBE_CALLS = "c/allreduce/sum", 20
LAUNCH_BUDGET_S, MIN_CALLS = 120, 20
# Rank counts above the machine's cores are timed only when asked for (--ranks, or --full): the
# ranks then share cores, and MPICH's wait for each other's timeslices (the probe above).
ASK_FOR_RANKS = "--ranks 2,4 (or --full)"
# The checked mode (thinmpi built with THINMPI_CHECKED_COLLECTIVES=1): its variants are the
# unchecked ones' calls, each also compared with that call in the same process.
CHECKED_API, UNCHECKED_API = "thinmpi-checked", "thinmpi"


@dataclass(frozen=True)
class CollCounts:
    """Calls per launch at small sizes (scaled down with size), blocks and repetitions."""

    iterations: int
    blocks: int
    reps: int
    osu_reps: int = 0  # processes of each of OSU's own launches (0: reps)


# The quick run starts each of OSU's collective and one-sided programs once per size (it
# averages its own 1,000 calls; they were over half the suite's launches): --full three times.
COUNTS = {"full": CollCounts(2000, 20, 3), "quick": CollCounts(1000, 20, 2, 1),
          "smoke": CollCounts(40, 2, 1)}


# The collectives suite makes five times the calls up to 64 B (SHORT_BYTES). A call there takes
# about a microsecond, so a block of the quick run's 50 calls lasted some 50 us; such blocks of
# one process spread 2x (0.40-0.85 us a 4 B MPI_Bcast on Open MPI 4.1.4), and the low decile of
# 20 moved a 4 B ratio by 10 % with where the variant stood in the process: thinmpi's bcast
# 1.08x C and MPL's 0.93x in the bench's order, 0.96x and 1.10x with the two swapped (6 launches
# each). With 250 calls a block both were within 1 % of C in either order (docs/bench.md, "Calls
# per launch"). The neighbors' 4 B calls take several microseconds; there 5x did not narrow them.
SHORT_BYTES, COLL_SHORT_SCALE = 64, 5


def iterations_at(base, size_bytes, ranks, short_scale=1):
    """OSU's rule (fewer calls for large messages), `short_scale` times the calls up to
    SHORT_BYTES, and fewer on oversubscribed ranks."""
    if size_bytes <= SHORT_BYTES:
        calls = base * short_scale
    else:
        calls = base // (1 if size_bytes <= 4096 else 5 if size_bytes <= 65536 else 25)
    return max(20, calls // (2 if ranks > 2 else 1))


@dataclass
class CollBuild:
    """One collectives harness (an MPI x compiler preset) or the mpi4py kernel of an MPI."""

    mpi: str
    compiler: str
    mpiexec: str
    program: list
    variants: list  # --list records
    audit_library: str = ""
    env: dict = field(default_factory=dict)


@dataclass
class CollJob:
    """One launch: `variants` on `ranks` ranks, `count` ints each (audit: calls counted)."""

    build: CollBuild
    ranks: int
    count: int
    variants: tuple
    iterations: int
    blocks: int
    audit: bool = False
    suite: str = "collectives"  # or "neighbors": the same harness, other variants
    part: str = ""  # a second launch of one size (the rma suite's bandwidth forms), named

    @property
    def key(self):
        """A readable name for progress lines and failures."""
        kind = "audit" if self.audit else "timed"
        return (f"{self.suite}/{kind}/{self.build.mpi}-{self.build.compiler}/np{self.ranks}/"
                f"n{self.count}" + (f"/{self.part}" if self.part else ""))


@dataclass(frozen=True)
class Plan:
    """What one suite of this harness runs: its sizes (bytes per rank or per neighbour), its
    programs' counts (full and smoke), and the variant that probes oversubscribed ranks."""

    suite: str
    sizes: tuple
    program_counts: tuple
    smoke_program_count: int
    probe_variant: str
    quick_sizes: tuple = None  # the quick run's sizes (None: all of `sizes`)
    short_scale: int = 1  # calls up to SHORT_BYTES, times the base (iterations_at)

    def calls(self, base, size_bytes, ranks):
        """Calls per launch at a size: iterations_at with this suite's short_scale."""
        return iterations_at(base, size_bytes, ranks, self.short_scale)

    def sizes_for(self, mode, asked=None):
        """The sizes a run times: `asked` (--sizes), else the quick run's, else all."""
        return asked or (self.quick_sizes if mode == "quick" and self.quick_sizes else
                         self.sizes)


# The quick run leaves out 32 B and 256 B (between 4 B and 4 KiB the collectives cost what their
# latency costs: the launches are most of the suite's time); --full and --sizes run them.
QUICK_COLL_BYTES = (4, 4096, 65536, 1048576)
PLAN = Plan("collectives", COLL_BYTES, PROGRAM_COUNTS, SMOKE_PROGRAM_COUNT, PROBE_VARIANT,
            QUICK_COLL_BYTES, COLL_SHORT_SCALE)


def read_manifest(build_dir, name="wb_coll.json"):
    """wb_coll.json (or another harness's manifest) of a build folder, or None."""
    return read_json(Path(build_dir) / "bench" / name)


def harness_build(mpi, compiler, manifest):
    """A CollBuild from a wb_coll.json, with the variants its harness lists."""
    listed = subprocess.run([manifest["harness"], "--list"], capture_output=True, text=True,
                            timeout=60)
    return CollBuild(mpi, compiler, manifest["mpiexec"], [manifest["harness"]],
                     json_lines(listed.stdout), manifest.get("audit_library", ""))


def with_c_baselines(variants):
    """The C baselines that `variants` name (as --list records, first), then `variants`: the
    mpi4py kernel runs its C baselines from libwb_ckernels in the same process."""
    baselines = dict.fromkeys(v["baseline"] for v in variants if v.get("baseline"))
    return [{"variant": name, "api": "c", "op": name.split("/")[1], "form": name.split("/")[2],
             "baseline": None, "program": False} for name in baselines] + list(variants)


def mpi4py_build(mpi, python, env, manifest, kernel=MPI4PY_KERNEL):
    """A CollBuild of the mpi4py collectives kernel: `python` (whose mpi4py links `mpi`, found by
    the point-to-point suite, with its environment) and the C baselines of the preset whose
    wb_coll.json is `manifest`; None when that preset's libwb_ckernels has no collectives."""
    library = manifest.get("c_kernels_library")
    if not library:
        return None
    listed = subprocess.run([python, str(kernel), "--list"], capture_output=True, text=True,
                            timeout=60, env=dict(os.environ, **env))
    return CollBuild(mpi, "python", manifest["mpiexec"],
                     [python, str(kernel), "--c-kernels", library],
                     with_c_baselines(json_lines(listed.stdout)),
                     manifest.get("audit_library", ""), dict(env))


def unchecked_of(variant):
    """The unchecked thinmpi variant of a thinmpi-checked one (the same call), else None."""
    api, _, rest = variant.partition("/")
    return f"{UNCHECKED_API}/{rest}" if api == CHECKED_API else None


def api_family(api):
    """The API a variant's api belongs to for --api: thinmpi-checked is thinmpi's."""
    return UNCHECKED_API if api == CHECKED_API else api


def _kept(build, api_filter):
    return [v["variant"] for v in build.variants
            if api_filter is None or v["api"] == "c" or api_family(v["api"]) in api_filter]


def usable_cores():
    """The cores this process may run on (its affinity), which the ranks of a launch share."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def rank_counts(asked, mode, cores):
    """The rank counts to time and those left out, [(ranks, why)]: the ones asked for (--ranks)
    as given; with --full all of RANKS; else those that fit the cores (smoke: the first)."""
    if asked:
        return tuple(asked), []
    if mode in ("full", "smoke"):
        return (RANKS if mode == "full" else RANKS[:1]), []
    fitting = tuple(r for r in RANKS if r <= cores) or RANKS[:1]
    return fitting, [(r, f"{r} ranks on {cores} cores would share them (oversubscribed: "
                         "MPICH's ranks busy-poll and wait for each other's timeslices, "
                         "milliseconds per call); ask for them with " + ASK_FOR_RANKS)
                     for r in RANKS if r not in fitting]


def jobs_for(build, mode, sizes=None, api_filter=None, plan=PLAN, ranks=RANKS):
    """The timed launches of one build over `ranks` and sizes, then one audit per rank count
    (every count of RANKS: counting calls does not suffer from shared cores)."""
    counts, jobs, suite = COUNTS[mode], [], plan.suite
    sizes = sizes or plan.sizes
    timed_ranks, audit_ranks = tuple(ranks), tuple(sorted({*RANKS, *ranks}))
    if mode == "smoke":  # make test: one size, the smallest programs, 2 ranks (ctest has 4)
        sizes, timed_ranks, audit_ranks = sizes[:1], timed_ranks[:1], timed_ranks[:1]
    names = _kept(build, api_filter)
    collectives = tuple(n for n in names if not _is_program(build, n))
    programs = tuple(n for n in names if _is_program(build, n))
    for ranks in audit_ranks:
        for size in sizes if ranks in timed_ranks else ():
            iterations = plan.calls(counts.iterations, size, ranks)
            jobs.append(CollJob(build, ranks, max(1, size // 4), collectives, iterations,
                                min(counts.blocks, iterations), suite=suite))
        for count in (plan.smoke_program_count,) if mode == "smoke" else plan.program_counts:
            if programs and ranks in timed_ranks:
                iterations = max(10, counts.iterations // 50)
                jobs.append(CollJob(build, ranks, count, programs, iterations,
                                    min(counts.blocks, iterations), suite=suite))
        jobs.append(CollJob(build, ranks, 8, collectives + programs, AUDIT_CALLS, 1, True,
                            suite))
    return [j for j in jobs if j.variants]


def _is_program(build, name):
    return any(v["variant"] == name and v.get("program") for v in build.variants)


def is_program_job(job):
    """True for a launch of the programs (sample sort, BFS), whose calls are not one collective."""
    return all(_is_program(job.build, name) for name in job.variants)


def command(job, audit_path=None):
    """The launcher command line of a job (2 ranks bound to cores; 4 oversubscribed)."""
    build = job.build
    flags = ["-n", str(job.ranks)]
    if build.mpi == "openmpi":
        flags += ["--oversubscribe"] if job.ranks > 2 else binding_flags(build.mpi)
    elif job.ranks <= 2:
        flags += binding_flags(build.mpi)
    if audit_path:
        env = {"LD_PRELOAD": build.audit_library, "WB_AUDIT_OUT": audit_path}
    else:
        env = placement.rank_env(build.audit_library)
    flags += env_flags(build.mpi, env)
    arguments = ["--variants", ",".join(job.variants), "--count", str(job.count),
                 "--warmup", str(max(2, job.iterations // 10))]
    arguments += ["--audit", str(job.iterations)] if job.audit else \
        ["--iterations", str(job.iterations), "--blocks", str(job.blocks)]
    return [build.mpiexec, *flags, *build.program, *arguments]


def launch(job, rep, timeout=600):
    """Runs a job once: (records, audit lines, error or None)."""
    audit_path = f"/tmp/wb_coll_audit_{os.getpid()}.jsonl" if job.audit else None
    env = dict(os.environ, **ROOT_ENV, **job.build.env)
    try:
        result = subprocess.run(command(job, audit_path), capture_output=True, text=True,
                                env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], [], f"timed out after {timeout} s"
    audit_lines = []
    if audit_path and os.path.exists(audit_path):
        audit_lines = json_lines(Path(audit_path).read_text())
        os.unlink(audit_path)
    records = json_lines(result.stdout)
    for record in records:
        record.update(mpi=job.build.mpi, compiler=job.build.compiler, rep=rep, job=job.key)
    if result.returncode != 0 or len(records) != len(job.variants):
        lines = (result.stderr or "").strip().splitlines()[-3:]
        return records, audit_lines, "; ".join(lines) or f"exit status {result.returncode}"
    return records, audit_lines, None


def probe_job(build, ranks, variant=PROBE_VARIANT):
    """A short launch of `variant` at 4 B on `ranks` ranks: what one call costs there."""
    return CollJob(build, ranks, 1, (variant,), PROBE_CALLS, 1)


def launch_seconds(job, us_per_call):
    """The time a timed launch takes at `us_per_call` per call and per barrier."""
    warmup = max(2, job.iterations // 10)
    return len(job.variants) * (warmup + 2 * job.iterations) * us_per_call * 1e-6


def fit_to_budget(job, us_per_call, budget=LAUNCH_BUDGET_S):
    """`job` with its calls cut (down to MIN_CALLS) so that its launch fits `budget` seconds at
    the probed cost per call; the job itself when it fits already."""
    if job.audit or launch_seconds(job, us_per_call) <= budget:
        return job
    per_call = len(job.variants) * 2.2 * us_per_call * 1e-6
    iterations = max(MIN_CALLS, min(job.iterations, int(budget / per_call)))
    return CollJob(job.build, job.ranks, job.count, job.variants, iterations,
                   min(job.blocks, iterations), suite=job.suite)
