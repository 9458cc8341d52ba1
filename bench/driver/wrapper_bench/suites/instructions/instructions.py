"""Instructions and allocations per call, counted by valgrind's callgrind (this VM hides the
hardware counters: `perf stat -e instructions:u` is <not supported>).

Each harness (wb_kernels, wb_coll) runs under `valgrind --tool=callgrind --collect-atstart=no`
with `--instructions K`: every variant runs K and then 2K round trips (or calls) in two collected
windows, each dumped as its own profile labelled "wb rank=R variant=NAME count=N calls=K"
(bench/harness/callgrind_window.h). The difference of the two windows divided by K cancels what a
window costs besides its calls; the sum over the ranks divided by ranks x K is the figure per call
and rank. For the ping-pong that is per one-way message: one send on one rank and its receive on
the other, as in the path audit.

A blocked receive polls: the instructions inside MPI grow with how long a rank waits, which
under valgrind is anything. So the figure compared is what runs *outside* the MPI library: the
window's instructions less the inclusive cost of every call from outside MPI into an MPI object
(plus what MPI calls back into the program, a user reduction). That is the variant's own code, the
wrapper's, libc's and libstdc++'s (malloc, memcpy): what a wrapper adds to the C path, and it does
not move with timing. The instructions inside MPI are kept too (`in_mpi`), for the record.
Allocations are the calls to malloc/calloc/realloc/operator new/... made from outside MPI and
libc (operator new's own malloc is not counted twice). The harness runs the warm-up collected
too (callgrind counts calls, not their cost, while collection is off; see
bench/harness/callgrind_window.h).
"""

import dataclasses
import os
import re
import subprocess
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ...core import harness, p2p_jobs
from ...core.detect import binding_flags, json_lines
from ...core.harness_run import find_builds
from ...core.jobs import Filters
from ...core.runner import ROOT_ENV

# The suites whose launches (wb_kernels) share a process per build: harness.c's --jobs. The
# tiny suite's counts (1 to 64 elements) count the same in one process as each in its own
# (measured: all 2 x 172 rows equal); the sweep's 4 and 64 KiB do not (35 of its 36 rows moved
# by up to 195 instructions, where a process's earlier jobs had left malloc's heap and its mmap
# threshold otherwise), so each of its counts keeps a process of its own, as its timed cells do.
BATCHED_SUITES = ("tiny",)
ROUND_TRIPS = 20  # K: windows of K and 2K round trips (calls); the outside-MPI count is exact
WARMUP = 10
SWEEP_BYTES = (4, 4096, 65536)
COLL_BYTES = (4, 4096)
LAUNCH_TIMEOUT_S = 300
VALGRIND = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--compress-strings=no",
            "--compress-pos=no"]
LABEL = re.compile(r"wb rank=(\d+) variant=(\S+) count=(\d+) calls=(\d+)")
# Objects of the MPI implementations and what they load (Open MPI's components, PMIx, UCX).
MPI_OBJECT = re.compile(r"/lib(mpi|mpich|open-pal|open-rte|pmix|uc[pstm]|hwloc|fabric|event|"
                        r"psm|ibverbs|rdmacm|hcoll)[^/]*$|/mca_[^/]*$|/openmpi/|/ucx/")
SYSTEM_OBJECT = re.compile(r"^/(usr/)?lib")
ALLOCATOR = re.compile(r"^(malloc|calloc|realloc|posix_memalign|aligned_alloc|memalign|valloc|"
                       r"_Zn[wa]m|operator new)")
LIBC = re.compile(r"/(libc|ld-linux)[^/]*$")


def is_mpi_object(path):
    """Whether an object belongs to the MPI library (or what MPI loads)."""
    return bool(MPI_OBJECT.search(path or ""))


@dataclass
class Profile:
    """One dumped window of one rank."""

    rank: int
    variant: str
    count: int
    calls: int
    total: int
    outside_mpi: int
    allocations: int


class _Names:
    """callgrind's name compression: "(id) name" defines an id, "(id)" refers to it."""

    def __init__(self):
        self.known = {}

    def read(self, text):
        match = re.match(r"\((\d+)\)\s*(.*)", text)
        if not match:
            return text
        if match.group(2):
            self.known[match.group(1)] = match.group(2)
        return self.known.get(match.group(1), text)


def _costs(line, positions, event):
    """The event's value on a cost line (positions first, then events; trailing zeros left out)."""
    tokens = line.split()
    index = positions + event
    return int(tokens[index]) if index < len(tokens) else 0


class _Reader:
    """Walks one callgrind profile: self costs, and call edges with their inclusive costs."""

    def __init__(self):
        self.objects, self.functions = _Names(), _Names()
        self.ob = self.fn = self.cob = self.cfn = None
        self.pending_calls = None
        self.positions, self.event = 1, 0
        self.header = {}
        self.self_total = 0
        self.edges = []  # (caller ob, caller fn, callee ob, callee fn, calls, inclusive)

    def line(self, line):
        if not line or line.startswith("#"):
            return
        if line[0].isdigit() or line[0] in "+-*":
            self._cost(line)
            return
        key, _, value = line.partition("=")
        if key in ("ob", "cob", "fn", "cfn", "calls") and "=" in line:
            self._context(key, value.strip())
        elif ":" in line and "=" not in line.split(":", 1)[0]:
            name, _, text = line.partition(":")
            self._header(name.strip(), text.strip())

    def _header(self, name, text):
        if name == "positions":
            self.positions = len(text.split())
        elif name == "events":
            events = text.split()
            self.event = events.index("Ir") if "Ir" in events else 0
        elif name == "desc" and text.startswith("Trigger:"):
            self.header["trigger"] = text
        elif name in ("totals", "summary"):
            self.header[name] = int(text.split()[0])

    def _context(self, key, value):
        if key == "ob":
            self.ob = self.objects.read(value)
        elif key == "cob":
            self.cob = self.objects.read(value)
        elif key == "fn":
            self.fn = self.functions.read(value)
        elif key == "cfn":
            self.cfn = self.functions.read(value)
        else:
            self.pending_calls = int(value.split()[0])

    def _cost(self, line):
        cost = _costs(line, self.positions, self.event)
        if self.pending_calls is None:
            self.self_total += cost
            return
        self.edges.append((self.ob, self.fn, self.cob or self.ob, self.cfn,
                           self.pending_calls, cost))
        self.pending_calls, self.cob = None, None


def _program_callback(caller_ob, callee_ob):
    """A call from MPI back into the program (a user reduction), counted as the program's."""
    return is_mpi_object(caller_ob) and not is_mpi_object(callee_ob) and \
        not SYSTEM_OBJECT.search(callee_ob or "")


def parse_profile(text):
    """The Profile of one dump, or None when it is not one of the harness's windows."""
    reader = _Reader()
    for line in text.splitlines():
        reader.line(line.rstrip())
    label = LABEL.search(reader.header.get("trigger", ""))
    if not label:
        return None
    total = reader.header.get("totals", reader.header.get("summary", reader.self_total))
    into_mpi = sum(cost for ob, _, cob, _, _, cost in reader.edges
                   if not is_mpi_object(ob) and is_mpi_object(cob))
    back = sum(cost for ob, _, cob, _, _, cost in reader.edges if _program_callback(ob, cob))
    return Profile(int(label.group(1)), label.group(2), int(label.group(3)),
                   int(label.group(4)), total, total - into_mpi + back,
                   _allocations(reader.edges))


def _allocations(edges):
    """Calls to an allocator from outside MPI and libc (operator new's malloc is not counted
    again; MPI's own allocations are MPI's)."""
    return sum(calls for ob, fn, _, cfn, calls, _ in edges
               if ALLOCATOR.match(cfn or "") and not ALLOCATOR.match(fn or "")
               and not is_mpi_object(ob) and not LIBC.search(ob or ""))


def per_call(profiles):
    """{(variant, count): {"instructions", "in_mpi", "allocations", "ranks"}} per call and rank,
    from each rank's two windows (K and 2K calls): (2K window - K window) / K, summed over
    ranks."""
    windows = defaultdict(dict)
    for p in profiles:
        windows[(p.variant, p.count, p.rank)][p.calls] = p
    sums = defaultdict(lambda: {"outside": 0, "total": 0, "allocations": 0, "ranks": 0,
                                "calls": 0})
    for (variant, count, _), by_calls in windows.items():
        if len(by_calls) != 2:
            continue
        short, long_ = (by_calls[k] for k in sorted(by_calls))
        extra = long_.calls - short.calls
        entry = sums[(variant, count)]
        entry["outside"] += long_.outside_mpi - short.outside_mpi
        entry["total"] += long_.total - short.total
        entry["allocations"] += long_.allocations - short.allocations
        entry["ranks"] += 1
        entry["calls"] = extra
    return {key: {"instructions": s["outside"] / (s["ranks"] * s["calls"]),
                  "in_mpi": (s["total"] - s["outside"]) / (s["ranks"] * s["calls"]),
                  "allocations": s["allocations"] / (s["ranks"] * s["calls"]),
                  "ranks": s["ranks"]}
            for key, s in sums.items() if s["calls"] > 0}


def read_profiles(folder):
    """The harness's windows among the callgrind files of a folder."""
    found = []
    for path in sorted(Path(folder).glob("cg.*")):
        profile = parse_profile(path.read_text(errors="replace"))
        if profile:
            found.append(profile)
    return found


@dataclass
class Launch:
    """One counted launch: `variants` of a harness at `count` on `ranks` ranks."""

    suite: str
    mpi: str
    compiler: str
    mpiexec: str
    program: list
    variants: tuple
    count: int
    ranks: int = 2
    env: dict = None

    @property
    def key(self):
        """A readable name for progress lines and failures."""
        return f"instructions/{self.suite}/{self.mpi}-{self.compiler}/n{self.count}"


def jobs_of(launches):
    """The (count, variants) jobs that count every variant of `launches` once: a launch's
    variants at its count, less those an earlier launch counts at the same count."""
    jobs, seen = [], set()
    for launch in launches:
        variants = tuple(v for v in launch.variants if (v, launch.count) not in seen)
        seen.update((v, launch.count) for v in variants)
        if variants:
            jobs.append((launch.count, variants))
    return jobs


def command(launches, folder):
    """The launcher, valgrind and harness command line that counts `launches` (one Launch, or
    several of one p2p harness: its --jobs, each job in turn in one process)."""
    launches = [launches] if isinstance(launches, Launch) else list(launches)
    first = launches[0]
    if len(launches) == 1:
        what = ["--variants", ",".join(first.variants), "--count", str(first.count)]
    else:
        what = ["--jobs", ";".join(f"{count}:{','.join(variants)}"
                                   for count, variants in jobs_of(launches))]
    return [first.mpiexec, "-n", str(first.ranks), *binding_flags(first.mpi), *VALGRIND,
            f"--callgrind-out-file={folder}/cg.%p", *first.program, *what, "--warmup",
            str(WARMUP), "--instructions", str(ROUND_TRIPS)]


def run_launch(launches, timeout=LAUNCH_TIMEOUT_S):
    """(records of rank 0, {(variant, count): per call}, error or None) of one launch of the
    harness that counts `launches` (a Launch, or several that can share a process: batches)."""
    launches = [launches] if isinstance(launches, Launch) else list(launches)
    env = dict(os.environ, **ROOT_ENV, **(launches[0].env or {}))
    with tempfile.TemporaryDirectory(prefix="wb_callgrind_") as folder:
        try:
            result = subprocess.run(command(launches, folder), capture_output=True, text=True,
                                    env=env, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as error:
            return [], {}, f"{error}"
        records, counted = json_lines(result.stdout), per_call(read_profiles(folder))
    expected = sum(len(variants) for _, variants in jobs_of(launches))
    if result.returncode != 0 or len(records) != expected:
        lines = [line for line in (result.stderr or "").splitlines() if not line.startswith("==")]
        return records, counted, "; ".join(lines[-3:]) or f"exit status {result.returncode}"
    return records, counted, None


def batches(launches):
    """`launches` in groups that one harness process counts: every tiny-suite launch of one
    build (wb_kernels --jobs: valgrind starts once a build instead of once a count, some 2 s
    each), and each other launch alone; in the order of their first launch."""
    groups = {}
    for launch in launches:
        key = ((launch.mpi, launch.compiler, launch.mpiexec, tuple(launch.program),
                launch.ranks, tuple(sorted((launch.env or {}).items())))
               if launch.suite in BATCHED_SUITES else id(launch))
        groups.setdefault(key, []).append(launch)
    return list(groups.values())


def of_launch(launch, records, counted):
    """The records and {variant: per call} of one launch among those of its batch: each of
    its variants' first record at its count, in its order."""
    mine = {}
    for record in records:
        if record.get("count") == launch.count and record.get("variant") in launch.variants:
            mine.setdefault(record["variant"], record)
    return ([mine[v] for v in launch.variants if v in mine],
            {variant: figures for (variant, count), figures in counted.items()
             if count == launch.count})


def p2p_launches(setup, filters):
    """The tiny suite and a few sizes of the sweep, on every harness build the filters keep."""
    launches = []
    sweep_filters = Filters(filters.mpi, filters.compiler, filters.api,
                            tuple(s for s in SWEEP_BYTES if filters.sweep_bytes is None
                                  or s in filters.sweep_bytes) or SWEEP_BYTES[:1])
    counts = p2p_jobs.COUNTS["quick"]["tiny"]
    for build in setup.builds:
        if build.runner != "harness" or not filters.keeps_build(build):
            continue
        launcher = setup.launchers[(build.mpi, build.compiler)]
        jobs = (p2p_jobs.tiny_jobs(build, counts, filters, setup.baselines)
                if "tiny" in filters.suites else []) + \
            (p2p_jobs.sweep_jobs(build, counts, sweep_filters, setup.baselines)
             if "sweep" in filters.suites else [])
        for job in jobs:
            launches += with_protocols(Launch(job.suite, build.mpi, build.compiler,
                                              launcher.mpiexec, launcher.program, job.variants,
                                              job.count), build)
    return launches


# The same protocol written in C, counted beside each framed variant whatever --api keeps, so
# that its instructions are judged against the protocol as well as against the known-count
# receive (path_tables, "the same protocol in C").
PROTOCOL_BASELINES = {"thinmpi/vector_framed": "c/framed",
                      "thinmpi/vector_framed_uninit": "c/framed",
                      "thinmpi/string_framed": "c/framed"}


def with_protocols(launch, build):
    """The launch, with the protocol baselines of its framed variants at the same payload
    bytes: inside it where their elements are as wide, else in a launch of their own (c/framed
    sends ints; a string of 8 chars is compared with 2 ints)."""
    extra = []
    for variant in launch.variants:
        c_variant = PROTOCOL_BASELINES.get(variant)
        if not c_variant or not build.has(c_variant) or c_variant in launch.variants:
            continue
        payload = launch.count * build.element_bytes(variant)
        width = build.element_bytes(c_variant)
        if width == build.element_bytes(variant):
            launch = dataclasses.replace(launch, variants=(*launch.variants, c_variant))
        elif payload % width == 0 and build.admits(c_variant, payload // width) and not any(
                e.count == payload // width for e in extra):
            extra.append(dataclasses.replace(launch, variants=(c_variant,),
                                             count=payload // width))
    return [launch, *extra]


def with_protocol_differences(rows):
    """Each framed variant's row with its protocol baseline's count of the same suite, MPI,
    compiler, payload bytes and ranks beside it (protocol_difference), where one was counted."""
    found = {(r["suite"], r["mpi"], r["compiler"], r["bytes"], r["ranks"], r["variant"]): r
             for r in rows}
    for row in rows:
        c_variant = PROTOCOL_BASELINES.get(row["variant"])
        base = found.get((row["suite"], row["mpi"], row["compiler"], row["bytes"], row["ranks"],
                          c_variant))
        if base:
            row.update(protocol_baseline=c_variant,
                       protocol_instructions=base["instructions"],
                       protocol_difference=round(row["instructions"] - base["instructions"], 2),
                       protocol_allocations=base["allocations"])
    return rows


def coll_launches(setup, options):
    """The collectives suite at 2 ranks, a few sizes, collectives only (not the programs)."""
    launches = []
    for build, _ in find_builds(setup, options):
        if build is None or build.compiler == "python" or (
                options.compiler and build.compiler not in options.compiler):
            continue
        for job in harness.jobs_for(build, "quick", COLL_BYTES, options.api):
            if job.ranks == 2 and not job.audit and not harness.is_program_job(job) and \
                    job.count * 4 in COLL_BYTES:
                launches.append(Launch("collectives", build.mpi, build.compiler, build.mpiexec,
                                       build.program, job.variants, job.count, 2, build.env))
    return launches


def rows_of(launch, records, counted):
    """One row per variant of a launch, with its C baseline's figures beside it."""
    rows = []
    for record in records:
        figures = counted.get(record["variant"])
        if not figures:
            continue
        base = counted.get(record.get("baseline") or "")
        row = {"suite": launch.suite, "mpi": launch.mpi, "compiler": launch.compiler,
               "variant": record["variant"], "baseline": record.get("baseline"),
               "count": launch.count, "bytes": record.get("bytes", launch.count * 4),
               "ranks": launch.ranks, **{k: round(v, 2) for k, v in figures.items()
                                         if k != "ranks"}}
        if base:
            row.update(c_instructions=round(base["instructions"], 2),
                       difference=round(figures["instructions"] - base["instructions"], 2),
                       c_allocations=round(base["allocations"], 2))
        rows.append(row)
    return rows


def covered_by(launch, earlier):
    """An earlier launch of the same harness and count whose variants include all of
    `launch`'s (the sweep at 4 B runs the tiny suite's 1-int code): counts are exact, so its
    rows stand for this launch's and valgrind starts once (about 10 s here); or None."""
    return next((e for e in earlier if (e.mpi, e.compiler, e.program, e.count, e.ranks) ==
                 (launch.mpi, launch.compiler, launch.program, launch.count, launch.ranks)
                 and set(launch.variants) <= set(e.variants)), None)


def _same_launch(row, launch):
    return (row["suite"], row["mpi"], row["compiler"], row["count"], row["ranks"]) == \
        (launch.suite, launch.mpi, launch.compiler, launch.count, launch.ranks)


def _count(group, prefix, setup, part, progress):
    """{id(launch): (records, {variant: per call})} of a batch's launches, counted in one
    process; where that fails, each launch again on its own, so that one variant's failure
    costs only its launch's rows. Failures go to the part and the setup."""
    if len(group) > 1:
        records, counted, error = run_launch(group)
        names = ", ".join(f"{launch.suite} n{launch.count}" for launch in group)
        progress(f"{prefix} {'FAILED ' if error else ''}instructions/"
                 f"{group[0].mpi}-{group[0].compiler}: {len(group)} launches in one ({names})")
        if not error:
            return {id(launch): of_launch(launch, records, counted) for launch in group}
        progress(f"{prefix} counting each of them alone: {error}")
    found = {}
    for launch in group:
        records, counted, error = run_launch(launch)
        if error:
            part["failures"].append({"what": launch.key, "error": error})
            setup.failures.append({"what": launch.key, "mpi": launch.mpi,
                                   "compiler": launch.compiler, "error": error})
        found[id(launch)] = of_launch(launch, records, counted)
        progress(f"{prefix} {'FAILED ' if error else ''}{launch.key}")
    return found


def run(setup, options, filters, progress=print, compilers=None):
    """Every counted launch (of the builds of `compilers`, None: every compiler the filters
    keep); returns doc["instructions"]: rows, failures and the method."""
    launches = p2p_launches(setup, filters)
    if "collectives" in filters.suites:
        launches += [launch for launch in coll_launches(setup, options)
                     if compilers is None or launch.compiler in compilers]
    part = {"round_trips": ROUND_TRIPS, "rows": [], "failures": [],
            "compilers": sorted({launch.compiler for launch in launches}),
            "tool": "valgrind --tool=callgrind (outside-MPI instructions per call and rank)"}
    covering = [covered_by(launch, launches[:number]) for number, launch in enumerate(launches)]
    results = {}
    groups = batches([launch for launch, covered in zip(launches, covering) if not covered])
    for number, group in enumerate(groups, 1):
        results.update(_count(group, f"[instructions {number}/{len(groups)}]", setup, part,
                              progress))
    for launch, covered in zip(launches, covering):
        if covered:  # the same code at the same count: its rows, under this launch's suite
            part["rows"] += [dict(row, suite=launch.suite, copied_from=covered.suite)
                             for row in part["rows"] if _same_launch(row, covered)
                             and row["variant"] in launch.variants]
        else:
            part["rows"] += rows_of(launch, *results[id(launch)])
    with_protocol_differences(part["rows"])
    return part


def _time_ratio(row, cells, coll_cells):
    """The time ratio of the row's cell (ping-pong or 2-rank collective), or None."""
    if row["suite"] == "collectives":
        found = [c for c in coll_cells if (c["mpi"], c["compiler"], c["ranks"], c["variant"],
                                           c["count"]) == (row["mpi"], row["compiler"], 2,
                                                           row["variant"], row["count"])]
        return found[0]["ratio"]["median"] if found and found[0].get("ratio") else None
    found = [c for c in cells if (c["suite"], c["mpi"], c["compiler"], c["variant"],
                                  c["count"]) == (row["suite"], row["mpi"], row["compiler"],
                                                  row["variant"], row["count"])]
    return found[0]["ratio_vs_c"]["median"] if found and found[0].get("ratio_vs_c") else None


def _number(value, digits=1):
    return "—" if value is None else f"{value:.{digits}f}"


def tables(part, cells, coll_cells, table_type):
    """One table per MPI x compiler: every variant with a baseline, its instructions and
    allocations per call beside C's, and the time ratio of the same cell."""
    found = []
    rows = [r for r in (part or {}).get("rows", []) if r.get("baseline")]
    for mpi, compiler in dict.fromkeys((r["mpi"], r["compiler"]) for r in rows):
        body = [[r["suite"], r["variant"], r["baseline"], str(r["bytes"]),
                 _number(r["instructions"]), _number(r.get("c_instructions")),
                 _number(r.get("difference")), _number(r["allocations"], 2),
                 _number(r.get("c_allocations"), 2),
                 _number(None if r.get("protocol_row") else _time_ratio(r, cells, coll_cells),
                         3)]
                for r in _with_protocol_rows(rows) if (r["mpi"], r["compiler"]) == (mpi, compiler)]
        found.append(table_type(
            f"instructions-{mpi}-{compiler}", f"Instructions per call beside the time ratio "
            f"({mpi}, {compiler})", ["suite", "variant", "baseline", "bytes", "instructions",
                                     "C's", "difference", "allocations", "C's",
                                     "time ratio"], body,
            "Counted by callgrind, outside MPI (the variant's code, the wrapper, libc and "
            "libstdc++; what MPI itself runs is left out because a blocked receive polls for "
            "as long as it waits), per call and rank: per one-way message for the ping-pong "
            "(a send on one rank and its receive on the other), per collective call for the "
            "collectives (2 ranks). Allocations: calls to malloc/operator new and kin from "
            "outside MPI. The time ratio is the same cell's from the timed run. A framed "
            "variant has a second row against c/framed, the same protocol in C, at the same "
            "payload bytes (no time ratio: its time against c/framed is in the targets table)."))
    return found


def _with_protocol_rows(rows):
    """The rows, each framed variant's followed by one against its protocol baseline (the
    time ratio is against the known-count baseline: that row's is left out)."""
    found = []
    for r in rows:
        found.append(r)
        if r.get("protocol_baseline"):
            found.append(dict(r, baseline=r["protocol_baseline"],
                              c_instructions=r["protocol_instructions"],
                              difference=r["protocol_difference"],
                              c_allocations=r["protocol_allocations"], protocol_row=True))
    return found


def lines(part):
    """The section's paragraph: how the counts were taken, or how to take them."""
    if not part:
        return ["Not counted in this run: `--instructions` (make bench BENCH_ARGS="
                "\"--instructions\") runs the tiny, sweep and collectives suites' variants under "
                "callgrind and puts each one's instructions and allocations per call beside its "
                "time ratio (docs/bench.md, *Instructions per call*)."]
    failed = len(part.get("failures", []))
    return [f"Counted with {part['tool']}: windows of {part['round_trips']} and "
            f"{2 * part['round_trips']} calls, the difference per call. The counts do not "
            "depend on the machine's mode or load." +
            (f" {failed} launches failed (listed under Failed builds and runs)." if failed
             else "")]
