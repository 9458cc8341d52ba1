"""The slow-mode detector: which processes ran while the machine was slow, judged by two signals
of each process: the physical floor it measures beside its variants (bench/harness/floor.c, no
MPI; its records carry floor_before_us and floor_after_us) and, where it timed it, C's one-int
ping-pong (c/int_buffer at 1 int). The floor room (suites/floor) applies it to the matrix's
cells and states each MPI's mode on the report's first screen; a suite that launches its own
processes (the node and io suites) states its mode with it too (machine_mode).

A process ran in the slow mode (a loaded host, two vCPUs sharing a core: everything it measured
is slow by the same cause) when
  - its floor is above SLOW_FLOOR_US, this VM's slow-mode floor, or above SLOW_FACTOR x the
    run's fast floor (its 10th-percentile process floor: the rule for another machine, whose
    floors this VM's figures do not describe), or
  - its C 1-int one-way time is above SLOW_C_ONE_WAY_US: the floor does not always rise with
    the slow mode (issue 33: C 0.43-0.57 µs, the slow mode, with floors that had not risen,
    reported as "no slow process"), and a run wholly in the slow mode has a slow 10th
    percentile, so neither floor rule alone sees it.
"""

import statistics

# This VM's two modes as recorded (docs/bench.md, "The physical floor"), per process: the floor
# (the larger of before and after) and C's 1-int one-way time (the low decile of its blocks,
# c/int_buffer at 1 int, C harness, mpi4py's ctypes and Go's cgo alike).
#   fast mode: floors 0.024-0.063 µs (795 processes), C 1-int 0.108-0.268 µs (146 processes);
#     the docs' earlier figures: floors of median 0.058 µs with most up to 0.08 µs (729
#     processes, 2026-12-01), C 1-int 0.15-0.31 µs.
#   slow mode: floors 0.141-0.373 µs (217 processes), C 1-int 0.368-0.895 µs (39 processes;
#     3 more, whose floors rose while their C stayed at 0.15-0.21 µs, ran between the modes);
#     the docs' earlier figures: floors 0.066-0.139 µs, median 0.097 µs (107 processes under
#     load, 2026-12-01), C 1-int 0.36-0.7 µs.
# Recorded: the runs.jsonl of the 12 runs with floors of 2026-12-03 (20261203-092741, -161242,
# -161817, -185027, -194551, -194854, -200603, -201426, -202656, -202734, -202925, -203111),
# 1012 processes. The io and node suites' processes measure the same floor and agree (runs
# 20261203-092127, -111300, -125323, -141629: 0.024-0.039 µs and 0.143-0.171 µs).
FAST_MODE = {"floor_us": (0.024, 0.063), "c_one_way_us": (0.108, 0.268)}
SLOW_MODE = {"floor_us": (0.141, 0.373), "c_one_way_us": (0.368, 0.895)}
# Between the modes: above every recorded fast-mode floor (0.063 µs; the earlier 0.08 µs) and
# below every recorded slow-mode floor of the same floor kernel since 2026-12-03 (0.141 µs);
# the earlier slow-mode floors of 0.066-0.119 µs overlapped the fast ones, and only the C
# one-way time sorts those.
SLOW_FLOOR_US = 0.12
# Between the modes: above every recorded fast-mode C 1-int time (0.268 µs; the docs' 0.31 µs)
# and below every recorded slow-mode one (0.368 µs; the docs' 0.36 µs).
SLOW_C_ONE_WAY_US = 0.33
C_ONE_WAY = ("c/int_buffer", 1)  # the variant and count of the one-way signal
SLOW_FACTOR = 2.0  # the per-run rule: twice the run's fast floor
FAST_FLOOR_QUANTILE = 0.1
MIN_FAST = 2  # fast-mode processes a cell needs for its absolute time to use only them


def _key(record):
    return (record["job"], record["rep"])


def process_floor(record):
    """The larger of a process's floors before and after its variants (None when it measured
    none): a process is only as fast as its slowest moment."""
    values = [v for v in (record.get("floor_before_us"), record.get("floor_after_us"))
              if v is not None and v > 0]
    return max(values) if values else None


def c_one_way(records):
    """{(job, rep): C's 1-int one-way time} of the processes that timed it (the low decile of
    the blocks, as every process's figure is taken)."""
    found = {}
    for record in records:
        if (record.get("variant"), record.get("count")) == C_ONE_WAY:
            blocks = record.get("block_one_way_us")
            value = sorted(blocks)[len(blocks) // 10] if blocks else record.get("one_way_us")
            if value:
                found.setdefault(_key(record), value)
    return found


def processes(records):
    """{(job, rep): record} of every process that measured its floor or C's 1-int one-way
    time, one record each (one that measured its floor where there is one)."""
    found = {}
    timed = c_one_way(records)
    for record in records:
        key = _key(record)
        if process_floor(record) is not None:
            if key not in found or process_floor(found[key]) is None:
                found[key] = record
        elif key in timed:
            found.setdefault(key, record)
    return found


def fast_floor(records):
    """The run's fast floor: its 10th-percentile process floor (None without floors)."""
    floors = sorted(f for f in map(process_floor, processes(records).values()) if f is not None)
    return floors[int(len(floors) * FAST_FLOOR_QUANTILE)] if floors else None


def slow_threshold(records):
    """The process floor above which a process ran in the slow mode: the lower of this VM's
    slow-mode floor and twice the run's fast floor (None without floors)."""
    fast = fast_floor(records)
    return None if fast is None else min(SLOW_FLOOR_US, SLOW_FACTOR * fast)


def reasons(floor, c_us, threshold):
    """Why a process with this floor and C 1-int time ran in the slow mode: "floor" and / or
    "c_one_way" ([] when it did not)."""
    found = []
    if floor is not None and threshold is not None and floor > threshold:
        found.append("floor")
    if c_us is not None and c_us > SLOW_C_ONE_WAY_US:
        found.append("c_one_way")
    return found


def verdicts(records):
    """{(job, rep): reasons} of every process (an empty list: the fast mode)."""
    threshold = slow_threshold(records)
    timed = c_one_way(records)
    return {key: reasons(process_floor(r), timed.get(key), threshold)
            for key, r in processes(records).items()}


def slow_processes(records):
    """{(job, rep): reasons} of the processes that ran in the slow mode."""
    return {key: why for key, why in verdicts(records).items() if why}


def is_slow(record, slow):
    """Whether the process of `record` ran in the slow mode; `slow` is slow_processes(...)."""
    return _key(record) in slow


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _mode(slow, total):
    return "fast" if slow == 0 else "mixed" if slow < total else "slow"


def _figures(keys, found, timed):
    return {"processes": len(keys),
            "floor_us": _median(process_floor(found[k]) for k in keys),
            "c_one_way_us": _median(timed.get(k) for k in keys)}


def by_mpi(records):
    """Per MPI: how many of its processes ran in the slow mode, its mode ("fast", "mixed" or
    "slow"), and the median floor and C 1-int time of its fast and of its slow processes."""
    found, timed, judged = processes(records), c_one_way(records), verdicts(records)
    out = {}
    for mpi in sorted({r["mpi"] for r in found.values()}):
        keys = [k for k, r in found.items() if r["mpi"] == mpi]
        slow = [k for k in keys if judged[k]]
        fast = [k for k in keys if not judged[k]]
        out[mpi] = {"processes": len(keys), "slow": len(slow), "mode": _mode(len(slow), len(keys)),
                    "fast_mode": _figures(fast, found, timed),
                    "slow_mode": _figures(slow, found, timed)}
    return out


def machine_mode(records):
    """The mode of a suite's processes: how many ran in the slow mode ("fast", "mixed" or
    "slow"), the floor threshold and the median process floor; None when none measured its
    floor or C's 1-int time."""
    found = processes(records)
    if not found:
        return None
    slow = slow_processes(records)
    return {"processes": len(found), "slow": len(slow), "threshold_us": slow_threshold(records),
            "c_one_way_threshold_us": SLOW_C_ONE_WAY_US,
            "median_floor_us": _median(process_floor(r) for r in found.values()),
            "mode": _mode(len(slow), len(found))}


def rule_text(threshold_us, where="run", c_one_way=True):
    """The rule in words, for the report: 'a floor above 0.052 µs (the lower of 0.12 µs, this
    VM's slow-mode floor, and 2× the run's 10th-percentile process floor) or C's 1-int one-way
    above 0.33 µs' (without the last part where the processes do not time C's 1 int)."""
    floor = "—" if threshold_us is None else f"{threshold_us:.3f} µs"
    text = (f"a floor above {floor} (the lower of {SLOW_FLOOR_US:g} µs, this VM's slow-mode "
            f"floor, and {SLOW_FACTOR:g}× the {where}'s 10th-percentile process floor)")
    return text + (f" or C's 1-int one-way above {SLOW_C_ONE_WAY_US:g} µs" if c_one_way else "")
