"""The physical floor of every process: a cache-line ping-pong between the two ranks' cores
(bench/kernels/floor.c, no MPI) that each kernel process measures before and after its variants
and writes into its records as floor_before_us and floor_after_us.

A process whose floor is far above the run's fast floor ran while the machine was slow (a loaded
host, two vCPUs sharing a core): everything it measured is slow by the same cause. Such a
process is in the slow mode; the absolute times of a cell come from its fast-mode processes
where it has enough of them. Ratios keep every process: they are taken inside one process, and
a slow phase slows the variant and its baseline alike.
"""

import statistics
from collections import defaultdict

from ...core.compare import cell_key, process_value, spread

# The slow mode starts at twice the run's fast floor. On this kind of machine (2 vCPUs) the fast
# mode (C one int one-way 0.15-0.31 us) had process floors of median 0.058 us, best 0.028 us
# (729 processes of a full make bench); the slow mode (C 0.37-0.49 us) 0.066-0.139 us, median
# 0.097 us (107 processes of c/int_buffer under load, 2026-12-01). The two overlap, so no
# threshold sorts every process; twice the fast floor (about 0.09 us) lies between the two
# medians and is above three quarters of those slow-mode floors. The fast floor is the run's
# 10th-percentile process floor, not its best: a lone lucky process (0.028 us against a median
# of 0.058 us) put 1.5x the best below most fast-mode processes.
SLOW_FACTOR = 2.0
FAST_FLOOR_QUANTILE = 0.1
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


def fast_floor(records):
    """The run's fast floor: its 10th-percentile process floor (None without floors)."""
    floors = sorted(process_floor(r) for r in processes(records).values())
    return floors[int(len(floors) * FAST_FLOOR_QUANTILE)] if floors else None


def slow_threshold(records):
    """The process floor above which a process ran in the slow mode (None without floors)."""
    fast = fast_floor(records)
    return None if fast is None else SLOW_FACTOR * fast


def is_slow(record, threshold):
    """Whether the process of `record` ran in the slow mode."""
    floor = process_floor(record)
    return floor is not None and threshold is not None and floor > threshold


def summary(records):
    """The run's floor: its spread (best, fast floor, median, highest), the slow-mode threshold,
    and the processes in the slow mode."""
    found = processes(records)
    threshold = slow_threshold(records)
    if threshold is None:
        return None
    slow = [{"job": job, "rep": rep, "mpi": r["mpi"], "compiler": r["compiler"],
             "floor_us": process_floor(r)}
            for (job, rep), r in sorted(found.items()) if is_slow(r, threshold)]
    by_build = defaultdict(list)
    for record in found.values():
        by_build[f"{record['mpi']}/{record['compiler']}"].append(process_floor(record))
    floors = [process_floor(r) for r in found.values()]
    return {"best_us": min(floors), "fast_floor_us": fast_floor(records),
            "median_us": statistics.median(floors), "highest_us": max(floors),
            "slow_factor": SLOW_FACTOR, "threshold_us": threshold,
            "processes": len(found), "slow": slow, "min_fast": MIN_FAST,
            "by_build": {k: sorted(v) for k, v in sorted(by_build.items())}}


def _fast_times(group, threshold):
    return [process_value(r) for r in group if not is_slow(r, threshold)]


def apply(cells, records):
    """Adds each cell's process floors, and takes its absolute time from its fast-mode processes
    where it has at least MIN_FAST of them (one_way_from says which); returns the cells."""
    threshold = slow_threshold(records)
    groups = defaultdict(list)
    for record in records:
        groups[cell_key(record)].append(record)
    for cell in cells:
        key = (cell["suite"], cell["mpi"], cell["compiler"], cell["variant"], cell["count"])
        group = groups.get(key, [])
        floors = [process_floor(r) for r in group]
        cell["per_rep_floor_us"] = floors
        cell["floor_us"] = spread([f for f in floors if f is not None])
        cell["slow_reps"] = sum(is_slow(r, threshold) for r in group)
        fast = _fast_times(group, threshold)
        cell["one_way_from"] = "all processes"
        if cell["slow_reps"] and len(fast) >= MIN_FAST:
            cell["one_way_us_all"] = cell["one_way_us"]
            cell["one_way_us"] = spread(fast)
            cell["one_way_from"] = "fast-mode processes"
    return cells
