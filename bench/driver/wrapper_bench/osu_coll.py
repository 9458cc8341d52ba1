"""OSU's own collective benchmarks beside the collectives suite: osu_bcast, osu_allreduce, ...
from --osu-dir (or PATH), each at 2 ranks under the launcher and binding of the MPI it links
(checked with ldd), one launch per collective and size placed right after the gcc harness's
launch of that size, so OSU and the C cells it is compared with run interleaved.

What they are made to measure: the harness's call on the same bytes. OSU's `-T mpi_int` (its
default MPI_CHAR makes osu_allreduce sum four times as many elements, which MPICH does more
slowly), the harness's calls and warm-up per launch (`-i`, `-x`), and OSU's "size" read as the
harness reads a count: per rank, per destination for alltoall(v), but for
osu_reduce_scatter_block the whole send buffer (the harness's count is one rank's block, so OSU
runs at ranks x bytes). OSU prints the average over ranks of each rank's average; with `-f` also
the minimum and the maximum: the records' `us` is the maximum, the harness's figure."""

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import collectives
from .detect import binding_flags, linked_mpi
from .runner import ROOT_ENV

# harness op -> (OSU program, the C variant of the harness that makes the same call)
OPS = {"bcast": ("osu_bcast", "c/bcast/builtin"),
       "allreduce": ("osu_allreduce", "c/allreduce/sum"),
       "allgather": ("osu_allgather", "c/allgather/builtin"),
       "allgatherv": ("osu_allgatherv", "c/allgatherv/counts_given"),
       "alltoall": ("osu_alltoall", "c/alltoall/builtin"),
       "alltoallv": ("osu_alltoallv", "c/alltoallv/counts_given"),
       "reduce_scatter_block": ("osu_reduce_scatter_block", "c/reduce_scatter_block/sum")}
RANKS = 2  # beside the bound 2-rank cells (4 ranks share 2 cores: the scheduler, not MPI)
COMPILER = "osu"
HEADER = re.compile(r"^#\s*OSU MPI.*?(\S+) Latency Test\s*(v\S+)?", re.IGNORECASE)
DATATYPE = re.compile(r"^#\s*Datatype:\s*(\w+)")
ROW = re.compile(r"^\s*\d+(\s+[0-9.]+)+\s*$")


def parse_output(text):
    """{"version", "datatype", "rows": [{"size", "avg", "min", "max", "p50"}]} of an OSU
    collective benchmark's output: `-f` adds the minimum and maximum over ranks (and the
    iterations), `-z` the percentiles of the per-call times (P50, P90, P99); what a run did not
    print is None."""
    parsed = {"version": None, "datatype": None, "rows": []}
    for line in (text or "").splitlines():
        header, datatype = HEADER.match(line.strip()), DATATYPE.match(line.strip())
        if header:
            parsed["version"] = header.group(2)
        elif datatype:
            parsed["datatype"] = datatype.group(1)
        elif ROW.match(line):
            fields = line.split()
            figure = [float(f) for f in fields[1:]] + [None] * 6
            parsed["rows"].append({"size": int(fields[0]), "avg": figure[0], "min": figure[1],
                                   "max": figure[2], "p50": figure[4]})
    return parsed


def osu_size(op, bytes_per_rank, ranks):
    """OSU's -m size for the harness's bytes per rank (reduce_scatter_block: the whole buffer)."""
    return bytes_per_rank * ranks if op == "reduce_scatter_block" else bytes_per_rank


@dataclass
class OsuCollJob:
    """One launch of an OSU collective benchmark at one size; quacks like a CollJob for the
    collectives suite's loop (build.mpi, build.compiler, ranks, audit, key)."""

    build: collectives.CollBuild
    op: str
    program: str
    count: int  # ints per rank, as the harness's records
    iterations: int
    ranks: int = RANKS
    audit: bool = False
    suite: str = "collectives"

    @property
    def key(self):
        return f"{self.suite}/osu/{self.build.mpi}/np{self.ranks}/{Path(self.program).name}/" \
            f"n{self.count}"

    @property
    def warmup(self):
        return max(2, self.iterations // 10)  # as collectives.command gives the harness


def find_programs(folders):
    """{program name: path} of the OSU collective benchmarks under `folders` (searched
    recursively, as OSU's build and install trees nest them), else on PATH."""
    found = {}
    for name, _ in OPS.values():
        for folder in folders:
            hits = [p for p in sorted(Path(folder).rglob(name)) if p.is_file()
                    and os.access(p, os.X_OK)]
            if hits:
                found[name] = str(hits[0])
                break
        if name not in found and not folders and shutil.which(name):
            found[name] = shutil.which(name)
    return found


def builds(setup, mpis, osu_dir_values):
    """[(CollBuild of OSU's programs for an MPI, None) or (None, why)]: the programs of each MPI
    that link it; the builds list the programs as variants."""
    from .osu import split_dirs  # the same --osu-dir values as osu_latency's

    named, plain = split_dirs(osu_dir_values)
    found = []
    for mpi in mpis:
        folders = [named[mpi]] if mpi in named else plain
        programs = find_programs(folders) if (folders or not osu_dir_values) else {}
        linking = {n: p for n, p in programs.items() if linked_mpi(p) == mpi}
        if not linking:
            found.append((None, f"{mpi}: OSU collective benchmarks: " +
                          ("none linking it under " + ", ".join(folders) if programs else
                           "none found (bench/setup/build-osu.sh builds them; --osu-dir "
                           f"{mpi}=DIR)")))
            continue
        mpiexec = next((m["mpiexec"] for (m_mpi, _), m in setup.manifests.items()
                        if m_mpi == mpi), {"openmpi": "mpirun.openmpi",
                                           "mpich": "mpiexec.mpich"}[mpi])
        variants = [{"variant": f"osu/{op}/{name}", "api": "osu", "op": op, "form": name,
                     "baseline": None, "program": linking[name], "compared_with": c_variant}
                    for op, (name, c_variant) in OPS.items() if name in linking]
        found.append((collectives.CollBuild(mpi, COMPILER, mpiexec, [], variants), None))
    return found


def jobs_for(build, mode, sizes, harness_variants):
    """One job per OSU program whose C variant the harness runs, and size, at 2 ranks."""
    counts = collectives.COUNTS[mode]
    return [OsuCollJob(build, v["op"], v["program"], max(1, size // 4),
                       collectives.iterations_at(counts.iterations, size, RANKS))
            for size in sizes for v in build.variants if v["compared_with"] in harness_variants]


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


def add_jobs(jobs, osu_builds, mode, sizes, part):
    """The suite's `jobs` with OSU's launches interleaved (none in the smoke run); the reasons
    for each MPI without OSU programs go to part["missing"]."""
    if mode == "smoke" or not osu_builds:
        return jobs
    harness_variants = {name for j in jobs if not is_osu(j) for name in j.variants}
    extra = []
    for build, why in osu_builds:
        if build is None:
            part["missing"].append(why)
        else:
            extra += jobs_for(build, mode, sizes, harness_variants)
    return interleave(jobs, extra)


def is_osu(job):
    """True for a launch of OSU's programs."""
    return isinstance(job, OsuCollJob)


def command(job):
    """The launcher command line: 2 ranks bound to cores, OSU's options for one size."""
    flags = ["-n", str(job.ranks), *binding_flags(job.build.mpi)]
    size = osu_size(job.op, job.count * 4, job.ranks)
    return [job.build.mpiexec, *flags, job.program, "-m", f"{size}:{size}", "-i",
            str(job.iterations), "-x", str(job.warmup), "-T", "mpi_int", "-f", "-z"]


def records_from(parsed, job, rep):
    """Records like the harness's of one OSU launch (one figure per process: no blocks): `us`
    is the slowest rank's average (the harness's definition), with OSU's average over ranks and
    the median call (P50, which a descheduled call does not move) beside it."""
    size = osu_size(job.op, job.count * 4, job.ranks)
    name = Path(job.program).name
    return [{"variant": f"osu/{job.op}/{name}", "api": "osu", "op": job.op, "form": name,
             "baseline": None, "compared_with": OPS[job.op][1], "ranks": job.ranks,
             "count": job.count, "bytes": job.count * 4, "osu_size": size,
             "iterations": job.iterations, "warmup": job.warmup, "blocks": 1,
             "us": row["max"] if row["max"] is not None else row["avg"],
             "osu_avg_us": row["avg"], "osu_min_us": row["min"], "osu_p50_us": row["p50"],
             "osu_datatype": parsed["datatype"], "osu_version": parsed["version"],
             "verified": True, "mpi": job.build.mpi, "compiler": COMPILER, "rep": rep,
             "job": job.key}
            for row in parsed["rows"] if row["size"] == size]


def launch(job, rep, timeout=600):
    """Runs an OSU job once: (records, [], error or None), as collectives.launch."""
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


def table(part, compiler="gcc"):
    """OSU's collective benchmarks beside the harness's C cells (2 ranks) of doc["collectives"]:
    one row per MPI, collective and size; None when no OSU program ran."""
    import statistics

    from .tables import MPI_NAMES, MPI_ORDER, Table

    cells = part.get("cells", [])
    extra = {}  # (mpi, variant, bytes, field) -> [per process]
    for record in part.get("records", []):
        for name in ("osu_avg_us", "osu_p50_us"):
            if record["compiler"] == COMPILER and record.get(name) is not None:
                extra.setdefault((record["mpi"], record["variant"], record["bytes"], name),
                                 []).append(record[name])
    osu_cells = [c for c in cells if c["compiler"] == COMPILER and c["ranks"] == RANKS]
    if not osu_cells:
        return None
    index = {(c["mpi"], c["compiler"], c["variant"], c["bytes"]): c for c in cells
             if c["ranks"] == RANKS}
    order = {mpi: i for i, mpi in enumerate(MPI_ORDER)}
    rows = []
    for o in sorted(osu_cells, key=lambda c: (order.get(c["mpi"], 9), list(OPS).index(c["op"]),
                                              c["bytes"])):
        harness = index.get((o["mpi"], compiler, OPS[o["op"]][1], o["bytes"]))
        c_us = harness["us"]["median"] if harness else None
        figures = [o["us"]["median"]] + [
            statistics.median(extra[key]) if key in extra else None
            for key in ((o["mpi"], o["variant"], o["bytes"], n) for n in ("osu_avg_us",
                                                                          "osu_p50_us"))]
        rows.append([o["op"], MPI_NAMES.get(o["mpi"], o["mpi"]), _size(o["bytes"])] +
                    [_us(f) for f in (*figures, c_us)] +
                    [_over(c_us, figures[0]), _over(c_us, figures[2])])
    return Table("coll_osu", f"OSU's collective benchmarks beside the C cells (2 ranks, "
                 f"{compiler})", ["collective", "MPI", "bytes per rank", "OSU max (µs)",
                                  "OSU avg (µs)", "OSU P50 (µs)", "C harness (µs)",
                                  "C/OSU max", "C/OSU P50"], rows,
                 "OSU 7.4's osu_<collective> -T mpi_int -f -z with the harness's calls and "
                 "warm-up, launched right after the harness's launch of the same size (same "
                 "launcher and binding); osu_reduce_scatter_block at ranks x the bytes (its size "
                 "is the whole send buffer). OSU max: the slowest rank's average per call, the "
                 "harness's definition (OSU's default column is the average over ranks); OSU "
                 "P50: the median call (of the ranks' average), which a descheduled call does "
                 "not move, where the averages take every one; C harness: the low decile of its "
                 "blocks (docs/bench.md). Medians of separate processes.")


def _us(value):
    return "—" if value is None else f"{value:.2f}"


def _over(c_us, osu_us):
    return f"{c_us / osu_us:.2f}x" if c_us and osu_us else "—"


def _size(bytes_):
    return f"{bytes_ // 1048576} MiB" if bytes_ >= 1048576 else \
        f"{bytes_ // 1024} KiB" if bytes_ >= 1024 else f"{bytes_} B"
