"""The report's first screen: every library's ratio to C per path (one chart, and the same figures
as a table) and the verdicts of every targets table, under the machine's mode (report.py's
mode_lines); report.py puts the details (machine, versions, method, every other section) below
it.

It computes no ratio of its own: the ratios are those the rooms' tables show (their `ratios`
hooks, core/path_ratios.py), the verdicts those of the rooms' targets tables."""

import re
import statistics
from dataclasses import dataclass

from . import below_c, rooms
from .core.path_ratios import GROUPS, LIBRARIES
from .core.tables import Table, size_label, times

CHART = "first_screen.png"
TITLE = "The answer on this machine"
# The thinmpi-only paths drawn (the targets table's rows of these variants); its other targets
# are in the verdicts below the chart.
THINMPI_ONLY = ("thinmpi/struct", "thinmpi/vector_framed", "thinmpi/persistent")
MAX_ROWS = 24  # what fits one screen; the caption names the rows cut beyond it
LIBRARY_NAMES = dict(LIBRARIES)


@dataclass(frozen=True)
class Spread:
    """A library's ratios on one path: the median over its cells, the lowest, the highest."""

    median: float
    low: float
    high: float
    cells: int


@dataclass(frozen=True)
class PathRow:
    """One path of the chart: its group, label, sizes and each measured library's spread
    (a library without a cell on the path is absent)."""

    group: str
    path: str
    smallest: int
    largest: int
    libraries: dict

    def sizes(self):
        """'4 B', '32 B-256 B'."""
        low, high = size_label(self.smallest), size_label(self.largest)
        return low if low == high else f"{low}-{high}"

    def label(self):
        return f"{self.group}: {self.path} ({self.sizes()})"


def gathered(doc):
    """[PathRatio] of every room's tables; of the thinmpi-only rows, THINMPI_ONLY's."""
    found = [r for room in rooms.ROOMS if room.ratios for r in room.ratios(doc)]
    return [r for r in found if r.group != "thinmpi only" or r.variant in THINMPI_ONLY]


def _order(ratios):
    """The paths in GROUPS order; within a group, in the order of thinmpi's ratios (the peers
    table's order of paths), then of the others."""
    first = {}
    for k, ratio in enumerate(ratios):
        first.setdefault((ratio.group, ratio.path), (ratio.api != "thinmpi", k))
        if ratio.api == "thinmpi":
            first[(ratio.group, ratio.path)] = min(first[(ratio.group, ratio.path)], (False, k))
    return sorted(first, key=lambda key: (GROUPS.index(key[0]), first[key]))


def path_rows(doc):
    """The chart's rows, one per path (_order)."""
    ratios = gathered(doc)
    by_path = {}
    for ratio in ratios:
        by_path.setdefault((ratio.group, ratio.path), []).append(ratio)
    rows = []
    for group, path in _order(ratios):
        found = by_path[(group, path)]
        libraries = {}
        for api, _ in LIBRARIES:
            values = [r.ratio for r in found if r.api == api]
            if values:
                libraries[api] = Spread(statistics.median(values), min(values), max(values),
                                        len(values))
        sizes = [r.bytes for r in found]
        rows.append(PathRow(group, path, min(sizes), max(sizes), libraries))
    return rows


def shown(rows):
    """(the rows drawn, the labels of those cut beyond MAX_ROWS)."""
    return rows[:MAX_ROWS], [row.label() for row in rows[MAX_ROWS:]]


def libraries_of(rows):
    """The libraries with a cell on some row, in LIBRARIES order."""
    return [api for api, _ in LIBRARIES if any(api in row.libraries for row in rows)]


def _spread_text(spread):
    if spread is None:
        return "—"
    cells = "1 cell" if spread.cells == 1 else f"{spread.cells} cells"
    return f"{times(spread.median)} ({times(spread.low)}-{times(spread.high)}, {cells})"


def caption(rows):
    """What the chart and its table show, and what they leave out."""
    drawn, cut = shown(rows)
    text = ("Each library's time against the C code of the same path, taken in the same "
            "processes: the marker is the median over its cells (MPIs x compilers x sizes), "
            "the whisker runs from its lowest to its highest cell; log x axis, the line at "
            "1.00x is C. The figures are those of the peers table, the Go tables and the "
            "targets table below; a library with no cell on a path (not built, not run, "
            "MPI 3.1) has no marker there. Go's unknown-size receive is measured against C's "
            "MPI_Probe path, not the matched probe, so it has no row (see Go through cgo). "
            f"thinmpi-only rows: {', '.join(THINMPI_ONLY)}; its other targets are in the "
            "verdicts.")
    if cut:
        text += f" Cut to fit one screen: {'; '.join(cut)} (in the table below)."
    return text


def ratio_table(rows):
    """The chart's figures as a table: one row per path, one column per library."""
    apis = libraries_of(rows)
    body = [[row.label()] + [_spread_text(row.libraries.get(api)) for api in apis]
            for row in rows]
    return Table("first-screen", "Every library against C, per path: median (lowest-highest "
                 "cell, cells)", ["path (sizes)"] + [LIBRARY_NAMES[api] for api in apis], body,
                 caption(rows))


# --- the targets' verdicts, read from the rooms' targets tables ---------------------------

def _number(text):
    found = re.search(r"\d+\.\d+", text or "")
    return float(found.group()) if found else None


def _column(headers, *starts):
    lowered = [h.lower() for h in headers]
    return next((i for i, h in enumerate(lowered) if i and h.startswith(starts)), None)


def target_verdicts(table):
    """[(name, median, bound, verdict)] of a targets table's rows; a table without a verdict
    column (the median is what its note says to read) is judged as the others are: its median
    against its bound ('met', 'not met'; no cells or no bound: 'no verdict')."""
    verdict_at = _column(table.headers, "verdict")
    bound_at = _column(table.headers, "bound", "target")
    median_at = _column(table.headers, "median")
    build_at = _column(table.headers, "build")
    found = []
    for row in table.rows:
        name = row[0] + (f" ({row[build_at]})" if build_at is not None else "")
        median = row[median_at] if median_at is not None else "—"
        bound = row[bound_at] if bound_at is not None else ""
        if verdict_at is not None:
            verdict = row[verdict_at]
        else:
            value, limit = _number(median), _number(bound)
            verdict = "no verdict" if value is None or limit is None else \
                "met" if (value < limit if bound.startswith("<") else value <= limit) else \
                "not met"
        found.append((name, median, bound, verdict))
    return found


def _missed_text(name, median, bound, verdict):
    """'thinmpi/vector_alloc: 1.06× against ≤ 1.03× (time)'; a target missed on its
    instructions alone leads with them: 'thinmpi/scalar: instructions +18.0 over C per call,
    at most +10 (time 1.00× against ≤ 1.02×: met)'."""
    why = verdict[len("not met"):].strip(" :()")
    figures = "" if median == "—" else f" {median}" + (f" against {bound}" if bound else "")
    if why.startswith("instructions:"):
        held = f" (time{figures}: met)" if figures else ""
        return f"{name}: instructions{why[len('instructions:'):]}{held}"
    return f"{name}:{figures}" + (f" ({why})" if why else "")


def verdict_row(table):
    """One row of the verdicts table: the targets table, how many met, which not (with the
    median against the bound), which met, which have no verdict."""
    verdicts = target_verdicts(table)
    met = [name for name, _, _, verdict in verdicts if verdict == "met"]
    missed = [_missed_text(*found) for found in verdicts if found[3].startswith("not met")]
    other = [f"{name} ({verdict})" for name, _, _, verdict in verdicts
             if verdict != "met" and not verdict.startswith("not met")]
    judged = len(met) + len(missed)
    return [table.title, f"{len(met)} of {judged} met", "; ".join(missed) or "—",
            ", ".join(met) or "—", ", ".join(other) or "—"]


def targets_tables(sections):
    """The targets tables of the report's sections, in their order."""
    return [t for s in sections for t in s.tables if "targets" in t.key and t.rows]


def verdicts_table(sections):
    """Every targets table's verdicts, one row per table."""
    return Table("first-screen-verdicts", "The targets: met and not met",
                 ["targets", "verdict", "not met (median over its cells against the target)",
                  "met", "no verdict"],
                 [verdict_row(t) for t in targets_tables(sections)],
                 "Each targets table's own verdicts (their tables are below); the neighbors' "
                 "and one-sided tables give no verdict column, so their median is held to "
                 "their target here, as the other tables' verdicts (median) do.")


def section(doc, charts, sections, section_type):
    """The first screen under the machine's mode: the chart, the verdicts, the chart's
    table."""
    rows = path_rows(doc)
    drawn = [c for c in charts if c[1] == CHART]
    paragraphs = [] if rows else ["No library ran beside C on a path of this run."]
    below = below_c.summary_line(doc)
    paragraphs += [f"{below} (Faster than C, below the targets)."] if below else []
    tables = [verdicts_table(sections)] + ([ratio_table(rows)] if rows else [])
    return section_type(TITLE, paragraphs, [t for t in tables if t.rows], drawn,
                        charts_first=True)
