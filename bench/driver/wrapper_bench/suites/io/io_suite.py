"""The io suite: MPI-IO from C, thinmpi::file and mpi4py's MPI.File side by side, with POSIX
pwrite/pread of the same bytes at the same offsets as the floor, on tmpfs (software only) and on
the disk, on the io harness (wb_io, manifest wb_io.json; bench/cmake/WbIo.cmake) and the mpi4py
io kernel (bench/kernels/mpi4py/mpi4py_io.py).

Each launch runs its variants at each of its sizes in interleaved blocks of one process, so
every ratio (thinmpi/C, mpi4py/C, C/POSIX) is taken inside one process. The forms: independent
write_at / read_at (every size in one launch), collective write_at_all / read_at_all of a
block-distributed 2D array through a subarray view (one launch per array size: the 64 MiB
arrays are 256 MiB of buffers), and the shared-pointer and ordered forms; then one audit launch
(libwb_audit) per build. Every file is checked and deleted by the kernels; the driver makes one
folder per file system and run and removes it afterwards.
"""

import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from ...core import placement, recheck
from ...core.compare import spread
from ...core.detect import json_lines, read_json
from ...core.runner import Launcher, run_as_root
from ...core.slow_mode import is_slow, machine_mode, slow_processes

MANIFEST = "wb_io.json"
MPI4PY_KERNEL = Path(__file__).resolve().parents[4] / "kernels" / "mpi4py" / "mpi4py_io.py"
RANKS = 2
KIB, MIB = 1024, 1024 * 1024
INDEPENDENT_BYTES = (8, 64, 4 * KIB, 64 * KIB, MIB)
COLLECTIVE_BYTES = (MIB, 8 * MIB, 64 * MIB)  # the whole array; each rank writes its share
QUICK_COLLECTIVE_BYTES = COLLECTIVE_BYTES[:2]
SHARED_BYTES = (64, 64 * KIB)
OPS = {"independent": ("write_at", "read_at"), "collective": ("write_at_all", "read_at_all"),
       "shared": ("write_shared", "write_ordered", "read_ordered")}
APIS = ("c", "thinmpi", "posix")
AUDIT_BYTES, AUDIT_CALLS = 64, 10
# tmpfs measures the software; the disk, what a checkpoint on this machine's disk costs (through
# the page cache: no call syncs).
TMPFS_BASE = "/dev/shm"


@dataclass(frozen=True)
class Counts:
    """Calls per launch: `small` per instance up to 4 KiB, in proportion to the size above (at
    least `least`); `collective` at 1 MiB, fewer above; `shared` at 64 B; processes and
    blocks."""

    small: int
    least: int
    collective: int
    shared: int
    reps: int
    blocks: int
    warmup: int = 10


# Processes per job even: odd ones list the variants' APIs in reverse (ordered), so each API
# is first in half of them. The quick run's 4 processes make 3/4 of the calls its 3 made, so
# that the suite takes the time it took.
COUNTS = {"full": Counts(10000, 50, 200, 2000, 6, 30),
          "quick": Counts(2250, 30, 45, 450, 4, 20),
          "smoke": Counts(20, 4, 4, 8, 1, 2, 1)}


@dataclass(frozen=True)
class IoBuild:
    """One preset's wb_io (compiler "python": the mpi4py kernel of an MPI, with C baselines from
    that MPI's first preset)."""

    mpi: str
    compiler: str
    mpiexec: str
    program: tuple
    variants: tuple
    audit_library: str = ""
    env: tuple = ()


@dataclass
class IoJob:
    """One launch: `variants` at each (bytes, calls) of `sizes`, files on `fs`."""

    build: IoBuild
    form: str
    fs: str
    variants: tuple
    sizes: tuple
    blocks: int
    warmup: int
    audit: bool = False
    key: str = field(default="")

    def __post_init__(self):
        kind = "audit" if self.audit else f"{self.form}/{self.fs}"
        size = f"/{self.sizes[0][0]}" if self.form == "collective" and not self.audit else ""
        self.key = f"io/{self.build.mpi}-{self.build.compiler}/{kind}{size}"


def calls_at(base, size, least):
    """Calls at `size` bytes: `base` up to 4 KiB, then in proportion to the size."""
    return max(least, base * 4096 // max(size, 4096))


def find_builds(setup, options):
    """The wb_io of every preset the driver registered, and the mpi4py io kernel of each MPI
    whose mpi4py the point-to-point setup found; [(build or None, why)]."""
    found = []
    for mpi, compiler in setup.manifests:
        manifest = read_json(Path(options.build_prefix + f"{mpi}-{compiler}") / "bench" /
                             MANIFEST)
        if not manifest:
            found.append((None, f"{mpi}-{compiler}: no {MANIFEST} (rebuild the kernels)"))
            continue
        listed = json_lines(subprocess.run([manifest["harness"], "--list"], capture_output=True,
                                           text=True).stdout)
        found.append((IoBuild(mpi, compiler, manifest["mpiexec"], (manifest["harness"],),
                              tuple(v["variant"] for v in listed),
                              manifest.get("audit_library", "")), None))
        if not manifest.get("thinmpi"):
            found.append((None, f"{mpi}-{compiler}: thinmpi::file: "
                          f"{manifest.get('thinmpi_missing_reason') or 'not built'}"))
    if options.api is None or "mpi4py" in options.api:
        found += _mpi4py_builds(setup, options)
    return found


def _mpi4py_builds(setup, options):
    """The mpi4py io kernel of each MPI, run by the interpreter whose mpi4py links that MPI."""
    found = []
    for mpi in dict.fromkeys(m for m, _ in setup.manifests):
        launcher = setup.launchers.get((mpi, "python"))
        if launcher is None:
            reasons = [m["reason"] for m in setup.missing
                       if (m["mpi"], m["compiler"], m["api"]) == (mpi, "python", "mpi4py")]
            found.append((None, f"{mpi}: mpi4py: " + (reasons[0] if reasons else "not found")))
            continue
        compiler = sorted(k for m, k in setup.manifests if m == mpi)[0]
        manifest = read_json(Path(options.build_prefix + f"{mpi}-{compiler}") / "bench" /
                             MANIFEST) or {}
        if not manifest:
            found.append((None, f"{mpi}: mpi4py: no {MANIFEST} in {mpi}-{compiler} for its C "
                          "baselines"))
            continue
        program = (launcher.program[0], str(MPI4PY_KERNEL), "--c-kernels",
                   manifest["c_kernels_library"])
        variants = tuple(f"{api}/{op}" for api in ("mpi4py", "c", "posix")
                         for op in OPS["independent"])
        found.append((IoBuild(mpi, "python", launcher.mpiexec, program, variants,
                              env=tuple(sorted(launcher.env.items()))), None))
    return found


def _chosen(build, form, api_filter):
    """The variants of `build` in `form`: C always, the others unless --api leaves them out."""
    return tuple(v for v in build.variants if v.split("/")[1] in OPS[form] and
                 (api_filter is None or v.split("/")[0] in ("c", "posix") or
                  v.split("/")[0] in api_filter))


def jobs_for(build, mode, file_systems, api_filter=None):
    """The launches of one build: on each file system the independent forms (every size in one
    launch), the collective forms (one launch per array size) and the shared forms; then one
    audit launch on the first file system. The smoke run (on tmpfs only, see make_folders):
    two independent sizes, and the collective and shared forms at their smallest."""
    counts = COUNTS[mode]
    smoke = mode == "smoke"
    collective = QUICK_COLLECTIVE_BYTES if mode == "quick" else COLLECTIVE_BYTES
    independent = INDEPENDENT_BYTES[::3] if smoke else INDEPENDENT_BYTES
    jobs = []

    def add(form, fs, sizes):
        variants = _chosen(build, form, api_filter)
        blocks = min([counts.blocks] + [calls for _, calls in sizes])
        if variants:
            jobs.append(IoJob(build, form, fs, variants, tuple(sizes), blocks, counts.warmup))

    for fs in file_systems:
        add("independent", fs, [(s, calls_at(counts.small, s, counts.least))
                                for s in independent])
        if build.compiler == "python":
            continue
        for size in collective[:1] if smoke else collective:
            add("collective", fs, [(size, max(2, counts.collective * MIB // size))])
        add("shared", fs, [(s, calls_at(counts.shared, s, counts.least))
                           for s in (SHARED_BYTES[:1] if smoke else SHARED_BYTES)])
    if build.audit_library and build.compiler != "python":
        variants = tuple(v for v in build.variants if v.split("/")[0] in ("c", "thinmpi")
                         and (api_filter is None or v.split("/")[0] == "c" or "thinmpi" in
                              api_filter))
        jobs.append(IoJob(build, "all", file_systems[0], variants, ((AUDIT_BYTES, AUDIT_CALLS),),
                          1, 2, audit=True))
    return jobs


def ordered(variants, rep):
    """The variants of a job as its process `rep` lists them: as given on even processes, the
    APIs' groups in reverse on odd ones (each API's variants together, in their order). wb_io
    opens, warms up and starts the blocks with its instances in that order, and at 8 MiB the
    first write instance ran 5-25 % slower than the same one listed later (thinmpi/C of
    write_at_all 0.86-0.97 with C listed first, 1.05-1.25 with thinmpi first, 5 launches
    each, Open MPI gcc, the same calls and buffers): alternating cancels that in the median."""
    groups = {}
    for variant in variants:
        groups.setdefault(variant.split("/")[0], []).append(variant)
    apis = list(groups)
    if rep % 2:
        apis.reverse()
    return tuple(variant for api in apis for variant in groups[api])


def command(job, directory, audit_path=None, rep=0):
    """The launcher command of a job's process `rep`: 2 ranks bound to cores."""
    build = job.build
    launcher = Launcher(build.mpi, build.mpiexec, list(build.program))
    arguments = ["--variants", ",".join(ordered(job.variants, rep)),
                 "--sizes", ",".join(f"{s}:{n}" for s, n in job.sizes), "--dir", str(directory),
                 "--warmup", str(job.warmup), "--blocks", str(job.blocks)]
    if job.audit:
        arguments += ["--audit", str(job.sizes[0][1])]
        return launcher.command(arguments, {"LD_PRELOAD": build.audit_library,
                                            "WB_AUDIT_OUT": str(audit_path)})
    return launcher.command(arguments, placement.rank_env(build.audit_library))


def launch(job, rep, directory, timeout=300):
    """One process of a job: (records, audit lines, error or None)."""
    audit_path = None
    if job.audit:
        handle, audit_path = tempfile.mkstemp(prefix="wb_io_audit_", suffix=".jsonl")
        Path(audit_path).unlink()
        del handle
    result, error = run_as_root(command(job, directory, audit_path, rep), timeout,
                                dict(job.build.env))
    audit_lines = json_lines(Path(audit_path).read_text()) if audit_path and \
        Path(audit_path).exists() else []
    if audit_path:
        Path(audit_path).unlink(missing_ok=True)
    if error:
        return [], audit_lines, error
    records = json_lines(result.stdout)
    for record in records:
        record.update(mpi=job.build.mpi, compiler=job.build.compiler, fs=job.fs, rep=rep,
                      job=job.key)
    expected = len(job.variants) * len(job.sizes)
    if result.returncode != 0 or len(records) != expected:
        lines = (result.stderr or "").strip().splitlines()[-3:]
        return records, audit_lines, "; ".join(lines) or f"exit status {result.returncode}"
    unverified = sorted({r["variant"] for r in records if not r.get("verified")})
    return records, audit_lines, (f"did not verify: {', '.join(unverified)}" if unverified
                                  else None)


def file_system_of(path):
    """`stat -f`'s name of the file system under `path` ("tmpfs", "ext2/ext3", ...)."""
    result = subprocess.run(["stat", "-f", "-c", "%T", str(path)], capture_output=True,
                            text=True)
    return result.stdout.strip() or "unknown"


def disk_base(options):
    """A folder on the disk: the build prefix's folder ("build/" of "build/bench-"), else /tmp,
    where it is not tmpfs."""
    for base in (Path(options.build_prefix + "x").resolve().parent, Path("/tmp")):
        if base.is_dir() and file_system_of(base) not in ("tmpfs", "ramfs"):
            return base
    return None


def make_folders(options, mode):
    """{label: (folder, file system type)} of the folders this run writes to, made now (the
    smoke run: tmpfs only; the disk runs the same code on another folder)."""
    folders = {}
    bases = (("tmpfs", Path(TMPFS_BASE)), ("disk", None if mode == "smoke" else
                                           disk_base(options)))
    for label, base in bases:
        if base is None or not base.is_dir():
            continue
        folder = Path(tempfile.mkdtemp(prefix="wb-io-", dir=base))
        folders[label] = (folder, file_system_of(folder))
    return folders


def audit_rows(job, audit_lines):
    """MPI calls per call of each variant, per rank (from the window labels api/op/bytes)."""
    calls = job.sizes[0][1]
    rows = []
    for line in audit_lines:
        variant, _, size = line["label"].rpartition("/")
        rows.append({"mpi": job.build.mpi, "compiler": job.build.compiler, "variant": variant,
                     "bytes": int(size), "rank": line["rank"],
                     "calls": {c: n / calls for c, n in sorted(line.get("calls", {}).items())}})
    return rows


def run(setup, options, mode):
    """Every io job of the builds at hand; returns doc["io"]."""
    folders = make_folders(options, mode)
    part = {"records": [], "audit": [], "failures": [], "missing": [], "ranks": RANKS,
            "file_systems": {label: {"path": str(folder.parent), "type": kind}
                             for label, (folder, kind) in folders.items()}}
    if "disk" not in folders and mode != "smoke":
        part["missing"].append("no folder on a disk (the build prefix's folder and /tmp are "
                               "tmpfs here): the disk cells are left out")
    jobs = []
    for build, why in find_builds(setup, options):
        if build is None:
            part["missing"].append(why)
        elif options.compiler is None or build.compiler in (*options.compiler, "python"):
            jobs += jobs_for(build, mode, list(folders), options.api)
    try:
        for number, job in enumerate(jobs, 1):
            started, had = time.monotonic(), len(part["records"])
            ok = run_job(job, COUNTS[mode].reps, folders[job.fs][0], part, setup.failures)
            if ok and not job.audit:
                register_recheck(job, part["records"][had:], options, mode,
                                 (time.monotonic() - started) / COUNTS[mode].reps)
            print(f"[io {number}/{len(jobs)}] {'' if ok else 'FAILED '}{job.key}",
                  file=sys.stderr)
    finally:
        for folder, _ in folders.values():
            shutil.rmtree(folder, ignore_errors=True)
    return recompute(part)


def _ratios(records):
    """{recheck cell key: ratio to C} of a job's records."""
    return {recheck.cell_key("io", c["mpi"], c["compiler"], 2, c["variant"], c["bytes"],
                             c["fs"]): c["ratio_vs_c"]
            for c in aggregate(records) if c["ratio_vs_c"]}


def register_recheck(job, records, options, mode, seconds_per_process):
    """Lets core/recheck.py launch the job again in other processes, in new folders of its
    file system (the run's are removed by then)."""
    def relaunch(processes, part=job):
        folders, again = make_folders(options, mode), None
        try:
            if part.fs in folders:
                again = recheck.launched(
                    lambda rep: launch(part, rep, folders[part.fs][0]), processes)
        finally:
            for folder, _ in folders.values():
                shutil.rmtree(folder, ignore_errors=True)
        return _ratios(again) if again is not None else {}

    def alone(processes, variants):  # the cell's variant and its baseline, at every size
        return relaunch(processes, replace(job, variants=tuple(variants)))
    recheck.register((job.key, tuple(job.variants)), _ratios(records), seconds_per_process,
                     relaunch, alone, len(job.variants))


def run_job(job, reps, directory, part, failures):
    """All processes of one job into `part`; stops at the first failure, which also goes to the
    run's failures."""
    for rep in range(1 if job.audit else reps):
        records, audit_lines, error = launch(job, rep, directory)
        if error:
            part["failures"].append({"what": job.key, "error": error})
            failures.append({"what": job.key, "mpi": job.build.mpi,
                             "compiler": job.build.compiler, "error": error})
            return False
        if job.audit:
            part["audit"] += audit_rows(job, audit_lines)
        else:
            part["records"] += records
    return True


def process_us(record):
    """A process's µs per call: the low decile of its interleaved blocks (core/compare.py's
    rule: what the path costs when the machine lets it run), else its mean."""
    blocks = record.get("block_us")
    return sorted(blocks)[len(blocks) // 10] if blocks else record["us"]


def _by_process(records):
    found = defaultdict(dict)
    for record in records:
        found[(record["job"], record["rep"], record["bytes"])][record["variant"]] = record
    return found


def _ratio(process, variant, against):
    mine, theirs = process.get(variant), process.get(against)
    if not mine or not theirs or process_us(theirs) <= 0:
        return None
    return process_us(mine) / process_us(theirs)


def aggregate(records):
    """Cells per (mpi, compiler, fs, variant, bytes): µs per call over processes (each the low
    decile of its blocks); the ratio to C's same call and to POSIX's, taken in each process."""
    slow = slow_processes(records)
    groups, ratios = defaultdict(list), defaultdict(lambda: defaultdict(list))
    for process in _by_process(records).values():
        for variant, record in process.items():
            key = (record["mpi"], record["compiler"], record["fs"], variant, record["bytes"])
            groups[key].append(record)
            op = record["op"]
            for name, other in (("c", f"c/{op}"), ("posix", f"posix/{op}")):
                value = _ratio(process, variant, other) if other != variant else None
                if value is not None:
                    ratios[key][name].append(value)
    return [_cell(key, groups[key], ratios[key], slow) for key in sorted(groups)]


def _cell(key, group, ratios, slow):
    mpi, compiler, fs, variant, size = key
    times = [process_us(r) for r in group]
    first = group[0]
    return {"mpi": mpi, "compiler": compiler, "fs": fs, "variant": variant, "api": first["api"],
            "op": first["op"], "form": first["form"], "bytes": size,
            "rank_bytes": first.get("rank_bytes", size), "reps": len(group),
            "iterations": first["iterations"], "us": spread(times), "per_rep_us": times,
            "ratio_vs_c": spread(ratios["c"]), "ratio_vs_posix": spread(ratios["posix"]),
            "slow_reps": sum(is_slow(r, slow) for r in group),
            "verified": all(r.get("verified") for r in group)}


def recompute(part):
    """The cells and machine mode of an io part from its raw records (also for --render)."""
    return dict(part, cells=aggregate(part["records"]), mode=machine_mode(part["records"]))
