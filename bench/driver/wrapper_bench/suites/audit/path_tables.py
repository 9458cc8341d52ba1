"""The report's tables about paths rather than times: the PMPI audit, the nm symbols, thinmpi
against its targets, and the cells that are missing or failed."""

import statistics

from ...core.compare import find
from ...core.instruction_targets import HEADERS as INSTRUCTION_HEADERS
from ...core.instruction_targets import columns, target_figures, verdict
from ...core.path_ratios import PathRatio
from ...core.tables import MPI_NAMES, MPI_ORDER, Table, calls_text, present, times

# thinmpi's performance targets (docs/bench.md, Targets): variant -> largest ratio against its
# C baseline.
THINMPI_TARGETS = {"thinmpi/scalar": 1.02, "thinmpi/span": 1.02,
                   "thinmpi/vector_bounded": 1.02, "thinmpi/string": 1.02,
                   "thinmpi/char_span": 1.02, "thinmpi/struct": 1.02,
                   "thinmpi/vector_alloc": 1.03, "thinmpi/vector_alloc_uninit": 1.03,
                   "thinmpi/string_alloc": 1.03, "thinmpi/vector_framed": 1.05,
                   "thinmpi/vector_framed_uninit": 1.05,
                   "thinmpi/string_framed": 1.05, "thinmpi/vector_reuse": 1.03,
                   "thinmpi/persistent": 1.02,
                   "thinmpi/ser_vecstr": 1.10, "thinmpi/ser_map": 1.10,
                   "thinmpi/ser_map_flat": 1.10, "thinmpi/ser_record": 1.10,
                   "thinmpi/ser_vecstr_reuse": 1.10, "thinmpi/ser_map_reuse": 1.10,
                   "thinmpi/ser_map_flat_reuse": 1.10, "thinmpi/ser_record_reuse": 1.10}
# Variants shown without a verdict of their own: the cost they carry that their C baseline does
# not, and the variant judged in their place.
NOT_JUDGED = {"thinmpi/ser_map": ("std::map allocates a node per entry, C one array",
                                  "thinmpi/ser_map_flat"),
              "thinmpi/ser_map_reuse": ("std::map links and balances a node per entry, C fills "
                                        "one array", "thinmpi/ser_map_flat_reuse")}
# Targets that depend on the payload's size: variant -> ((smallest bytes, largest bytes or None,
# bound), ...); each range is a row of its own. The framed protocol's issue asks <= 1.05x up to
# 4 KiB and <= 1.02x from 64 KiB (where a payload is a frame and a continuation).
SIZED_TARGETS = {variant: ((0, 4096, 1.05), (65536, None, 1.02))
                 for variant in ("thinmpi/vector_framed", "thinmpi/vector_framed_uninit")}
# Targets against another C variant than the baseline, the same protocol written in C: variant ->
# (C variant, bound). Both run in the same processes against the same baseline, so a process's
# ratio to that C variant is the quotient of their two ratios; string_framed's chars never share
# c/framed's processes, so its row is judged on instructions (counted at the same bytes) alone.
PROTOCOL_TARGETS = {variant: ("c/framed", 1.02)
                    for variant in ("thinmpi/vector_framed", "thinmpi/vector_framed_uninit",
                                    "thinmpi/string_framed")}


def _audit_order(row):
    apis = ("c", "boost", "thinmpi", "mpi4py", "go")
    api = row["variant"].split("/")[0]
    return (row["compiler"] == "python", apis.index(api) if api in apis else 9, row["variant"])


def audit_tables(audit_rows):
    """One table per MPI: the calls per message of each variant."""
    tables = []
    for m in present(audit_rows, "mpi", MPI_ORDER):
        compilers = present(find(audit_rows, mpi=m), "compiler", ("gcc", "clang", "python"))
        shown = {compilers[0], "python", "go"}
        rows = [[row["variant"], row["compiler"], str(row["count"]), calls_text(row["calls"]),
                 f"{row['bytes_per_message']:g}"]
                for row in sorted(find(audit_rows, mpi=m), key=_audit_order)
                if row["compiler"] in shown]
        headers = ["variant", "process", "count", "calls per message (both ranks)",
                   "bytes sent per message"]
        tables.append(Table(f"audit-{m}", f"Path audit, {MPI_NAMES[m]}: MPI calls per one-way "
                            "message", headers, rows,
                            "Counted by libwb_audit (PMPI, LD_PRELOAD) over K round trips of "
                            "each variant: (calls of both ranks) / (2K). A C known-count message "
                            "is 1 MPI_Send + 1 MPI_Recv."))
    return tables


def symbol_tables(symbol_rows):
    """One table per MPI: the symbols each variant's object references."""
    tables = []
    for m in present(symbol_rows, "mpi", MPI_ORDER):
        rows = [[row["variant"], ", ".join(row["mpi_symbols"]) or "none",
                 ", ".join(row["boost_mpi_entry_points"]) or "—"]
                for row in find(symbol_rows, mpi=m, compiler="gcc")]
        tables.append(Table(f"symbols-{m}", f"What each variant's object file references "
                            f"({MPI_NAMES[m]}, gcc)", ["variant", "MPI symbols (nm -u)",
                                                       "Boost.MPI entry points (nm -u -C)"],
                            rows, "One object file per variant (thinmpi: one for the family); "
                            "ompi_mpi_* are OpenMPI's predefined handles."))
    return tables


def thinmpi_targets(cells, instructions_part=None):
    """Each thinmpi variant against its target (docs/bench.md): over all its cells, the median
    ratio, how many cells meet the target, and the worst cell; with instruction counts
    (instructions.py), the instructions over C per call too, and the verdict asks for both."""
    rows = []
    for variant in THINMPI_TARGETS:
        for label, bound, in_range in target_cells(cells, variant):
            row = _target_row(label, bound, in_range)
            if row:
                rows.append(_not_judged(_with_instructions(row, instructions_part, variant),
                                        variant))
        if variant in PROTOCOL_TARGETS:
            c_variant, bound = PROTOCOL_TARGETS[variant]
            label = f"{variant} (the same protocol in C)"
            row = _target_row(label, bound, against_c_variant(cells, variant, c_variant)) or (
                _untimed_row(label, c_variant, bound) if target_figures(
                    instructions_part, variant, c_variant) else None)
            if row:
                rows.append(_with_instructions(row, instructions_part, variant, c_variant))
    return Table("targets", "thinmpi against its targets (docs/bench.md)",
                 ["variant", "baseline", "target", "median ratio over its cells",
                  "cells within target", "worst cell", *INSTRUCTION_HEADERS,
                  "verdict (median)"], rows,
                 "Every suite, MPI and compiler; docs/bench.md (Targets) states each target and "
                 "what it is measured against. The process-to-process noise of this machine is "
                 "several percent, so a cell can miss a 2% target by noise alone: read the "
                 "worst cell with its spread in results.json.")


def target_cells(cells, variant):
    """[(row label, bound, cells)]: the rows of `variant` in the targets table, one per size
    range of its target, with the cells each row judges."""
    ranges = SIZED_TARGETS.get(variant, ((0, None, THINMPI_TARGETS[variant]),))
    found = []
    for low, high, bound in ranges:
        in_range = [c for c in find(cells, variant=variant) if c["ratio_vs_c"] and
                    c["bytes"] >= low and (high is None or c["bytes"] <= high)]
        label = variant if len(ranges) == 1 else f"{variant} ({_size_range(low, high)})"
        found.append((label, bound, in_range))
    return found


def path_ratios(doc):
    """Every cell's ratio that the targets table's rows of each variant judge, as PathRatios
    (group "thinmpi only", path: the row's label) for the report's first screen."""
    return [PathRatio("thinmpi only", label, "thinmpi", c["variant"], c["mpi"], c["compiler"],
                      c["bytes"], c["ratio_vs_c"]["median"])
            for variant in THINMPI_TARGETS
            for label, _, in_range in target_cells(doc.get("cells", []), variant)
            for c in in_range]


def against_c_variant(cells, variant, c_variant):
    """`variant`'s cells with their ratio taken against `c_variant` instead of their baseline:
    per process, the quotient of the two ratios to the baseline they share (both variants run
    in the same processes); cells whose processes do not pair up are left out."""
    found = []
    for cell in find(cells, variant=variant):
        theirs = find(cells, suite=cell["suite"], mpi=cell["mpi"], compiler=cell["compiler"],
                      variant=c_variant, bytes=cell["bytes"])
        mine = cell.get("per_rep_ratio") or []
        other = (theirs[0].get("per_rep_ratio") or []) if theirs else []
        if mine and len(mine) == len(other) and all(other):
            ratios = [a / b for a, b in zip(mine, other)]
            found.append(dict(cell, baseline=c_variant, per_rep_ratio=ratios,
                              ratio_vs_c={"median": statistics.median(ratios),
                                          "min": min(ratios), "max": max(ratios)}))
    return found


def _untimed_row(label, c_variant, target):
    """A protocol row whose time no cell measured (string_framed's payloads of chars never run
    in c/framed's processes): judged on its instructions alone."""
    return [label, c_variant, f"≤ {target:.2f}×", "—", "—", "— (not timed side by side)", "met"]


def _with_instructions(row, part, variant, against=None):
    """The row with its instruction columns (the median over the counted cells, the worst cell)
    before the verdict, which then needs the time and (where counted) the instructions: the
    median within INSTRUCTION_SLACK of C per call (of `against`, the same protocol in C, where
    given; else of the variant's C baseline)."""
    figures = target_figures(part, variant, against)
    if figures is None:
        return row[:-1] + columns(None) + [row[-1]]
    return row[:-1] + columns(figures) + [verdict(row[-1] == "met", figures)]


def _not_judged(row, variant):
    """A NOT_JUDGED variant's row: its figures, the cost it carries, and no verdict."""
    if variant not in NOT_JUDGED:
        return row
    cost, instead = NOT_JUDGED[variant]
    return [f"{row[0]} ({cost})"] + row[1:2] + [f"{row[2]}, judged on {instead}"] + row[3:-1] + \
        ["not judged"]


def _size_range(low, high):
    """'up to 4 KiB', '64 KiB and up'."""
    def size(n):
        return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB" if n >= 1024 else f"{n} B"
    return f"{size(low)} and up" if high is None else f"up to {size(high)}"


def _target_row(label, target, measured):
    """One row of the targets table, or None without cells."""
    if not measured:
        return None
    ratios = [c["ratio_vs_c"]["median"] for c in measured]
    worst = max(measured, key=lambda c: c["ratio_vs_c"]["median"])
    typical = statistics.median(ratios)
    return [label, worst["baseline"], f"≤ {target:.2f}×", times(typical),
            f"{sum(r <= target for r in ratios)} of {len(ratios)}",
            f"{times(max(ratios))} ({worst['suite']} {MPI_NAMES[worst['mpi']]} "
            f"{worst['compiler']} {worst['bytes']} B)",
            "met" if typical <= target else "not met"]


def missing_table(missing):
    """The cells this machine cannot fill, with the reason."""
    rows = [[MPI_NAMES.get(m["mpi"], m["mpi"]), m.get("compiler") or "all", m["api"],
             m["reason"]] for m in missing]
    return Table("missing", "Cells this machine cannot fill", ["MPI", "compiler", "API",
                                                                "reason"], rows)


def failures_table(failures):
    """The builds and launches that failed, with their error."""
    rows = [[f["what"], MPI_NAMES.get(f["mpi"], f["mpi"]), f["compiler"], f["error"]]
            for f in failures]
    return Table("failures", "Failed builds and runs", ["what", "MPI", "compiler", "error"], rows)
