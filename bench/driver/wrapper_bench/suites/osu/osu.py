"""The real OSU micro-benchmarks beside the OSU-compatible sweep: osu_latency from --osu-dir
(or PATH), run under the launcher and binding of the MPI it links (checked with ldd), one launch
per message size placed right after that size's sweep jobs, so OSU and the kernels it is
compared with run interleaved; its output is parsed into records like the kernels' ones."""

import os
import re
import shutil
import subprocess
from pathlib import Path

from ...core.detect import linked_mpi
from ...core.jobs import Build
from ...core.osu import split_dirs
from ...core.runner import ROOT_ENV, Launcher, Outcome, warmup_of

VARIANT = "osu/osu_latency"
NOT_PACKAGED = ("the OSU micro-benchmarks are not packaged in Debian 12 and could not be "
                "downloaded here; no osu_latency on PATH and no --osu-dir was given (build OSU "
                "against this MPI and pass --osu-dir DIR or --osu-dir {mpi}=DIR)")
HEADER = re.compile(r"^#\s*OSU MPI.*Latency Test\s*(v\S+)?", re.IGNORECASE)
ROW = re.compile(r"^\s*(\d+)\s+([0-9]*\.?[0-9]+)")


def parse_output(text):
    """(version or None, [(size bytes, one-way µs)]) of osu_latency's output: the header line
    '# OSU MPI Latency Test v7.x', the column line '# Size  Latency (us)', then rows."""
    version, rows = None, []
    for line in (text or "").splitlines():
        header = HEADER.match(line.strip())
        if header:
            version = header.group(1)
            continue
        if line.lstrip().startswith("#"):
            continue
        row = ROW.match(line)
        if row:
            rows.append((int(row.group(1)), float(row.group(2))))
    return version, rows


def find_binaries(osu_dirs):
    """[osu_latency paths]: under each --osu-dir (searched recursively, as OSU installs it in
    libexec/osu-micro-benchmarks/mpi/pt2pt/[standard/]), else on PATH."""
    found = []
    for folder in osu_dirs:
        folder = Path(folder)
        candidates = [folder] if folder.is_file() else sorted(folder.rglob("osu_latency"))
        found += [str(p) for p in candidates if p.is_file() and os.access(p, os.X_OK)]
    if not osu_dirs and shutil.which("osu_latency"):
        found.append(shutil.which("osu_latency"))
    return found


def add_osu(setup, mpis, osu_dir_values):
    """Registers an osu_latency for each MPI that has one linking it; names the others."""
    named, plain = split_dirs(osu_dir_values)
    for mpi in mpis:
        dirs = [named[mpi]] if mpi in named else plain
        binaries = find_binaries(dirs) if (dirs or not osu_dir_values) else []
        linked = {path: linked_mpi(path) for path in binaries}
        matching = [path for path, links in linked.items() if links == mpi]
        if not matching:
            checked = "; ".join(f"{p} links {m}" for p, m in linked.items())
            setup.miss(mpi, "osu", "osu", NOT_PACKAGED.format(mpi=mpi) if not binaries else
                       f"no osu_latency linking {mpi} was found (checked with ldd: {checked})")
            continue
        mpiexec = next((m["mpiexec"] for (m_mpi, _), m in setup.manifests.items()
                        if m_mpi == mpi), {"openmpi": "mpirun.openmpi",
                                           "mpich": "mpiexec.mpich"}[mpi])
        setup.builds.append(Build(mpi, "osu", ((VARIANT, 1, 0),), runner="osu"))
        setup.launchers[(mpi, "osu")] = Launcher(mpi, mpiexec, [matching[0]])
        setup.context.setdefault("osu", {})[mpi] = matching[0]


def interleave(jobs):
    """The jobs with each OSU-suite size's jobs (harness, Go, osu_latency) next to each other,
    in the order of the sizes; other suites keep their order."""
    osu = [j for j in jobs if j.suite == "osu"]
    if not any(j.build.runner == "osu" for j in osu):
        return jobs
    first = next(i for i, j in enumerate(jobs) if j.suite == "osu")
    rest = [j for j in jobs if j.suite != "osu"]
    ordered = sorted(osu, key=lambda j: (j.build.mpi, j.count, j.build.runner == "osu"))
    return rest[:first] + ordered + rest[first:]


def arguments(job):
    """osu_latency's options for one size: -m size:size, -i iterations, -x warm-up (the
    harness's, runner.warmup_of)."""
    return ["-m", f"{job.count}:{job.count}", "-i", str(job.iterations), "-x",
            str(warmup_of(job))]


def records_from(rows, job, version):
    """Kernel-like records of osu_latency's rows (one block: OSU prints one figure)."""
    return [{"variant": VARIANT, "api": "osu", "payload": "osu_latency", "baseline": None,
             "count": size, "bytes": size, "warmup": warmup_of(job),
             "iterations": job.iterations, "blocks": 1, "one_way_us": latency,
             "block_one_way_us": [latency], "verified": True, "osu_version": version}
            for size, latency in rows if size == job.count]


def launch(launcher, job, timeout):
    """One repetition of an osu_latency job; never raises."""
    env = dict(os.environ, **ROOT_ENV, **launcher.env)
    command = launcher.command(arguments(job))
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=env,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome([], f"timed out after {timeout:.0f} s: {' '.join(command)}")
    version, rows = parse_output(result.stdout)
    records = records_from(rows, job, version)
    if result.returncode != 0 or not records:
        text = (result.stderr or result.stdout or "").strip().splitlines()
        return Outcome(records, "\n".join(text[-3:]) or f"exit status {result.returncode}")
    return Outcome(records)
