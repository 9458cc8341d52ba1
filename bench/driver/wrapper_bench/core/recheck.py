"""Re-timing the cells a run finds below 0.95x C without a named cause (issue 33; docs/bench.md,
"A wrapper faster than C").

A cell of a quick run is 2-3 processes; on a shared VM one of its variants can draw fast blocks
the other did not, and a cell reads 0.78x in one run and 0.97x in the next. So, after every
suite has run, the launch that timed such a cell is made again in RECHECK_PROCESSES more
processes (the same variants, sizes and counts, so the same interleaving), and the cell's ratio
over those processes is kept beside it in results.json `rechecks`. below_c.py names the cell
"not reproduced" when their median reaches the threshold, and shows the re-timed ratio where it
does not (then the gap is the code's or the baseline's, to be found).

The engines register what they launched (register()): the cells' keys and a function that
launches the same job again and returns its cells' ratios (the node suite registers each size of
its launch apart). One launch answers every cell of its job. The cheapest jobs are relaunched
first, until a time budget, estimated from each job's own seconds per process; cells past it are
listed as not re-timed.
"""

import time

RECHECK_PROCESSES = 2
BUDGET_S = {"quick": 90.0, "full": 600.0, "smoke": 20.0}
_JOBS = {}  # job id -> {"seconds": per process, "relaunch": fn(processes) -> {key: spread}}
_CELLS = {}  # cell key -> job id


def cell_key(suite, mpi, compiler, ranks, variant, size, fs=None):
    """What names a cell across the engines: (suite, mpi, compiler, ranks, variant, bytes,
    file system: the io suite's, else None)."""
    return (suite, mpi, compiler, ranks or 2, variant, size, fs)


def register(job_id, keys, seconds_per_process, relaunch):
    """An engine launched job `job_id`, whose cells are `keys`, in about `seconds_per_process`
    a process; relaunch(processes) times it again and returns {cell key: ratio spread}."""
    _JOBS[job_id] = {"seconds": seconds_per_process, "relaunch": relaunch}
    for key in keys:
        _CELLS[key] = job_id


def forget():
    """Drops every registration (for the tests)."""
    _JOBS.clear()
    _CELLS.clear()


def launched(launch_one, processes):
    """The records of `processes` launches of one job, each launch_one(rep), which returns the
    engine's launch tuple (records first, the error or None last); None at the first error. What
    an engine's relaunch runs before it aggregates."""
    records = []
    for rep in range(processes):
        outcome = launch_one(rep)
        if outcome[-1]:
            return None
        records += outcome[0]
    return records


def entry_key(entry):
    """The cell key of a below_c entry."""
    return cell_key(entry["suite"], entry["mpi"], entry["compiler"], entry["ranks"],
                    entry["variant"], entry["bytes"], entry.get("fs"))


def run(entries, mode, processes=RECHECK_PROCESSES, clock=time.monotonic):
    """Re-times the jobs of `entries` (below_c entries without a named cause), the cheapest
    first, within the mode's budget; returns results.json `rechecks` (one row per entry with its
    key's fields, the processes, the re-timed ratio spread, None when its job was not
    relaunched, and why not) and the launches made."""
    budget, spent, answers = BUDGET_S.get(mode, BUDGET_S["quick"]), 0.0, {}
    wanted = {_CELLS[entry_key(e)] for e in entries if entry_key(e) in _CELLS}
    for job_id in sorted(wanted, key=lambda j: _JOBS[j]["seconds"]):
        job = _JOBS[job_id]
        if spent + job["seconds"] * processes > budget:
            answers[job_id] = None
            continue
        started = clock()
        answers[job_id] = job["relaunch"](processes)
        spent += clock() - started
    rows = []
    for entry in entries:
        key = entry_key(entry)
        row = {"suite": key[0], "mpi": key[1], "compiler": key[2], "ranks": key[3],
               "variant": key[4], "bytes": key[5], "fs": key[6], "processes": 0, "ratio": None,
               "why": None}
        found = answers.get(_CELLS.get(key), ())
        if key not in _CELLS:
            rows.append(dict(row, why="its suite does not relaunch its jobs"))
        elif found is None:
            rows.append(dict(row, why=f"past the re-timing budget ({budget:.0f} s)"))
        elif not found.get(key):
            rows.append(dict(row, why="the relaunch failed or did not time it"))
        else:
            rows.append(dict(row, processes=processes, ratio=found[key]))
    return rows, processes * sum(found is not None for found in answers.values())
