"""The node suite: thinmpi::node_channel (intra-node, through a shared-memory ring) against C MPI
and the physical floor, on the ping-pong harness built with the node variants (wb_node,
manifest wb_node.json; bench/cmake/WbNode.cmake).

One process per repetition runs every latency variant at every size (the harness's --counts),
in interleaved blocks, so each ratio is taken inside one process; a second runs the message
rate. At 4 ranks two pairs (0-1, 2-3) run the same blocks at once, each block timed as the
slower pair's; on a 2-core machine those ranks are oversubscribed, so that run is short.
"""

import os
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ...core import placement, recheck, slow_mode
from ...core.compare import process_value, spread
from ...core.detect import binding_flags, json_lines, read_json
from ...core.runner import env_flags, run_as_root
from ...core.slow_mode import is_slow, slow_processes

MANIFEST = "wb_node.json"
SIZES = (1, 4, 8, 16, 32, 48, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576)
FLOOR, C_KNOWN, C_MPROBE = "c/shm_floor", "c/char_buffer", "c/char_mprobe"
THINMPI_MPI = "thinmpi/char_span"
KNOWN, UNKNOWN, RING = "thinmpi/channel_known", "thinmpi/channel_unknown", "thinmpi/channel_ring"
# The order of the interleaved blocks (a cycle). Some of the time the path right after the
# floor's cache-line spin runs 5-14% slower at 1-48 B for a whole block (50 untimed round trips
# before it did not take that away; another path's block between them did). In the quick run at
# 98d89c3 thinmpi's char_span read 0.90-0.93x C with C's known count right after the floor;
# here, 0.90-0.96x so, 1.01-1.08x with the two swapped, 0.98-1.02x with neither there (Open MPI
# clang, 2 ranks). So the floor is followed by C's matched-probe path, which no ratio of the
# suite compares with: its column then reads up to 14% high at the small sizes (docs/bench.md,
# The node suite).
LATENCY = (C_KNOWN, THINMPI_MPI, KNOWN, UNKNOWN, RING, FLOOR, C_MPROBE)
C_RATE, RATE = "c/rate_isend", "thinmpi/channel_rate"
WINDOW = 64  # bench/harness/node_window.h: messages per window of the rate variants
RATE_BYTES = (8, 4096)
PAIRS_RANKS = 4
PAIRS_SIZES = (8, 4096)
PAIRS_VARIANTS = (FLOOR, C_KNOWN, KNOWN, UNKNOWN)


@dataclass(frozen=True)
class Counts:
    """Round trips of a mode: `small` up to 4 KiB, then in proportion to the size, at least
    `least`; rate windows; processes (reps); the oversubscribed run's round trips."""

    small: int
    least: int
    windows: int
    reps: int
    blocks: int = 20
    pairs: int = 200


COUNTS = {"full": Counts(20000, 200, 4000, 5), "quick": Counts(4000, 100, 1000, 3),
          "smoke": Counts(100, 10, 20, 1, 4, 20)}


@dataclass(frozen=True)
class NodeBuild:
    """One preset's wb_node."""

    mpi: str
    compiler: str
    mpiexec: str
    harness: str
    variants: tuple
    bind: bool = True


@dataclass
class NodeJob:
    """One launch: `variants` at each (bytes, round trips) of `counts` on `ranks` ranks."""

    build: NodeBuild
    kind: str  # "latency" or "rate"
    ranks: int
    variants: tuple
    counts: tuple
    blocks: int
    key: str = field(default="")

    def __post_init__(self):
        self.key = (f"node/{self.build.mpi}-{self.build.compiler}/{self.kind}/{self.ranks}ranks")


def round_trips(counts, size):
    """Round trips at `size` bytes: counts.small up to 4 KiB, fewer above."""
    return max(counts.least, counts.small * 4096 // max(size, 4096))


def find_builds(setup, options):
    """The wb_node of every preset the driver registered; [(build or None, why)]."""
    found = []
    for mpi, compiler in setup.manifests:
        manifest = read_json(Path(options.build_prefix + f"{mpi}-{compiler}") / "bench" /
                             MANIFEST)
        if not manifest:
            found.append((None, f"{mpi}-{compiler}: no {MANIFEST} (rebuild the kernels)"))
            continue
        listed = json_lines(subprocess.run([manifest["harness"], "--list"], capture_output=True,
                                           text=True).stdout)
        launcher = setup.launchers.get((mpi, compiler))
        found.append((NodeBuild(mpi, compiler, manifest["mpiexec"], manifest["harness"],
                                tuple(v["variant"] for v in listed),
                                launcher.bind if launcher else True), None))
        if not manifest.get("thinmpi"):
            found.append((None, f"{mpi}-{compiler}: thinmpi node_channel: "
                          f"{manifest.get('thinmpi_missing_reason') or 'not built'}"))
    return found


def jobs_for(build, mode, sizes=None):
    """The launches of one build: latency and rate on 2 ranks, then both on two pairs."""
    counts = COUNTS[mode]
    sizes = [s for s in (sizes or SIZES) if s >= 1]
    if mode == "smoke":
        sizes = [s for s in sizes if s <= 4096][:3] or sizes[:1]
    kept = [v for v in LATENCY if v in build.variants]
    rate = tuple(v for v in (C_RATE, RATE) if v in build.variants)
    jobs = [NodeJob(build, "latency", 2, tuple(kept),
                    tuple((s, round_trips(counts, s)) for s in sizes), counts.blocks)]
    jobs.append(NodeJob(build, "rate", 2, rate, tuple((s, counts.windows) for s in RATE_BYTES),
                        counts.blocks))
    pairs = tuple((s, counts.pairs) for s in PAIRS_SIZES if mode != "smoke" or s <= 8)
    jobs.append(NodeJob(build, "latency", PAIRS_RANKS,
                        tuple(v for v in PAIRS_VARIANTS if v in build.variants), pairs, 4))
    jobs.append(NodeJob(build, "rate", PAIRS_RANKS, rate,
                        ((RATE_BYTES[0], max(10, counts.windows // 10)),), 4))
    return [j for j in jobs if j.variants]


def command(job):
    """The launcher command of a job: 2 ranks bound to cores, more oversubscribed."""
    build = job.build
    flags = ["-n", str(job.ranks)]
    if job.ranks > 2 and build.mpi == "openmpi":
        flags += ["--oversubscribe"]
    elif job.ranks <= 2 and build.bind:
        flags += binding_flags(build.mpi)
    flags += env_flags(build.mpi, placement.rank_env(build.harness))
    return [build.mpiexec, *flags, build.harness, "--variants", ",".join(job.variants),
            "--counts", ",".join(f"{s}:{n}" for s, n in job.counts),
            "--blocks", str(job.blocks)]


def launch(job, rep, timeout=300):
    """One process of a job: (records, error or None)."""
    result, error = run_as_root(command(job), timeout)
    if error:
        return [], error
    records = json_lines(result.stdout)
    for record in records:
        record.update(mpi=job.build.mpi, compiler=job.build.compiler, kind=job.kind, rep=rep,
                      job=job.key)
    expected = len(job.variants) * len(job.counts)
    if result.returncode != 0 or len(records) != expected:
        lines = (result.stderr or "").strip().splitlines()[-3:]
        return records, "; ".join(lines) or f"exit status {result.returncode}"
    unverified = sorted({r["variant"] for r in records if not r.get("verified")})
    return records, (f"payload did not verify: {', '.join(unverified)}" if unverified else None)


def run(setup, options, mode):
    """Every node job of the builds at hand; returns doc["node"]."""
    part = {"records": [], "failures": [], "missing": [], "window": WINDOW,
            "pairs_ranks": PAIRS_RANKS, "cores": os.cpu_count()}
    jobs = []
    for build, why in find_builds(setup, options):
        if build is None:
            part["missing"].append(why)
        elif options.compiler is None or build.compiler in options.compiler:
            jobs += jobs_for(build, mode, options.sizes)
    reps = COUNTS[mode].reps
    for number, job in enumerate(jobs, 1):
        started, timed = time.monotonic(), []
        for rep in range(reps if job.ranks == 2 else 1):
            records, error = launch(job, rep)
            if error:
                failure = {"what": job.key, "error": error}
                part["failures"].append(failure)
                setup.failures.append(dict(failure, mpi=job.build.mpi,
                                           compiler=job.build.compiler))
                timed = []
                break
            part["records"] += records
            timed += records
        if timed:
            register_recheck(job, timed, (time.monotonic() - started) / (reps if job.ranks == 2
                                                                          else 1))
        print(f"[node {number}/{len(jobs)}] {job.key}", file=sys.stderr)
    return recompute(part)


def _ratios(records):
    """{recheck cell key: ratio to C} of a job's records."""
    return {recheck.cell_key("node", c["mpi"], c["compiler"], c["ranks"], c["variant"],
                             c["bytes"]): c["ratio_vs_c"]
            for c in aggregate(records) if c["ratio_vs_c"]}


def register_recheck(job, records, seconds_per_process):
    """Lets core/recheck.py launch the job again in other processes, one size at a time (the
    variants interleave within a size, so one size's launch times them as the whole job did)."""
    def relaunch_at(size, round_trips):
        one_size = NodeJob(job.build, job.kind, job.ranks, job.variants, ((size, round_trips),),
                           job.blocks)

        def relaunch(processes):
            again = recheck.launched(lambda rep: launch(one_size, rep), processes)
            return _ratios(again) if again is not None else {}
        return relaunch
    for size, round_trips in job.counts:
        recheck.register((job.key, size), _ratios([r for r in records if r["bytes"] == size]),
                         seconds_per_process * round_trips / sum(n for _, n in job.counts),
                         relaunch_at(size, round_trips))


def _by_process(records):
    found = defaultdict(dict)
    for record in records:
        found[(record["job"], record["rep"], record["bytes"])][record["variant"]] = record
    return found


def _ratio(process, variant, against):
    mine, theirs = process.get(variant), process.get(against)
    if not mine or not theirs or process_value(theirs) <= 0:
        return None
    return process_value(mine) / process_value(theirs)


def aggregate(records):
    """Cells per (mpi, compiler, ranks, variant, bytes): the one-way time over processes (each
    the low decile of its blocks); the ratios to C's known count and to the floor taken in each
    process; for the rate variants the messages per second and the rate over C's."""
    slow = slow_processes([r for r in records if r.get("ranks", 2) == 2])
    groups, ratios = defaultdict(list), defaultdict(lambda: defaultdict(list))
    for process in _by_process(records).values():
        for variant, record in process.items():
            key = (record["mpi"], record["compiler"], record.get("ranks", 2), variant,
                   record["bytes"])
            groups[key].append(record)
            against = {"c": C_RATE, "floor": None} if record["kind"] == "rate" else \
                {"c": C_KNOWN, "floor": FLOOR}
            for name, other in against.items():
                value = _ratio(process, variant, other) if other else None
                if value is not None:
                    ratios[key][name].append(value)
    return [_cell(key, groups[key], ratios[key], slow) for key in sorted(groups)]


def _cell(key, group, ratios, slow):
    mpi, compiler, ranks, variant, size = key
    times = [process_value(r) for r in group]
    cell = {"mpi": mpi, "compiler": compiler, "ranks": ranks, "variant": variant,
            "bytes": size, "kind": group[0]["kind"], "reps": len(group),
            "iterations": group[0]["iterations"], "one_way_us": spread(times),
            "per_rep_us": times, "ratio_vs_c": spread(ratios["c"]),
            "ratio_vs_floor": spread(ratios["floor"]),
            "slow_reps": sum(is_slow(r, slow) for r in group) if ranks == 2 else None,
            "verified": all(r.get("verified") for r in group)}
    if cell["kind"] == "rate":
        cell["messages_per_s"] = spread([WINDOW / (2 * t * 1e-6) for t in times if t > 0])
    return cell


def crossover(cells, mpi, compiler, variant=RING):
    """Where `variant` stops beating C's known count on 2 ranks: {"last_win": the largest size
    below the first loss, "first_loss": the smallest size whose median ratio is above 1.0
    (None where it never loses, or never wins), "losses": every size it loses at (C's own
    eager-to-rendezvous step can make it win again above a loss)}."""
    ratios = sorted((c["bytes"], c["ratio_vs_c"]["median"]) for c in cells
                    if (c["mpi"], c["compiler"], c["ranks"], c["variant"]) ==
                    (mpi, compiler, 2, variant) and c["ratio_vs_c"])
    first_loss = next((size for size, ratio in ratios if ratio > 1.0), None)
    wins = [size for size, ratio in ratios if first_loss is None or size < first_loss]
    return {"variant": variant, "last_win": wins[-1] if wins else None,
            "first_loss": first_loss, "losses": [size for size, ratio in ratios if ratio > 1.0],
            "ratios": ratios}


def machine_mode(records):
    """The slow-mode detector (core/slow_mode.py) over the 2-rank processes of the suite: how
    many ran in the slow mode, and the threshold."""
    return slow_mode.machine_mode([r for r in records if r.get("ranks", 2) == 2])


def recompute(part):
    """The cells, crossovers and machine mode of a node part from its raw records (also for
    --render)."""
    cells = aggregate(part["records"])
    builds = sorted({(c["mpi"], c["compiler"]) for c in cells})
    return dict(part, cells=cells, mode=machine_mode(part["records"]),
                crossovers=[dict(crossover(cells, m, k, v), mpi=m, compiler=k)
                            for m, k in builds for v in (RING, KNOWN)])
