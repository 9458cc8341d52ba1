"""The instruction half of thinmpi's targets, which the audit room (the point-to-point targets)
and the collectives room judge on the counts of the instructions room (doc["instructions"], read
from the results document): "within a handful of instructions of C per call" (issue 18).

A target's figure is the median over its counted cells (one per MPI, compiler, suite and size);
the worst cell is shown beside it, named, never in its place."""

import statistics
from dataclasses import dataclass

from .tables import MPI_NAMES, size_label

INSTRUCTION_SLACK = 10
# The columns of the targets tables that show the figures (columns()).
HEADERS = ["instructions over C per call (median)", "instructions over C, worst cell"]


@dataclass(frozen=True)
class Figures:
    """Instructions over C per call of a target's counted cells: their median (statistics.median:
    with an even number of cells, the mean of the two middle ones) and the worst cell's."""

    median: float
    worst: float
    worst_row: dict  # the doc["instructions"] row of the worst cell

    @property
    def met(self):
        """Whether the median is within INSTRUCTION_SLACK of C."""
        return self.median <= INSTRUCTION_SLACK


def figures_of(rows, key="difference"):
    """The Figures of `rows`' `key` (where counted), or None when none is."""
    counted = [r for r in rows if r.get(key) is not None]
    if not counted:
        return None
    worst = max(counted, key=lambda r: r[key])
    return Figures(statistics.median(r[key] for r in counted), worst[key], worst)


def target_figures(part, variant, against=None):
    """The Figures of a variant's counted cells, or None; over its protocol baseline `against`
    (c/framed) instead of its C baseline where given."""
    key = "protocol_difference" if against else "difference"
    return figures_of([r for r in (part or {}).get("rows", []) if r["variant"] == variant
                       and (against is None or r.get("protocol_baseline") == against)], key)


def columns(figures, name_call=False):
    """The HEADERS' two cells: '+7.0' and '+12.0 (tiny, MPICH gcc, 4 B)' (the worst cell's suite,
    or with `name_call` its call, e.g. 'allreduce/plus'); 'not counted' without figures."""
    if figures is None:
        return ["not counted", "—"]
    row = figures.worst_row
    where = row["variant"].split("/", 1)[1] if name_call else row["suite"]
    return [f"{figures.median:+.1f}",
            f"{figures.worst:+.1f} ({where}, {MPI_NAMES.get(row['mpi'], row['mpi'])} "
            f"{row['compiler']}, {size_label(row['bytes'])})"]


def verdict(time_met, figures):
    """A target's verdict on its time and (where counted) its instructions: 'met', or 'not met'
    naming each half that misses, the instructions with their figure, e.g.
    'not met (instructions: +18.0 over C per call, at most +10)'."""
    misses = [] if time_met else ["time"]
    if figures is not None and not figures.met:
        misses.append(f"instructions: {figures.median:+.1f} over C per call, "
                      f"at most +{INSTRUCTION_SLACK}")
    return "met" if not misses else f"not met ({'; '.join(misses)})"
