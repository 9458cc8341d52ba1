"""From launches to cells: medians, spreads, and ratios against a C variant of the same run."""

import statistics
from collections import defaultdict

# C variants compared with another C variant; every other C variant is its own baseline.
C_BASELINES = {"c/mprobe": "c/int_buffer", "c/char_mprobe": "c/char_buffer",
               "c/framed": "c/int_buffer", "c/probe": "c/int_buffer",
               "c/persistent": "c/int_buffer", "c/partitioned": "c/persistent"}


def baseline_of(variant, declared):
    """The C variant a variant's ratio is taken against."""
    return declared or C_BASELINES.get(variant) or variant


def spread(values):
    """{"median", "min", "max"} of a list of numbers (None when empty)."""
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def process_value(record):
    """A process's one-way time: the low decile of its interleaved blocks, i.e. what the path
    costs when the machine lets it run (other work on a shared VM slows whole blocks, in bursts
    or in phases that can cover most of a short process), or the whole-run mean when the record
    has no blocks."""
    blocks = record.get("block_one_way_us")
    return sorted(blocks)[len(blocks) // 10] if blocks else record["one_way_us"]


def cell_key(record):
    """What identifies a cell: (suite, mpi, compiler, variant, count)."""
    return (record["suite"], record["mpi"], record["compiler"], record["variant"],
            record["count"])


def _ratios(records):
    """Each record's ratio against its baseline in the same launch (same job, same rep)."""
    by_launch = defaultdict(dict)
    for record in records:
        by_launch[(record["job"], record["rep"])][record["variant"]] = record
    ratios = defaultdict(list)
    for launch in by_launch.values():
        for variant, record in launch.items():
            base = launch.get(baseline_of(variant, record.get("baseline")))
            if base and process_value(base) > 0:
                ratios[cell_key(record)].append(process_value(record) / process_value(base))
    return ratios


def make_cell(group, ratios):
    """One cell from the records of its repetitions."""
    first = group[0]
    times = [process_value(r) for r in group]
    return {"suite": first["suite"], "mpi": first["mpi"], "compiler": first["compiler"],
            "api": first["api"], "payload": first["payload"], "variant": first["variant"],
            "count": first["count"], "bytes": first["bytes"],
            "iterations": first["iterations"], "warmup": first["warmup"],
            "blocks": first["blocks"], "reps": len(group),
            "one_way_us": spread(times), "per_rep_us": times,
            "per_rep_mean_us": [r["one_way_us"] for r in group],
            "baseline": baseline_of(first["variant"], first.get("baseline")),
            "ratio_vs_c": spread(ratios), "per_rep_ratio": ratios,
            "verified": all(r.get("verified") for r in group),
            "thread_level": first.get("thread_level"),
            "calls_per_message": None, "bytes_per_message": None}


def aggregate(records):
    """Cells, sorted by suite, MPI, compiler, variant and count, from timed run records."""
    groups = defaultdict(list)
    for record in records:
        groups[cell_key(record)].append(record)
    ratios = _ratios(records)
    return [make_cell(groups[key], ratios.get(key, [])) for key in sorted(groups)]


def attach_audit(cells, audit_rows):
    """Copies each (mpi, compiler, variant)'s calls per message into its cells."""
    index = {(a["mpi"], a["compiler"], a["variant"]): a for a in audit_rows}
    for cell in cells:
        row = index.get((cell["mpi"], cell["compiler"], cell["variant"]))
        if row:
            cell["calls_per_message"] = row["calls"]
            cell["bytes_per_message"] = row["bytes_per_message"]
    return cells


def find(cells, **wanted):
    """The cells whose fields equal `wanted` (e.g. suite="tiny", variant="c/int_buffer")."""
    return [c for c in cells if all(c.get(k) == v for k, v in wanted.items())]


def median_of(cells, field="one_way_us", **wanted):
    """The median of the one cell matching `wanted`, or None."""
    found = find(cells, **wanted)
    return found[0][field]["median"] if found and found[0][field] else None
