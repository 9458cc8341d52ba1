"""The cells of the multi-rank harness's launches (collectives, neighbors, rma): each variant's
time and its ratio to the baseline taken in the same process, the checked mode's ratio to the
unchecked call, and the audit's calls per call and rank."""

import statistics
from collections import defaultdict

from .audit import calls_per_message
from .harness import CHECKED_API, unchecked_of


def process_value(record):
    """A process's figure: the low decile of its blocks (the whole-run mean without blocks)."""
    blocks = record.get("block_us")
    return sorted(blocks)[len(blocks) // 10] if blocks else record["us"]


def _spread(values):
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def cell_key(record):
    """(mpi, compiler, ranks, variant, count)."""
    return (record["mpi"], record["compiler"], record["ranks"], record["variant"],
            record["count"])


def aggregate(records):
    """Cells from timed records: time and ratio to the baseline taken in the same process."""
    by_process = defaultdict(dict)
    for record in records:
        by_process[(record["job"], record["rep"])][record["variant"]] = record
    ratios, groups = defaultdict(list), defaultdict(list)
    vs_unchecked = defaultdict(list)
    for process in by_process.values():
        for record in process.values():
            groups[cell_key(record)].append(record)
            for reference, into in ((record.get("baseline"), ratios),
                                    (unchecked_of(record["variant"]), vs_unchecked)):
                base = process.get(reference or "")
                if base and process_value(base) > 0:
                    into[cell_key(record)].append(process_value(record) / process_value(base))
    return [_cell(groups[key], ratios[key], vs_unchecked[key]) for key in sorted(groups)]


def _cell(group, ratios, vs_unchecked):
    first = group[0]
    cell = {"mpi": first["mpi"], "compiler": first["compiler"], "ranks": first["ranks"],
            "variant": first["variant"], "api": first["api"], "op": first["op"],
            "form": first["form"], "baseline": first.get("baseline"),
            "count": first["count"], "bytes": first["bytes"], "reps": len(group),
            "iterations": first["iterations"], "us": _spread([process_value(r) for r in group]),
            "ratio": _spread(ratios), "verified": all(r.get("verified") for r in group)}
    if first["api"] == CHECKED_API:  # the checked call against the unchecked one, same process
        cell.update(unchecked=unchecked_of(first["variant"]),
                    ratio_vs_unchecked=_spread(vs_unchecked))
    return cell


def audit_rows(job, audit_lines):
    """MPI calls per collective call and rank, per variant, from one audit launch, and the ranks
    those calls addressed per call and rank ("peers": libwb_audit adds 1 per send, every rank
    per dense all-to-all, the out-degree per neighborhood call)."""
    per_label = calls_per_message(audit_lines, job.iterations / 2.0)
    peers = defaultdict(int)
    for line in audit_lines:
        peers[line["label"]] += line.get("peers", 0)
    return [{"mpi": job.build.mpi, "compiler": job.build.compiler, "ranks": job.ranks,
             "variant": label, "calls": {c: n / counted["ranks"]
                                         for c, n in counted["calls"].items()},
             "peers": peers[label] / job.iterations / counted["ranks"]}
            for label, counted in sorted(per_label.items())]
