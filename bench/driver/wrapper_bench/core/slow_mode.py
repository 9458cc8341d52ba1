"""The slow-mode detector: which processes ran while the machine was slow, judged by the physical
floor each kernel process measures beside its variants (bench/kernels/floor.c, no MPI; its
records carry floor_before_us and floor_after_us). The floor room (suites/floor) applies it to
the matrix's cells; a suite that launches its own processes (the node and io suites) states
its mode with it too (machine_mode).

A process whose floor is far above the run's fast floor ran while the machine was slow (a loaded
host, two vCPUs sharing a core): everything it measured is slow by the same cause.
"""

import statistics

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


def machine_mode(records):
    """The mode of a suite's processes: how many ran in the slow mode ("fast", "mixed" or
    "slow"), the threshold and the median process floor; None when none measured its floor."""
    threshold = slow_threshold(records)
    found = processes(records)
    if threshold is None:
        return None
    floors = [process_floor(r) for r in found.values()]
    slow = sum(is_slow(r, threshold) for r in found.values())
    return {"processes": len(found), "slow": slow, "threshold_us": threshold,
            "median_floor_us": statistics.median(floors),
            "mode": "fast" if slow == 0 else "mixed" if slow < len(found) else "slow"}
