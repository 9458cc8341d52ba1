"""The peers table's ratios over processes: each library's ratio against the C code of a path,
taken process by process (the median the table shows, and the lowest and highest process), and
the rule that marks a cell whose claimed difference is within that spread (†)."""

from ...core.compare import spread


def _median(ratio):
    return ratio["median"] if ratio else None


def time_of(cell):
    return _median(cell.get("one_way_us") or cell.get("us")) if cell else None


def _own_ratio(cell):
    return _median(cell.get("ratio_vs_c") or cell.get("ratio")) if cell else None


def _lone(value):
    """A ratio with no spread over processes (one process, or not taken in the same ones)."""
    return {"median": value, "min": value, "max": value, "processes": 1}


def _own_spread(cell):
    """`cell`'s ratio against its own baseline over its processes, with how many there were
    (the harness's cells keep the spread but not the per-process ratios: their reps)."""
    ratio = cell.get("ratio_vs_c") or cell.get("ratio")
    if not ratio:
        return None
    per_process = cell.get("per_rep_ratio")
    return dict(ratio, processes=len(per_process) if per_process else cell.get("reps", 1))


def _chained(cell, base, c_cell, floor):
    """Per process, `cell`'s ratio to its baseline times that baseline's to the floor, over the
    path's C's to the floor: cell over C in that process (all four ran in it). Processes pair up
    by their order in the run, as path_tables.against_c_variant pairs them; None where they do
    not (a cell missing from some process)."""
    def to_floor(other):
        if other["variant"] == floor:
            return None  # the floor itself: 1.0 in every process
        return (other.get("per_rep_ratio") or []) if other.get("baseline") == floor else []
    lists = [cell.get("per_rep_ratio") or [], to_floor(base), to_floor(c_cell)]
    n = len(lists[0])
    if not n or any(ratios is not None and len(ratios) != n for ratios in lists):
        return None
    own, base_ratios, c_ratios = (ratios or [1.0] * n for ratios in lists)
    if not all(c_ratios):
        return None
    return [o * b / c for o, b, c in zip(own, base_ratios, c_ratios)]


def against_spread(cell, c_cell, lookup):
    """`cell`'s ratio against the path's C cell over processes: {"median", "min", "max",
    "processes"}, or None. Its own per-process ratios when that C is its baseline; else those
    chained to the C through the floor they share, process by process; else (processes that do
    not pair up) the chain of the medians, and with no C floor the quotient of the two medians
    (the same launches): one figure, no spread."""
    if not cell or not c_cell:
        return None
    if cell["baseline"] == c_cell["variant"]:
        return _own_spread(cell)
    floor = c_cell.get("baseline")
    base = lookup(cell["baseline"])
    if floor and base:
        per_process = _chained(cell, base, c_cell, floor)
        if per_process:
            return dict(spread(per_process), processes=len(per_process))
    c_vs_floor = 1.0 if c_cell["variant"] == floor else _own_ratio(c_cell)
    base_vs_floor = 1.0 if cell["baseline"] == floor else \
        _own_ratio(base) if base and base.get("baseline") == floor else None
    own = _own_ratio(cell)
    if floor and own and c_vs_floor and base_vs_floor:
        return _lone(own * base_vs_floor / c_vs_floor)
    return _lone(time_of(cell) / time_of(c_cell)) if time_of(cell) and time_of(c_cell) else None


def ranged(ratio):
    """Whether a ratio has a spread: taken in two processes or more."""
    return bool(ratio) and ratio["processes"] > 1


def within_spread(ratio, other):
    """Whether two ratios' ranges over processes overlap (each taken in 2 processes or more):
    the processes do not settle which of the two is lower."""
    return ranged(ratio) and ranged(other) and ratio["min"] <= other["max"] and \
        other["min"] <= ratio["max"]


def claim_within_spread(api, ratio, thin):
    """The † rule. A cell claims a difference: thinmpi's, from C (1.00× in every process); a
    peer's, from thinmpi in the same row. The claim is within the spread when thinmpi's range
    over processes holds 1.00, or the peer's range overlaps thinmpi's. A ratio of one process
    has no range and is never marked."""
    if api == "thinmpi":
        return ranged(ratio) and ratio["min"] <= 1.0 <= ratio["max"]
    return within_spread(ratio, thin)
