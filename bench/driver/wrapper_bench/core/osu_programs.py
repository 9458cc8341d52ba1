"""OSU's own programs beside a suite of the multi-rank harness (core/harness.py): each at 2
ranks under the launcher and binding of the MPI it links (checked with ldd), from --osu-dir (or
PATH), one launch per program and size placed right after the gcc harness's launch of that size,
so OSU and the C cells it is compared with run interleaved. The collectives suite runs OSU's
collective benchmarks through it (suites/collectives/osu_coll.py), the rma suite OSU's one-sided
latency tests (suites/rma/rma_suite.py): a Benchmark says which program, with which options,
beside which C variant, at which size, and how its figure converts to one harness call.

OSU's "size" is read as the harness reads a count (per rank; a Benchmark says where it is the
whole buffer, or one int whatever the size). OSU prints the average over ranks of each rank's
average; with `-f` also the minimum and the maximum: the records' `us` is the maximum, the
harness's figure."""

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import harness
from .detect import binding_flags, linked_mpi
from .osu import split_dirs
from .runner import ROOT_ENV

RANKS = 2  # beside the bound 2-rank cells (4 ranks share 2 cores: the scheduler, not MPI)
COMPILER = "osu"
HEADER = re.compile(r"^#\s*OSU MPI.*?(\S+) Latency Test\s*(v\S+)?", re.IGNORECASE)
DATATYPE = re.compile(r"^#\s*Datatype:\s*(\w+)")
ROW = re.compile(r"^\s*\d+(\s+[0-9.]+)+\s*$")
COLUMNS = re.compile(r"^#\s*Size\s{2,}(.*)$")
COLLECTIVE_OPTIONS = ("-T", "mpi_int", "-f", "-z")


@dataclass(frozen=True)
class Benchmark:
    """One OSU program as a suite runs it beside the C variant making the same calls."""

    program: str  # e.g. osu_allreduce
    compared_with: str  # the harness's C variant
    op: str  # the records' op and form: variant osu/<op>/<form>
    form: str
    options: tuple = COLLECTIVE_OPTIONS  # after -m, -i, -x
    label: str = ""  # in the job's key where one program runs with several options
    whole_buffer: bool = False  # OSU's size is ranks x the harness's bytes per rank
    fixed_size: int = 0  # the size OSU prints whatever the harness's (one int: fetch_and_op,
    # compare_and_swap)
    window: int = 0  # OSU's -m where it is not that size (the atomics: their window's bytes)
    per_call: int = 1  # OSU figures x this = one harness call (its fence tests print half
    # a round trip)
    p50_per_call: int = 0  # the same for -z's percentiles where they differ (0: per_call;
    # osu_acc_latency -s fence halves its average but not its percentiles)

    @property
    def variant(self):
        return f"osu/{self.op}/{self.form}"

    def size(self, bytes_per_rank, ranks):
        """OSU's -m size for the harness's bytes per rank."""
        return self.fixed_size or (bytes_per_rank * ranks if self.whole_buffer
                                   else bytes_per_rank)


def _column_names(heading):
    """The row fields of a '# Size  Avg Latency(us)  Min Latency(us) ...' line: a collective
    prints Avg (Min, Max, Iterations with -f), a one-sided test one 'Latency (us)'; then the
    P50, P90, P99 of -z."""
    names = []
    for title in re.split(r"\s{2,}", heading.strip()):
        word = title.split()[0].lower()
        names.append({"min": "min", "max": "max", "iterations": "iterations", "p50": "p50",
                      "p90": "p90", "p99": "p99"}.get(word, "avg"))
    return names


def parse_output(text):
    """{"version", "datatype", "rows": [{"size", "avg", "min", "max", "p50"}]} of an OSU
    latency benchmark's output, its columns read from the '# Size ...' line (a collective's
    without one: Avg, Min, Max, Iterations, P50): `-f` adds the minimum and maximum over ranks
    (and the iterations), `-z` the percentiles of the per-call times (P50, P90, P99); a
    one-sided test prints one latency, read as the average; what a run did not print is None."""
    parsed = {"version": None, "datatype": None, "rows": []}
    names = ["avg", "min", "max", "iterations", "p50"]
    for line in (text or "").splitlines():
        header, datatype = HEADER.match(line.strip()), DATATYPE.match(line.strip())
        columns = COLUMNS.match(line.strip())
        if header:
            parsed["version"] = header.group(2)
        elif datatype:
            parsed["datatype"] = datatype.group(1)
        elif columns:
            names = _column_names(columns.group(1))
        elif ROW.match(line):
            fields = line.split()
            figure = dict(zip(names, (float(f) for f in fields[1:])))
            parsed["rows"].append({"size": int(fields[0]), **{
                name: figure.get(name) for name in ("avg", "min", "max", "p50")}})
    return parsed


@dataclass
class OsuCollJob:
    """One launch of an OSU collective benchmark at one size; quacks like a CollJob for the
    collectives suite's loop (build.mpi, build.compiler, ranks, audit, key)."""

    build: harness.CollBuild
    op: str
    program: str
    count: int  # ints per rank, as the harness's records
    iterations: int
    ranks: int = RANKS
    audit: bool = False
    suite: str = "collectives"
    benchmark: Benchmark = None  # the program, its options and sizes (builds() lists them)

    @property
    def spec(self):
        return self.benchmark

    @property
    def key(self):
        return f"{self.suite}/osu/{self.build.mpi}/np{self.ranks}/{Path(self.program).name}" \
            f"{self.spec.label}/n{self.count}"

    @property
    def size(self):
        """OSU's -m size."""
        return self.spec.size(self.count * 4, self.ranks)

    @property
    def warmup(self):
        return max(2, self.iterations // 10)  # as harness.command gives the harness


def find_programs(folders, names):
    """{program name: path} of the OSU programs `names` under `folders` (searched recursively,
    as OSU's build and install trees nest them), else on PATH."""
    found = {}
    for name in dict.fromkeys(names):
        for folder in folders:
            hits = [p for p in sorted(Path(folder).rglob(name)) if p.is_file()
                    and os.access(p, os.X_OK)]
            if hits:
                found[name] = str(hits[0])
                break
        if name not in found and not folders and shutil.which(name):
            found[name] = shutil.which(name)
    return found


def builds(setup, mpis, osu_dir_values, benchmarks, what):
    """[(CollBuild of OSU's programs for an MPI, None) or (None, why)]: the programs of each MPI
    that link it (`what` names them in the reasons); the builds list the `benchmarks`
    ({key: Benchmark}) as variants. --osu-dir's values are osu_latency's too."""
    named, plain = split_dirs(osu_dir_values)
    found = []
    for mpi in mpis:
        folders = [named[mpi]] if mpi in named else plain
        programs = find_programs(folders, [b.program for b in benchmarks.values()]) \
            if (folders or not osu_dir_values) else {}
        linking = {n: p for n, p in programs.items() if linked_mpi(p) == mpi}
        if not linking:
            found.append((None, f"{mpi}: OSU {what}: " +
                          ("none linking it under " + ", ".join(folders) if programs else
                           "none found (bench/setup/build-osu.sh builds them; --osu-dir "
                           f"{mpi}=DIR)")))
            continue
        mpiexec = next((m["mpiexec"] for (m_mpi, _), m in setup.manifests.items()
                        if m_mpi == mpi), {"openmpi": "mpirun.openmpi",
                                           "mpich": "mpiexec.mpich"}[mpi])
        variants = [{"variant": b.variant, "api": "osu", "op": op, "form": b.form,
                     "baseline": None, "program": linking[b.program],
                     "compared_with": b.compared_with, "benchmark": b}
                    for op, b in benchmarks.items() if b.program in linking]
        found.append((harness.CollBuild(mpi, COMPILER, mpiexec, [], variants), None))
    return found


def jobs_for(build, mode, sizes, harness_variants, iterations=None, suite="collectives"):
    """One job per OSU program whose C variant the harness runs, and size, at 2 ranks.
    `harness_variants`: C variants, or (C variant, count) where the harness runs a variant at
    some sizes only; `iterations(size)`: the harness's calls (by default the collectives
    suite's)."""
    counts = harness.COUNTS[mode]
    iterations = iterations or (lambda size: harness.PLAN.calls(counts.iterations, size, RANKS))
    return [OsuCollJob(build, v["op"], v["program"], max(1, size // 4), iterations(size),
                       suite=suite, benchmark=v.get("benchmark"))
            for size in sizes for v in build.variants
            if v["compared_with"] in harness_variants
            or (v["compared_with"], max(1, size // 4)) in harness_variants]


def interleave(jobs, osu_jobs):
    """`jobs` with each MPI's OSU jobs of a size right after the first 2-rank harness launch of
    that MPI and size (the gcc one where there is one); the rest at the end."""
    placed, ordered = set(), []
    harness = [j for j in jobs if j.ranks == RANKS and not j.audit]
    anchors = {}
    for job in sorted(harness, key=lambda j: j.build.compiler != "gcc"):
        anchors.setdefault((job.build.mpi, job.count), job)
    for job in jobs:
        ordered.append(job)
        if anchors.get((job.build.mpi, job.count)) is job:
            mine = [o for o in osu_jobs if (o.build.mpi, o.count) == (job.build.mpi, job.count)]
            ordered += mine
            placed.update(map(id, mine))
    return ordered + [o for o in osu_jobs if id(o) not in placed]


def add_jobs(jobs, osu_builds, mode, sizes, part, iterations=None, suite="collectives"):
    """The suite's `jobs` with OSU's launches interleaved (none in the smoke run), each beside a
    C variant the harness runs at that size; the reasons for each MPI without OSU programs go
    to part["missing"]. `iterations(size)`: the suite's calls per launch."""
    if mode == "smoke" or not osu_builds:
        return jobs
    harness_variants = {(name, j.count) for j in jobs if not is_osu(j) and not j.audit
                        for name in j.variants}
    extra = []
    for build, why in osu_builds:
        if build is None:
            part["missing"].append(why)
        else:
            extra += jobs_for(build, mode, sizes, harness_variants, iterations, suite)
    return interleave(jobs, extra)


def is_osu(job):
    """True for a launch of OSU's programs."""
    return isinstance(job, OsuCollJob)


def command(job):
    """The launcher command line: 2 ranks bound to cores, OSU's options for one size."""
    flags = ["-n", str(job.ranks), *binding_flags(job.build.mpi)]
    size = job.spec.window or job.size
    return [job.build.mpiexec, *flags, job.program, "-m", f"{size}:{size}", "-i",
            str(job.iterations), "-x", str(job.warmup), *job.spec.options]


def records_from(parsed, job, rep):
    """Records like the harness's of one OSU launch (one figure per process: no blocks): `us`
    is the slowest rank's average (the harness's definition), with OSU's average over ranks and
    the median call (P50, which a descheduled call does not move) beside it; each times the
    benchmark's per_call (OSU's fence tests print half the round trip the harness times)."""
    spec = job.spec

    def scaled(value, factor=spec.per_call):
        return None if value is None else value * factor

    return [{"variant": spec.variant, "api": "osu", "op": spec.op, "form": spec.form,
             "baseline": None, "compared_with": spec.compared_with, "ranks": job.ranks,
             "count": job.count, "bytes": job.count * 4, "osu_size": job.size,
             "osu_program": Path(job.program).name, "osu_options": list(spec.options),
             "iterations": job.iterations, "warmup": job.warmup, "blocks": 1,
             "us": scaled(row["max"] if row["max"] is not None else row["avg"]),
             "osu_avg_us": scaled(row["avg"]), "osu_min_us": scaled(row["min"]),
             "osu_p50_us": scaled(row["p50"], spec.p50_per_call or spec.per_call),
             "osu_per_call": spec.per_call,
             "osu_datatype": parsed["datatype"], "osu_version": parsed["version"],
             "verified": True, "mpi": job.build.mpi, "compiler": COMPILER, "rep": rep,
             "job": job.key}
            for row in parsed["rows"] if row["size"] == job.size]


def launch(job, rep, timeout=600):
    """Runs an OSU job once: (records, [], error or None), as harness.launch."""
    env = dict(os.environ, **ROOT_ENV)
    try:
        result = subprocess.run(command(job), capture_output=True, text=True, env=env,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], [], f"timed out after {timeout} s"
    records = records_from(parse_output(result.stdout), job, rep)
    if result.returncode != 0 or not records:
        lines = (result.stderr or result.stdout or "").strip().splitlines()[-3:]
        return records, [], "; ".join(lines) or f"exit status {result.returncode}"
    return records, [], None
