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

A cell of 4 KiB and up that stays below is then timed once more with every setup's buffers
aligned (core/placement.py's aligned(), as WB_ALIGN=1 does for a whole run), with what is left
of the budget: where its ratio then reaches the threshold, below_c.py names where the buffers
lie as its cause.

A cell that stays below after both is timed once more alone with its C baseline: its variant and
the baseline only, in RECHECK_PROCESSES processes, where its engine can launch a part of a job
(register()'s `alone`). A collectives launch at 1 MiB holds some 56 variants, each with its own
megabytes of buffers, run in interleaved blocks of 2 calls: what ran just before a variant (its
neighbour in the list, whose buffers left the caches and the TLB as they are) moves its blocks,
and such a cell read 0.87x in one run and 1.01x in the next. Where the two alone reach the
threshold, below_c.py names the process's other variants as the cause, with both figures.

The peers table's lines work the same way (run_peers): where a peer beats thinmpi by more than
its noise on a path with the same MPI calls and the run names no cause (suites/peers/peers.py,
unexplained_cases), thinmpi's variant and the peer's are timed once more alone with the path's C
in RECHECK_PROCESSES processes, within PEER_BUDGET_S, and the line shows what they gave: "not
reproduced" where thinmpi is then within the noise of the peer.
"""

import time

from . import placement

RECHECK_PROCESSES = 2
# Where a buffer lies in its page decides a copy's time from 4 KiB up (docs/bench.md, "Where the
# buffers lie"): a cell of that size that stays below C is timed once more with aligned setups.
PLACEMENT_BYTES = 4096
NO_LIBRARY = "no library"
# Variants whose buffers their language's runtime allocates, not malloc: libwb_align.so would
# place their C baseline's buffers and not theirs, so an aligned relaunch tells nothing of them.
OWN_ALLOCATORS = ("go", "gompi", "mpi4py")
BUDGET_S = {"quick": 90.0, "full": 600.0, "smoke": 20.0}
PEER_BUDGET_S = {"quick": 40.0, "full": 200.0, "smoke": 10.0}
ALONE_START_S = 0.5  # a launch's start, for the alone relaunches' estimate
_JOBS = {}  # job id -> {"seconds": per process, "relaunch": fn(processes) -> {key: spread},
#             "alone": fn(processes, variants) -> {key: spread}, or None, "variants": n}
_CELLS = {}  # cell key -> job id


def cell_key(suite, mpi, compiler, ranks, variant, size, fs=None):
    """What names a cell across the engines: (suite, mpi, compiler, ranks, variant, bytes,
    file system: the io suite's, else None)."""
    return (suite, mpi, compiler, ranks or 2, variant, size, fs)


def register(job_id, keys, seconds_per_process, relaunch, alone=None, variants=1):
    """An engine launched job `job_id`, whose cells are `keys`, in about `seconds_per_process`
    a process; relaunch(processes) times it again and returns {cell key: ratio spread};
    alone(processes, variants), where the engine can, times only `variants` of it (a cell's
    variant and its baseline) the same way; `variants`: how many the job has."""
    _JOBS[job_id] = {"seconds": seconds_per_process, "relaunch": relaunch, "alone": alone,
                     "variants": max(1, variants)}
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


def _within_budget(items, cost, relaunch, budget, spent, clock):
    """{item: relaunch(item), or None where it would pass the budget}, the cheapest (by
    cost(item) seconds) first, and the seconds spent."""
    answers = {}
    for item in sorted(items, key=cost):
        if spent + cost(item) > budget:
            answers[item] = None
            continue
        started = clock()
        answers[item] = relaunch(item)
        spent += clock() - started
    return answers, spent


def _relaunch_all(job_ids, processes, budget, spent, clock, where=None):
    """{job id: its relaunch's answer, or None past the budget}, the cheapest first, and the
    seconds spent. where: a context each relaunch runs in (placement.aligned); its answer is
    then "no library" when no launch got it."""
    def relaunch(job_id):
        if where is None:
            return _JOBS[job_id]["relaunch"](processes)
        with where() as handed:
            found = _JOBS[job_id]["relaunch"](processes)
            return found if handed() else NO_LIBRARY
    return _within_budget(job_ids, lambda j: _JOBS[j]["seconds"] * processes, relaunch,
                          budget, spent, clock)


def _alone_all(entries, processes, budget, spent, clock):
    """{entry index: the relaunch of its variant and baseline alone, or None past the budget},
    the cheapest first (a job's seconds scaled to 2 of its variants, and a launch's start)."""
    def job(index):
        return _JOBS[_CELLS[entry_key(entries[index])]]

    def cost(index):
        return (job(index)["seconds"] * 2 / job(index)["variants"] + ALONE_START_S) * processes

    def relaunch(index):
        return job(index)["alone"](processes, (entries[index]["baseline"],
                                               entries[index]["variant"]))
    return _within_budget(range(len(entries)), cost, relaunch, budget, spent, clock)


def _median_below(found, key, threshold):
    spread = (found or {}).get(key)
    return bool(spread) and spread["median"] < threshold


def _outcome(found, key, budget):
    """{"ratio": the cell's re-timed spread, "why": None}, or no ratio and why, of a job's
    relaunch answer `found` (None: past the budget)."""
    if found is None:
        return {"ratio": None, "why": f"past the re-timing budget ({budget:.0f} s)"}
    if found == NO_LIBRARY:
        return {"ratio": None, "why": f"no {placement.LIBRARY} in its build"}
    if not found.get(key):
        return {"ratio": None, "why": "the relaunch failed or did not time it"}
    return {"ratio": found[key], "why": None}


def run(entries, mode, processes=RECHECK_PROCESSES, clock=time.monotonic, threshold=0.95):
    """Re-times the jobs of `entries` (below_c entries without a named cause), the cheapest
    first, within the mode's budget; then, where a run does not align its setups already, the
    cells of PLACEMENT_BYTES and up that stayed below `threshold` once more with aligned setups
    (placement.aligned), with what is left of the budget (not those of OWN_ALLOCATORS). Returns
    results.json `rechecks` (one row per entry with its key's fields, the processes, the
    re-timed ratio spread, None when its job was not relaunched, and why not; "aligned": the
    same for the aligned relaunch, None where it was not tried; "alone": the same for the
    relaunch of the cell's variant with its baseline alone, where it was tried) and the
    launches made."""
    budget = BUDGET_S.get(mode, BUDGET_S["quick"])
    wanted = {_CELLS[entry_key(e)] for e in entries if entry_key(e) in _CELLS}
    answers, spent = _relaunch_all(wanted, processes, budget, 0.0, clock)
    tried = [] if placement.wanted() else [
        e for e in entries if (e.get("message_bytes", e.get("bytes")) or 0) >= PLACEMENT_BYTES
        and _median_below(answers.get(_CELLS.get(entry_key(e))), entry_key(e), threshold)]
    alignable = [e for e in tried if e["variant"].split("/")[0] not in OWN_ALLOCATORS]
    aligned, spent = _relaunch_all({_CELLS[entry_key(e)] for e in alignable}, processes,
                                   budget, spent, clock, placement.aligned)

    def still_below(entry):
        key = entry_key(entry)
        if key not in _CELLS or not _JOBS[_CELLS[key]]["alone"] or not entry.get("baseline") \
                or not _median_below(answers.get(_CELLS[key]), key, threshold):
            return False
        found = aligned.get(_CELLS[key]) if entry in alignable else None
        return not (isinstance(found, dict) and found.get(key)
                    and not _median_below(found, key, threshold))
    lonely = [e for e in entries if still_below(e)]
    alone, _ = _alone_all(lonely, processes, budget, spent, clock)
    rows = []
    for entry in entries:
        key = entry_key(entry)
        row = {"suite": key[0], "mpi": key[1], "compiler": key[2], "ranks": key[3],
               "variant": key[4], "bytes": key[5], "fs": key[6], "processes": 0, "ratio": None,
               "why": None, "aligned": None}
        if key not in _CELLS:
            rows.append(dict(row, why="its suite does not relaunch its jobs"))
            continue
        row.update(_outcome(answers[_CELLS[key]], key, budget))
        if row["ratio"]:
            row["processes"] = processes
        if entry in alignable:
            row["aligned"] = _outcome(aligned[_CELLS[key]], key, budget)
        elif entry in tried:
            row["aligned"] = {"ratio": None, "why": f"its buffers are its runtime's, which "
                                                    f"{placement.LIBRARY} does not place"}
        if entry in lonely:
            row["alone"] = _outcome(alone[lonely.index(entry)], key, budget)
        rows.append(row)
    relaunched = [a for a in (*answers.values(), *aligned.values(), *alone.values())
                  if a is not None]
    return rows, processes * len(relaunched)


def _peer_keys(case):
    """The recheck cell keys of a peers-table case's thinmpi and peer variants."""
    return tuple(cell_key(case["suite"], case["mpi"], case["compiler"], case.get("ranks"),
                          case[api], case["bytes"]) for api in ("thinmpi", "peer"))


def _peer_job(case):
    """The job that timed both variants of a case and can launch a part of itself, or None."""
    thin, peer = _peer_keys(case)
    job_id = _CELLS.get(thin)
    if job_id is None or _CELLS.get(peer) != job_id or not _JOBS[job_id]["alone"]:
        return None
    return job_id


def run_peers(cases, mode, processes=RECHECK_PROCESSES, clock=time.monotonic):
    """Times each case of the peers table (suites/peers/peers.py, unexplained_cases: a path
    where a peer is ahead of thinmpi and the run names no cause; its "c", "thinmpi" and "peer"
    variants, whose baseline is that C) once more: the three variants alone in `processes`
    processes, the cheapest first, within the mode's PEER_BUDGET_S. Returns results.json
    `peer_rechecks` (a row per case: its fields, the processes, thinmpi's and the peer's ratio
    spreads against the C, None where not re-timed, and why not) and the launches made."""
    budget = PEER_BUDGET_S.get(mode, PEER_BUDGET_S["quick"])
    jobs = {i: _JOBS[job_id] for i, case in enumerate(cases)
            if (job_id := _peer_job(case)) is not None}

    def cost(index):
        return (jobs[index]["seconds"] * 3 / jobs[index]["variants"] + ALONE_START_S) * processes

    def relaunch(index):
        case = cases[index]
        return jobs[index]["alone"](processes, (case["c"], case["thinmpi"], case["peer"]))
    answers, _ = _within_budget(jobs, cost, relaunch, budget, 0.0, clock)
    rows = []
    for index, case in enumerate(cases):
        row = dict(case, processes=0, thinmpi_ratio=None, peer_ratio=None, why=None)
        if index not in answers:
            rows.append(dict(row, why="its suite does not relaunch a part of its jobs, or the "
                                      "two ran in different processes"))
            continue
        found = answers[index]
        thin, peer = _peer_keys(case)
        if found is None:
            row["why"] = f"past the re-timing budget ({budget:.0f} s)"
        elif not (found.get(thin) and found.get(peer)):
            row["why"] = "the relaunch failed or did not time it"
        else:
            row.update(processes=processes, thinmpi_ratio=found[thin], peer_ratio=found[peer])
        rows.append(row)
    return rows, processes * sum(1 for a in answers.values() if a is not None)
