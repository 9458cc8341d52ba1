"""The physical floor of every process: a cache-line ping-pong between the two ranks' cores
(bench/harness/floor.c, no MPI) that each kernel process measures before and after its variants
and writes into its records as floor_before_us and floor_after_us.

A process whose floor is far above the run's fast floor, or above this VM's slow-mode floor, or
whose C 1-int one-way time is above the modes' boundary, ran while the machine was slow (a loaded
host, two vCPUs sharing a core): everything it measured is slow by the same cause. Such a
process is in the slow mode; the absolute times of a cell come from its fast-mode processes
where it has enough of them. Ratios keep every process: they are taken inside one process, and
a slow phase slows the variant and its baseline alike.
"""

import statistics
from collections import defaultdict

from ...core.compare import cell_key, process_value, spread
from ...core.slow_mode import (FAST_FLOOR_QUANTILE, MIN_FAST, SLOW_C_ONE_WAY_US,  # noqa: F401
                               SLOW_FACTOR, SLOW_FLOOR_US, by_mpi, c_one_way, fast_floor,
                               is_slow, process_floor, processes, slow_processes,
                               slow_threshold)

# The slow-mode rule itself (a floor above this VM's slow-mode floor or twice the run's fast
# floor, or C's 1-int one-way above the modes' boundary, and why) is core/slow_mode.py's.


def summary(records):
    """The run's floor: its spread (best, fast floor, median, highest), the slow-mode rule's
    thresholds, the processes in the slow mode (with why) and each MPI's mode."""
    found = processes(records)
    floors = [f for f in map(process_floor, found.values()) if f is not None]
    if not floors:
        return None
    slow_keys, timed = slow_processes(records), c_one_way(records)
    slow = [{"job": job, "rep": rep, "mpi": r["mpi"], "compiler": r["compiler"],
             "floor_us": process_floor(r), "c_one_way_us": timed.get((job, rep)),
             "reasons": slow_keys[(job, rep)]}
            for (job, rep), r in sorted(found.items()) if (job, rep) in slow_keys]
    by_build = defaultdict(list)
    for record in found.values():
        if process_floor(record) is not None:
            by_build[f"{record['mpi']}/{record['compiler']}"].append(process_floor(record))
    return {"best_us": min(floors), "fast_floor_us": fast_floor(records),
            "median_us": statistics.median(floors), "highest_us": max(floors),
            "slow_factor": SLOW_FACTOR, "threshold_us": slow_threshold(records),
            "slow_floor_us": SLOW_FLOOR_US, "c_one_way_threshold_us": SLOW_C_ONE_WAY_US,
            "processes": len(found), "slow": slow, "min_fast": MIN_FAST,
            "by_build": {k: sorted(v) for k, v in sorted(by_build.items())},
            "by_mpi": by_mpi(records)}


def _fast_times(group, slow):
    return [process_value(r) for r in group if not is_slow(r, slow)]


def apply(cells, records):
    """Adds each cell's process floors, and takes its absolute time from its fast-mode processes
    where it has at least MIN_FAST of them (one_way_from says which); returns the cells."""
    slow = slow_processes(records)
    groups = defaultdict(list)
    for record in records:
        groups[cell_key(record)].append(record)
    for cell in cells:
        key = (cell["suite"], cell["mpi"], cell["compiler"], cell["variant"], cell["count"])
        group = groups.get(key, [])
        floors = [process_floor(r) for r in group]
        cell["per_rep_floor_us"] = floors
        cell["floor_us"] = spread([f for f in floors if f is not None])
        cell["slow_reps"] = sum(is_slow(r, slow) for r in group)
        fast = _fast_times(group, slow)
        cell["one_way_from"] = "all processes"
        if cell["slow_reps"] and len(fast) >= MIN_FAST:
            cell["one_way_us_all"] = cell["one_way_us"]
            cell["one_way_us"] = spread(fast)
            cell["one_way_from"] = "fast-mode processes"
    return cells
