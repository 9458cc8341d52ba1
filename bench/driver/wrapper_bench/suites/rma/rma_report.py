"""The rma suite in the report: thinmpi against its target, one table of every one-sided path
with the C time, OSU's own test of that path where it ran (OSU, C/OSU) and the thinmpi/C and
mpi4py/C ratios beside the calls behind them, the programs, and the audit per rank."""

import statistics

from ...core.tables import MPI_NAMES, MPI_ORDER, Table, harness_ratio, size_label

TARGET = 1.02  # thinmpi vs the same C calls (docs/bench.md): operations and programs alike

NOTE = ("Ratio to the C variant making the same MPI calls, taken inside one process (variants "
        "interleaved in blocks); median over processes. Timed as OSU's one-sided tests time "
        "(osu_put_latency): the calls back to back between two barriers, a process's figure the "
        "low decile of its blocks. lock_flush: rank 0 holds a shared lock of rank 1 and each "
        "call is one operation and MPI_Win_flush; fence: one call is a round trip (three "
        "MPI_Win_fence, an operation from each rank); bandwidth: 64 operations and one flush. "
        "The atomics move one int whatever the size. mpi4py's ratio is to the same C run "
        "through ctypes in its process. Calls: per call on rank 0, from the audit at 8 B; "
        "'same' when the thinmpi variant makes exactly the C variant's calls.")
OSU_NOTE = ("OSU: OSU 7.4's own test of the path (osu_put_latency, osu_get_latency, "
            "osu_acc_latency -s flush or -s fence, osu_fop_latency and osu_cas_latency -s flush; "
            "-w allocate, the harness's calls and a tenth as warm-up), launched right after the "
            "gcc harness's launch of the size with the same launcher and binding: rank 0's "
            "average per call over the whole run, OSU's own figure; OSU P50: its median call "
            "(-z), which a descheduled call does not move, where the average takes every one; "
            "medians over processes, fence figures doubled (OSU prints half the round trip the "
            "harness times). C/OSU, C/OSU P50: the C cell (the low decile of its blocks) over "
            "them.")
PROGRAM_NOTE = ("One call runs the whole program (the window made and freed in it, as the "
                "examples do once): 1000 tickets per rank for the counter, 10,000 values in 64 "
                "bins per rank for the histogram; the thinmpi rows are the examples' code.")
AUDIT_NOTE = ("Counted by libwb_audit (PMPI) over 20 calls at 8 B, per call, on each rank "
              "(in the passive-target forms rank 1 makes no call).")




def _us(cell):
    if not cell or not cell.get("us"):
        return "—"
    value = cell["us"]["median"]
    return f"{value / 1000:.2f} ms" if value >= 1000 else f"{value:.3f} µs"


def _calls_text(calls):
    return ", ".join(f"{n:g} {name}" for name, n in sorted(calls.items())) if calls else "none"


def _path(variant):
    return variant.split("/", 1)[1]


def _audit_index(audit):
    return {(r["variant"], r["mpi"], r["compiler"], r["rank"]): r["calls"] for r in audit}


def _mpi_key(mpi):
    return MPI_ORDER.index(mpi) if mpi in MPI_ORDER else len(MPI_ORDER)


def targets_table(cells):
    """thinmpi against its target: median over cells, cells within, worst; operations and
    programs apart."""
    rows = []
    for name, programs in (("one-sided operations vs the same C calls", False),
                           ("the counter and histogram programs vs their C versions", True)):
        ratios = [c["ratio"]["median"] for c in cells if c["api"] == "thinmpi" and c.get("ratio")
                  and (c["form"] == "program") == programs]
        rows.append([name, f"≤ {TARGET:.2f}x"] + ([
            f"{statistics.median(ratios):.3f}x", f"{sum(r <= TARGET for r in ratios)} of "
            f"{len(ratios)}", f"{max(ratios):.2f}x"] if ratios else ["—", "no cells", "—"]))
    return Table("rma_targets", "thinmpi one-sided against its target",
                 ["what", "target", "median over cells", "cells within", "worst"], rows,
                 "Every path, size, MPI and compiler is a cell; on a shared 2-core machine read "
                 "the median first.")


def _over(c_cell, osu_us):
    if not c_cell or not c_cell.get("us") or not osu_us:
        return "—"
    return f"{c_cell['us']['median'] / osu_us:.2f}x"


def _osu_p50(records):
    """(mpi, variant, bytes) -> the median over processes of OSU's median call."""
    found = {}
    for r in records:
        if r.get("api") == "osu" and r.get("osu_p50_us") is not None:
            found.setdefault((r["mpi"], r["variant"], r["bytes"]), []).append(r["osu_p50_us"])
    return {key: statistics.median(values) for key, values in found.items()}


def _osu_columns(c_cell, osu, p50):
    median = osu["us"]["median"] if osu and osu.get("us") else None
    p50_us = p50.get((osu["mpi"], osu["variant"], osu["bytes"])) if osu else None
    return [_us(osu), "—" if p50_us is None else _us({"us": {"median": p50_us}}),
            _over(c_cell, median), _over(c_cell, p50_us)]


def _row(c_cell, found, audit, osu_p50=None):
    """One path's row: the C time (OSU's and C/OSU beside it), then thinmpi and mpi4py against
    C, then the calls."""
    key = (c_cell["variant"], c_cell["mpi"], c_cell["compiler"], 0)
    c_calls = audit.get(key)
    thinmpi = found.get("thinmpi")
    thinmpi_calls = audit.get((thinmpi["variant"], thinmpi["mpi"], thinmpi["compiler"], 0)) \
        if thinmpi else None
    same = "—" if thinmpi_calls is None or c_calls is None else \
        "same" if thinmpi_calls == c_calls else _calls_text(thinmpi_calls)
    return [_path(c_cell["variant"]), size_label(c_cell["bytes"]) if c_cell["form"] != "program"
            else "—", MPI_NAMES.get(c_cell["mpi"], c_cell["mpi"]), c_cell["compiler"],
            _us(c_cell)] + (_osu_columns(c_cell, found.get("osu"), osu_p50)
                            if osu_p50 is not None else []) + [
                harness_ratio(thinmpi), harness_ratio(found.get("mpi4py")),
            _calls_text(c_calls) if c_calls is not None else "—", same]


def paths_table(cells, audit, programs=False, records=()):
    """One row per (path, size, MPI, compiler of the C cell): C, OSU and C/OSU where OSU's
    tests ran, thinmpi/C, mpi4py/C, calls. OSU's cell (compiler "osu") stands beside the C
    cells of every compiler, as the mpi4py cell does."""
    index = _audit_index(audit)
    chosen = [c for c in cells if (c["form"] == "program") == programs]
    by_path = {}
    for cell in chosen:
        if cell["api"] != "c" or cell["compiler"] == "python":
            continue
        key = (_path(cell["variant"]), cell["bytes"], cell["mpi"], cell["compiler"])
        by_path[key] = (cell, {})
    for cell in chosen:
        if cell["api"] == "c":
            continue
        compilers = [cell["compiler"]] if cell["compiler"] not in ("python", "osu") else \
            sorted({k[3] for k in by_path})
        for compiler in compilers:
            slot = by_path.get((_path(cell["variant"]), cell["bytes"], cell["mpi"], compiler))
            if slot:
                slot[1][cell["api"]] = cell
    order = sorted(by_path, key=lambda k: (k[0].split("/")[1], k[0], k[1], _mpi_key(k[2]), k[3]))
    with_osu = any("osu" in found for _, found in by_path.values())
    osu_p50 = _osu_p50(records) if with_osu else None
    rows = [_row(*by_path[key], index, osu_p50) for key in order]
    headers = ["path", "size", "MPI", "compiler", "C"] + (
        ["OSU", "OSU P50", "C/OSU", "C/OSU P50"] if with_osu else []) \
        + ["thinmpi/C", "mpi4py/C", "C calls per call (rank 0)", "thinmpi calls"]
    if programs:
        return Table("rma_programs", "The one-sided programs: thinmpi/C", headers, rows,
                     PROGRAM_NOTE)
    return Table("rma_paths", "One-sided paths: C" + (", OSU" if with_osu else "") +
                 ", thinmpi/C, mpi4py/C and the calls", headers, rows,
                 NOTE + (" " + OSU_NOTE if with_osu else ""))


def audit_table(audit):
    """Per variant and build: the calls per call on rank 0 and rank 1."""
    index = _audit_index(audit)
    body = []
    for variant, mpi, compiler in sorted({k[:3] for k in index},
                                         key=lambda k: (_path(k[0]), k[0], _mpi_key(k[1]), k[2])):
        body.append([variant, MPI_NAMES.get(mpi, mpi), compiler] +
                    [_calls_text(index.get((variant, mpi, compiler, rank))) for rank in (0, 1)])
    return Table("rma_audit", "MPI calls per call, per rank",
                 ["variant", "MPI", "compiler", "rank 0", "rank 1"], body, AUDIT_NOTE)


def sections(part, section_type):
    """The report's rma sections from doc["rma"]."""
    cells, audit = part.get("cells", []), part.get("audit", [])
    first = section_type(
        "One-sided communication: thinmpi and mpi4py against C",
        paragraphs=["Windows of ints (MPI_Win_allocate) on 2 ranks; sizes per operation."],
        tables=[targets_table(cells),
                paths_table(cells, audit, records=part.get("records", [])),
                paths_table(cells, audit, programs=True)])
    if part.get("missing"):
        first.paragraphs += [f"Missing: {m}" for m in part["missing"]]
    if part.get("failures"):
        first.paragraphs += [f"Failed: {f['what']}: {f['error']}" for f in part["failures"]]
    return [first, section_type("One-sided communication: path audit",
                                tables=[audit_table(audit)])]
