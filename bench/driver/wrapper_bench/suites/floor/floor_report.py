"""What the report says about the physical floor (floor.py): each MPI's machine mode on the
report's first screen, a table of every build's process floors, one line on the slow mode, and a
note beside every table of absolute times."""

import statistics

from ...core.slow_mode import rule_text
from ...core.tables import MPI_NAMES, MPI_ORDER, Table, us

# Tables of absolute times: key (or key prefix) -> (suite, compilers whose processes fill it).
ABSOLUTE_TABLES = {"c-floor": ("tiny", ("gcc", "clang")), "scalar": ("tiny", ("gcc", "clang")),
                   "raw-vs-vector": ("tiny", ("gcc", "clang")),
                   "cliff": ("tiny", ("gcc", "clang")), "struct": ("tiny", ("gcc", "clang")),
                   "mpi4py": ("tiny", ("python",)), "go-tiny": ("tiny", ("go",)),
                   "sweep": ("sweep", ("gcc", "python", "go")),
                   "osu-go-": ("osu", ("go",)), "osu-": ("osu", ("gcc", "osu"))}


def _table_scope(key):
    for prefix, scope in ABSOLUTE_TABLES.items():
        if key == prefix or (prefix.endswith("-") and key.startswith(prefix)):
            return scope
    return None


def floor_note(cells, suite, compilers, mpi=None):
    """One sentence: the floors of the processes behind a table, and which of them were slow."""
    scoped = [c for c in cells if c["suite"] == suite and c["compiler"] in compilers and
              (mpi is None or c["mpi"] == mpi) and c.get("floor_us")]
    if not scoped:
        return ""
    floors = [f for c in scoped for f in c.get("per_rep_floor_us", []) if f is not None]
    slow = sum(1 for c in scoped if c.get("slow_reps"))
    fast_cells = sum(c.get("one_way_from") == "fast-mode processes" for c in scoped)
    text = (f"Floor beside it (cache-line ping-pong of the same processes, no MPI): "
            f"{us(min(floors))} to {us(max(floors))} one-way. ")
    if slow:
        text += (f"{slow} of {len(scoped)} cells had a process in the slow mode; {fast_cells} "
                 "of them take their absolute time from their fast-mode processes only, the "
                 "others from all (too few fast ones); ratios use every process.")
    else:
        text += "No process ran in the slow mode."
    return text


def annotate(tables, cells):
    """Appends the floor note to every table of absolute times in `tables`."""
    for table in tables:
        scope = _table_scope(table.key)
        if not scope:
            continue
        mpi = table.key.rsplit("-", 1)[1] if table.key.startswith("osu-") else None
        note = floor_note(cells, scope[0], scope[1], mpi)
        if note:
            table.note = f"{table.note} {note}".strip()
    return tables


def floor_table(summary):
    """Per MPI and process kind: the process floors, and how many ran in the slow mode."""
    rows = []
    for build, floors in (summary or {}).get("by_build", {}).items():
        mpi, compiler = build.split("/")
        slow = [s for s in summary["slow"] if s["mpi"] == mpi and s["compiler"] == compiler]
        rows.append([MPI_NAMES.get(mpi, mpi), compiler, str(len(floors)), us(floors[0]),
                     us(statistics.median(floors)), us(floors[-1]), str(len(slow))])
    note = ""
    if summary:
        note = ("Every kernel process (C harness, mpi4py through ctypes, Go through cgo) "
                "measures a cache-line ping-pong between its two ranks' cores through POSIX "
                "shared memory before and after its variants; its floor is the larger of the "
                f"two. Cells with at least {summary['min_fast']} fast-mode processes take their "
                "absolute times from those only; ratios use every process.")
    return Table("floor", "The physical floor of each process",
                 ["MPI", "process", "processes", "lowest", "median", "highest",
                  "slow mode"], rows, note)


def slow_line(summary):
    """One line on the slow mode: how many processes ran in it and why, the floors' spread and
    the rule (the processes themselves are in results.json, floor.slow)."""
    if not summary:
        return "No process measured its floor."
    slow = summary["slow"]
    by_floor = sum("floor" in s.get("reasons", ["floor"]) for s in slow)
    by_c_only = len(slow) - by_floor
    return (f"Slow mode: {len(slow)} of {summary['processes']} processes had "
            f"{rule_text(summary['threshold_us'])} ({by_floor} by the floor, {by_c_only} by "
            f"C's one-way time alone; the run's fast floor, its 10th-percentile process floor, "
            f"{us(summary['fast_floor_us'])}); the floors ran from {us(summary['best_us'])} "
            f"(best) over {us(summary['median_us'])} (median) to {us(summary['highest_us'])}. "
            "Each slow-mode process is listed in results.json (floor.slow).")


def _figures(figures):
    return (f"C 1-int one-way {us(figures['c_one_way_us'])}, floor {us(figures['floor_us'])}"
            if figures["c_one_way_us"] is not None else f"floor {us(figures['floor_us'])}, "
            "C 1-int one-way not timed")


def mode_line(mpi, mode):
    """One MPI's machine mode: 'OpenMPI: fast mode (C 1-int one-way 0.150 µs, floor 0.030 µs;
    all 23 processes)', or the slow mode in some or all of its processes."""
    name = MPI_NAMES.get(mpi, mpi)
    fast, slow, total = mode["fast_mode"], mode["slow_mode"], mode["processes"]
    if mode["slow"] == 0:
        return f"{name}: fast mode ({_figures(fast)}; all {total} processes)."
    if mode["slow"] == total:
        return f"{name}: slow mode ({_figures(slow)}; all {total} processes)."
    return (f"{name}: slow mode in {mode['slow']} of {total} processes ({_figures(slow)}); the "
            f"fast mode in {fast['processes']} ({_figures(fast)}).")


def mode_lines(summary):
    """The report's first screen: the machine mode of each MPI's run, and the rule."""
    if not summary:
        return ["Machine mode: not judged (no process of the matrix measured its floor)."]
    if "by_mpi" not in summary:  # a results.json from before the per-MPI modes
        return []
    order = sorted(summary["by_mpi"], key=lambda m: (m not in MPI_ORDER,
                                                    MPI_ORDER.index(m) if m in MPI_ORDER else 0, m))
    lines = [f"Machine mode, {mode_line(mpi, summary['by_mpi'][mpi])}" for mpi in order]
    return lines + [f"Machine mode: a process ran in the slow mode when it had "
                    f"{rule_text(summary['threshold_us'])}; figures are medians over processes "
                    "(docs/bench.md, the physical floor)."]
