"""Faster than C: every timed cell where a wrapper is below 0.95x its C baseline in the same
processes, each with a named cause or "no named cause" (issue 33, item 3; docs/bench.md, "A
wrapper faster than C").

It reads the results document only (the timed cells, the harness parts' cells and audits, the
counted instructions), as the first screen does; it computes no ratio of its own. The causes,
in the order they are tried, all of them named where they hold:

1. the calls differ: the audit's calls of the wrapper and of its C baseline differ in a call
   made or left out, or made more or fewer times (another protocol); queries that move nothing
   (QUERY_CALLS, e.g. MPI_Get_count) are left out of the comparison: a few nanoseconds each,
   they explain no gap worth naming, and an unexplained cell still shows them;
2. the instructions differ: fewer allocations per call than C's, or fewer instructions outside
   MPI (results.json `instructions`, counted under callgrind);
3. within its spread: the cell's highest per-process ratio reaches 0.95x;
4. oversubscribed: more ranks than the machine's cores (the ranks wait for each other's
   timeslices; docs/bench.md says such ratios say little);
5. a recorded cause (core/recorded_causes.py): what the run cannot derive, with where it is
   shown;
6. not reproduced: the run timed the cell's launch again in more processes (core/recheck.py,
   results.json `rechecks`) and their median ratio reaches 0.95x. A cell that stays below is
   shown with its re-timed ratio: the gap is then the code's or the baseline's, to be found;
7. where the buffers lie: a cell of 4 KiB and up that stays below is timed once more with every
   setup's buffers aligned (core/placement.py, as WB_ALIGN=1 does for a whole run), and that
   median reaches 0.95x: the gap was where glibc's heap put C's buffers and the wrapper's
   (docs/bench.md, "Where the buffers lie");
8. the process's other variants: a cell that stays below after both is timed once more with
   only its variant and its C baseline in the process, and that median reaches 0.95x: the gap
   was what the launch's other variants left in the caches before its blocks (core/recheck.py;
   docs/bench.md, "A wrapper faster than C"). Both figures are shown.
"""

from .core import recheck
from .core.recorded_causes import recorded
from .core.tables import Table, calls_text, size_label
from .suites.serialization.serial_suite import cell_message_bytes, size_text

THRESHOLD = 0.95
WRAPPERS = ("thinmpi", "thinmpi-checked", "boost", "kamping", "mpl", "mpi4py", "go")
# The harness parts with a C baseline per cell: (results.json key, its ratio field).
HARNESS_PARTS = (("collectives", "ratio"), ("neighbors", "ratio"), ("rma", "ratio"),
                 ("io", "ratio_vs_c"), ("node", "ratio_vs_c"))
# Queries that move nothing: one made or left out explains no gap worth naming.
QUERY_CALLS = ("MPI_Comm_size", "MPI_Comm_rank", "MPI_Finalized", "MPI_Get_count",
               "MPI_Get_elements", "MPI_Type_size", "MPI_File_get_byte_offset",
               "MPI_File_get_size")
NODE_BASELINES = {"rate": "c/rate_isend"}  # node_suite.py's C_RATE; the rest: C_KNOWN
def _entry(suite, cell, baseline, ratio, size, calls, c_calls, counted):
    message = cell_message_bytes(cell["variant"], cell.get("count")) \
        if suite == "serialization" else None
    return {"suite": suite, "mpi": cell["mpi"], "compiler": cell["compiler"],
            "ranks": cell.get("ranks", 2), "variant": cell["variant"], "baseline": baseline,
            "bytes": size, "message_bytes": size if message is None else message,
            "count": cell.get("count"), "fs": cell.get("fs"),
            "processes": cell.get("reps"), "ratio": ratio, "calls": calls, "c_calls": c_calls,
            "instructions": counted}


def _timed(doc):
    """The p2p suites' cells (tiny, sweep, osu, serialization, ...) of a wrapper below C."""
    counted = {(r["suite"], r["mpi"], r["compiler"], r["variant"], r["count"]): r
               for r in (doc.get("instructions") or {}).get("rows", [])}
    cells = doc.get("cells", [])
    index = {(c["suite"], c["mpi"], c["compiler"], c["variant"], c["count"]): c for c in cells}
    found = []
    for cell in cells:
        ratio = cell.get("ratio_vs_c")
        if cell["api"] not in WRAPPERS or cell["baseline"] == cell["variant"] or not ratio:
            continue
        key = (cell["suite"], cell["mpi"], cell["compiler"])
        base = index.get(key + (cell["baseline"], cell["count"])) or {}
        found.append(_entry(cell["suite"], cell, cell["baseline"], ratio, cell["bytes"],
                            cell.get("calls_per_message"), base.get("calls_per_message"),
                            counted.get(key + (cell["variant"], cell["count"]))))
    return found


def _audit_calls(rows):
    """{(mpi, compiler, ranks, variant, bytes): calls} of a harness audit: a rank's calls per
    call, averaged over the ranks' rows where the audit counts each rank apart (rma, io);
    bytes None where the audit has none."""
    by_key = {}
    for row in rows:
        key = (row["mpi"], row["compiler"], row.get("ranks", 2), row["variant"], row.get("bytes"))
        by_key.setdefault(key, []).append(row["calls"])
    return {key: {name: sum(c.get(name, 0.0) for c in found) / len(found)
                  for name in dict.fromkeys(n for c in found for n in c)}
            for key, found in by_key.items()}


def _harness(doc):
    """The harness parts' cells of a wrapper below C, with their audits' calls."""
    counted = {(r["mpi"], r["compiler"], r["variant"], r["count"]): r
               for r in (doc.get("instructions") or {}).get("rows", [])
               if r["suite"] == "collectives"}
    found = []
    for key, field in HARNESS_PARTS:
        part = doc.get(key) or {}
        calls = _audit_calls(part.get("audit", []))
        for cell in part.get("cells", []):
            api = cell.get("api") or cell["variant"].split("/")[0]
            ratio = cell.get(field)
            if api not in WRAPPERS or not ratio:
                continue
            baseline = cell.get("baseline") or (f"c/{cell['op']}" if key == "io" else
                                                NODE_BASELINES.get(cell.get("kind"),
                                                                   "c/char_buffer"))
            where = (cell["mpi"], cell["compiler"], cell.get("ranks", 2))

            def audited(variant):
                """Its calls at the cell's size, else at the size the audit counted (the io
                audit counts one size: a call's calls do not move with its size)."""
                exact = calls.get(where + (variant, cell.get("bytes")))
                return exact or next((found for key, found in calls.items()
                                      if key[:4] == where + (variant,)), None)
            found.append(_entry(key, cell, baseline, ratio, cell.get("bytes"),
                                audited(cell["variant"]), audited(baseline),
                                counted.get((cell["mpi"], cell["compiler"], cell["variant"],
                                             cell.get("count")))
                                if key == "collectives" else None))
    return found


def _calls_cause(entry):
    mine, theirs = entry["calls"], entry["c_calls"]
    if not mine or not theirs:
        return None
    def moving(calls):
        return {name: round(n, 1) for name, n in calls.items()
                if n >= 0.05 and name not in QUERY_CALLS}
    if moving(mine) == moving(theirs):
        return None
    return (f"the calls differ: {entry['variant']} makes {calls_text(mine)} where "
            f"{entry['baseline']} makes {calls_text(theirs)}")


def _instructions_cause(entry):
    row = entry["instructions"]
    if not row or row.get("c_instructions") is None:
        return None
    found = []
    if row["allocations"] < row["c_allocations"] - 0.005:
        found.append(f"{row['allocations']:g} allocations a call against C's "
                     f"{row['c_allocations']:g}")
    if row["difference"] < -0.5:
        found.append(f"{row['difference']:+.0f} instructions outside MPI "
                     f"({row['instructions']:.0f} against C's {row['c_instructions']:.0f})")
    return "the instructions differ: " + ", ".join(found) if found else None


def _spread_cause(entry):
    ratio = entry["ratio"]
    if ratio["max"] >= THRESHOLD:
        return f"within its spread ({ratio['min']:.2f}-{ratio['max']:.2f}x)"
    return None


def _rechecks(doc):
    """{recheck cell key: row} of results.json `rechecks`."""
    return {recheck.cell_key(r["suite"], r["mpi"], r["compiler"], r["ranks"], r["variant"],
                             r["bytes"], r.get("fs")): r for r in doc.get("rechecks") or []}


def _retimed(row):
    """'re-timed in 2 more processes: 0.97x (0.96-0.99x)'."""
    ratio = row["ratio"]
    return (f"re-timed in {row['processes']} more processes: {ratio['median']:.2f}x "
            f"({ratio['min']:.2f}-{ratio['max']:.2f}x)")


def _not_reproduced(row):
    if row and row["ratio"] and row["ratio"]["median"] >= THRESHOLD:
        return "not reproduced: " + _retimed(row)
    return None


# The re-timings after the plain one (core/recheck.py), each a results.json `rechecks` field:
# (field, how its figure reads, the cause it names where it reaches THRESHOLD, the docs section,
# how a cell not re-timed so reads).
STAGES = (("aligned", "with every setup's buffers aligned", "where the buffers lie",
           "Where the buffers lie", "not re-timed with aligned buffers"),
          ("alone", "alone with its C baseline", "the process's other variants",
           "A wrapper faster than C", "not re-timed alone with its C baseline"))


def _stage_text(row, stage):
    """'with every setup's buffers aligned, 1.00x (0.99-1.01x) in 2 more processes'."""
    field, reads = stage[:2]
    ratio = row[field]["ratio"]
    return (f"{reads}, {ratio['median']:.2f}x ({ratio['min']:.2f}-{ratio['max']:.2f}x) in "
            f"{row['processes']} more processes")


def _stage_causes(row):
    """The causes the later re-timings name: each one whose median reaches THRESHOLD."""
    causes = []
    for stage in STAGES:
        field, _, cause, section, _ = stage
        found = (row or {}).get(field) or {}
        if found.get("ratio") and found["ratio"]["median"] >= THRESHOLD:
            causes.append(f"{cause}: {_retimed(row)}; {_stage_text(row, stage)} "
                          f"(docs/bench.md, {section})")
    return causes


def _checked(entry, retimed=None):
    """What the run shows of a cell it cannot explain: '(the same calls as C; +41
    instructions outside MPI, allocations as C's; re-timed in 2 more processes: 0.86x
    (0.85-0.87x))', or ''."""
    found = []
    if entry["calls"] and entry["c_calls"]:
        found.append("the same calls as C" if entry["calls"] == entry["c_calls"] else
                     f"{calls_text(entry['calls'])} where C makes {calls_text(entry['c_calls'])}")
    row = entry["instructions"]
    if row and row.get("c_instructions") is not None:
        found.append(f"{row['difference']:+.0f} instructions outside MPI, "
                     f"{row['allocations']:g} allocations a call against C's "
                     f"{row['c_allocations']:g}")
    if retimed and retimed["ratio"]:
        found.append(_retimed(retimed))
        for stage in STAGES:
            tried = retimed.get(stage[0])
            if tried:
                found.append(_stage_text(retimed, stage) if tried["ratio"] else
                             f"{stage[4]}: {tried['why']}")
    elif retimed:
        found.append(f"not re-timed: {retimed['why']}")
    return f" ({'; '.join(found)})" if found else ""


def _oversubscribed(entry, cores):
    if cores and entry["ranks"] > cores:
        return (f"oversubscribed: {entry['ranks']} ranks on {cores} cores wait for each "
                "other's timeslices (docs/bench.md, The collectives suite)")
    return None


def explained(entry, cores=None, rechecks=None):
    """The entry with its causes: "cause" (one line) and "named"; an unexplained cell says
    "no named cause" and what the run shows of it. cores: the machine's (context); rechecks:
    _rechecks(doc)."""
    retimed = (rechecks or {}).get(recheck.entry_key(entry))
    causes = [cause for cause in (_calls_cause(entry), _instructions_cause(entry),
                                  _spread_cause(entry), _oversubscribed(entry, cores),
                                  recorded(entry["variant"], entry["mpi"], entry["bytes"]),
                                  _not_reproduced(retimed), *_stage_causes(retimed))
              if cause]
    return dict(entry, named=bool(causes),
                cause="; ".join(causes) or "no named cause" + _checked(entry, retimed))


def part(doc):
    """results.json's `below_c`: the threshold, every cell below it with its cause, and the
    counts (below, named, unnamed)."""
    cores, rechecks = (doc.get("context") or {}).get("cpu_count"), _rechecks(doc)
    cells = [explained(e, cores, rechecks) for e in _timed(doc) + _harness(doc)
             if e["ratio"]["median"] < THRESHOLD]
    named = sum(c["named"] for c in cells)
    return {"threshold": THRESHOLD, "below": len(cells), "named": named,
            "unnamed": len(cells) - named,
            "unnamed_one_process": sum(not c["named"] and c["processes"] == 1 for c in cells),
            "cells": cells}


def summary_line(doc):
    """'26 cells below 0.95x C: 20 named, 6 without a named cause' (None when none is)."""
    found = doc.get("below_c") or part(doc)
    if not found["below"]:
        return None
    return (f"{found['below']} cells below {THRESHOLD:.2f}x C: {found['named']} named, "
            f"{found['unnamed']} without a named cause")


def _row(cell):
    size = (cell["suite"] == "serialization" and size_text(cell["variant"], cell["count"])) or \
        (size_label(cell["bytes"]) if cell["bytes"] is not None else "—")
    ratio = cell["ratio"]
    # three digits: a cell at 0.948x is below 0.95x, which two would hide
    spread = f"{ratio['min']:.3f}-{ratio['max']:.3f}x" if ratio["min"] != ratio["max"] else "—"
    return [cell["suite"], f"{cell['mpi']} {cell['compiler']}"
            + (f", {cell['ranks']} ranks" if cell["ranks"] != 2 else ""), cell["variant"],
            cell["baseline"], size, f"{ratio['median']:.3f}x", spread, cell["cause"]]


CAPTION = ("Every timed cell where a wrapper (thinmpi, its checked mode, Boost.MPI, KaMPIng, "
           "MPL, mpi4py, Go) is below {threshold:.2f}x its C baseline in the same processes, "
           "with its cause as this run shows it: the calls differ (the audit: a call other "
           "than a query such as MPI_Get_count, made or left out, or made more or fewer "
           "times), the instructions differ (fewer allocations or instructions outside MPI, "
           "where the run counted them), within its spread (its highest per-process ratio reaches "
           "{threshold:.2f}x), more ranks than cores, a recorded cause the run cannot "
           "derive, not reproduced (the run timed the cell's launch again in more "
           "processes, after every suite, and their median reaches {threshold:.2f}x), or "
           "where the buffers lie (a cell of 4 KiB and up still below when re-timed reaches "
           "{threshold:.2f}x timed once more with every setup's buffers aligned), or the "
           "process's other variants (a cell still below then reaches {threshold:.2f}x timed "
           "once more with only its C baseline in the process). "
           "{below} cells below: {named} named, {unnamed} without a named cause "
           "(listed first); each of those means the C baseline is to be fixed or the cause "
           "found (docs/bench.md, \"A wrapper faster than C\").")


def section(doc, section_type):
    """The report's section, placed after the targets."""
    found = doc.get("below_c") or part(doc)
    paragraph = CAPTION.format(threshold=THRESHOLD, **{k: found[k] for k in
                                                         ("below", "named", "unnamed")})
    if found["unnamed_one_process"]:
        paragraph += (f" {found['unnamed_one_process']} of the cells without a named cause "
                      "were timed in one process, which has no spread to read: time them "
                      "again in more processes (FULL=1) before fixing their C.")
    rows = [_row(c) for c in sorted(found["cells"], key=lambda c: (c["named"], c["suite"],
                                                                  c["mpi"], c["variant"]))]
    table = Table("below-c", f"Wrappers below {THRESHOLD:.2f}x C, and why",
                  ["suite", "build", "variant", "C baseline", "size", "ratio", "spread",
                   "cause"], rows)
    return section_type("Faster than C", [paragraph], [table] if rows else [])
