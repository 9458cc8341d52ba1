"""The physical floor of every process: a cache-line ping-pong between the two ranks' cores
(bench/kernels/floor.c, no MPI) that each kernel process measures before and after its variants
and writes into its records as floor_before_us and floor_after_us.

A process whose floor is far above the run's best ran while the machine was slow (a loaded
host, two vCPUs sharing a core): everything it measured is slow by the same cause. Such a
process is in the slow mode; the absolute times of a cell come from its fast-mode processes
where it has enough of them. Ratios keep every process: they are taken inside one process, and
a slow phase slows the variant and its baseline alike.
"""

import statistics
from collections import defaultdict

from .compare import cell_key, process_value, spread

SLOW_FACTOR = 1.5  # a floor above 1.5x the run's best floor marks the slow mode
MIN_FAST = 2  # fast-mode processes a cell needs for its absolute time to use only them


def process_floor(record):
    """The larger of a process's floors before and after its variants (None when it measured
    none): a process is only as fast as its slowest moment."""
    values = [v for v in (record.get("floor_before_us"), record.get("floor_after_us"))
              if v is not None and v > 0]
    return max(values) if values else None


def processes(records):
    """{(job, rep): record} of every process that measured its floor, one record each."""
    found = {}
    for record in records:
        if process_floor(record) is not None:
            found.setdefault((record["job"], record["rep"]), record)
    return found


def best_floor(records):
    """The lowest process floor of the run, or None."""
    floors = [process_floor(r) for r in processes(records).values()]
    return min(floors) if floors else None


def is_slow(record, best):
    """Whether the process of `record` ran in the slow mode."""
    floor = process_floor(record)
    return floor is not None and best is not None and floor > SLOW_FACTOR * best


def summary(records):
    """The run's floor: best, median, threshold, and the processes in the slow mode."""
    found = processes(records)
    best = best_floor(records)
    if best is None:
        return None
    slow = [{"job": job, "rep": rep, "mpi": r["mpi"], "compiler": r["compiler"],
             "floor_us": process_floor(r)}
            for (job, rep), r in sorted(found.items()) if is_slow(r, best)]
    by_build = defaultdict(list)
    for record in found.values():
        by_build[f"{record['mpi']}/{record['compiler']}"].append(process_floor(record))
    return {"best_us": best, "median_us": statistics.median(process_floor(r)
                                                             for r in found.values()),
            "slow_factor": SLOW_FACTOR, "threshold_us": SLOW_FACTOR * best,
            "processes": len(found), "slow": slow, "min_fast": MIN_FAST,
            "by_build": {k: sorted(v) for k, v in sorted(by_build.items())}}


def _fast_times(group, best):
    return [process_value(r) for r in group if not is_slow(r, best)]


def apply(cells, records):
    """Adds each cell's process floors, and takes its absolute time from its fast-mode processes
    where it has at least MIN_FAST of them (one_way_from says which); returns the cells."""
    best = best_floor(records)
    groups = defaultdict(list)
    for record in records:
        groups[cell_key(record)].append(record)
    for cell in cells:
        key = (cell["suite"], cell["mpi"], cell["compiler"], cell["variant"], cell["count"])
        group = groups.get(key, [])
        floors = [process_floor(r) for r in group]
        cell["per_rep_floor_us"] = floors
        cell["floor_us"] = spread([f for f in floors if f is not None])
        cell["slow_reps"] = sum(is_slow(r, best) for r in group)
        fast = _fast_times(group, best)
        cell["one_way_from"] = "all processes"
        if cell["slow_reps"] and len(fast) >= MIN_FAST:
            cell["one_way_us_all"] = cell["one_way_us"]
            cell["one_way_us"] = spread(fast)
            cell["one_way_from"] = "fast-mode processes"
    return cells
