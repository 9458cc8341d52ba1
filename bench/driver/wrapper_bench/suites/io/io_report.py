"""The io suite in the report: the targets with verdicts, thinmpi/C per MPI and compiler on each
file system, what MPI-IO costs over POSIX on tmpfs (per call and per byte), mpi4py/C, and the
audit of the calls."""

import statistics

from ...core.slow_mode import FAST_MODE, SLOW_MODE, rule_text
from ...core.tables import COMPILER_ORDER, MPI_NAMES, MPI_ORDER, Table, size_label, times, us
from . import io_suite as ios

TARGET = 1.02  # docs/bench.md (Targets): thinmpi file reads and writes vs the same C calls
FS_ORDER = ("tmpfs", "disk")


def builds_of(cells, python=False):
    """(mpi, compiler) of the cells, in the report's order (the mpi4py kernels when `python`)."""
    found = {(c["mpi"], c["compiler"]) for c in cells}
    order = ("python",) if python else COMPILER_ORDER[:2]
    return [(m, k) for m in MPI_ORDER for k in order if (m, k) in found]


def _cell(cells, mpi, compiler, fs, variant, size):
    return next((c for c in cells if (c["mpi"], c["compiler"], c["fs"], c["variant"],
                                      c["bytes"]) == (mpi, compiler, fs, variant, size)), None)


def _median(cell, field="us"):
    return cell[field]["median"] if cell and cell.get(field) else None


def _spread_text(cell, field="ratio_vs_c"):
    """'1.01× (0.99-1.03)': the median of the per-process ratios and their range."""
    if not cell or not cell.get(field):
        return "—"
    value = cell[field]
    return f"{times(value['median'])} ({value['min']:.2f}-{value['max']:.2f})"


def _ops():
    return [(form, op) for form, ops in ios.OPS.items() for op in ops]


def _size_text(form, size):
    return size_label(size) + (" array" if form == "collective" else "")


def _rows_of(cells, mpi, compiler):
    """(form, op, size) of a build's cells, in the report's order."""
    found = {(c["form"], c["op"], c["bytes"]) for c in cells
             if (c["mpi"], c["compiler"]) == (mpi, compiler)}
    return [(form, op, size) for form, op in _ops()
            for size in sorted({s for f, o, s in found if (f, o) == (form, op)})]


def _file_systems(cells):
    found = {c["fs"] for c in cells}
    return [fs for fs in FS_ORDER if fs in found] + sorted(found - set(FS_ORDER))


def ratio_table(cells, mpi, compiler, file_systems):
    """Per call and size: C and thinmpi µs per call and thinmpi/C on each file system."""
    rows = []
    for form, op, size in _rows_of(cells, mpi, compiler):
        row = [op, _size_text(form, size)]
        for fs in _file_systems(cells):
            c_cell = _cell(cells, mpi, compiler, fs, f"c/{op}", size)
            mine = _cell(cells, mpi, compiler, fs, f"thinmpi/{op}", size)
            row += [us(_median(c_cell)), us(_median(mine)), _spread_text(mine)]
        rows.append(row)
    headers = ["call", "size"]
    for fs in _file_systems(cells):
        headers += [f"C ({fs})", f"thinmpi ({fs})", f"thinmpi/C ({fs})"]
    return Table(f"io-{mpi}-{compiler}", f"MPI-IO, {MPI_NAMES[mpi]} {compiler}: thinmpi::file "
                 f"against the same C calls, {ios.RANKS} ranks", headers, rows,
                 "µs per call: the slowest rank's, per block; each process's low-decile block; "
                 "the median over processes. thinmpi/C: the median of the per-process ratios "
                 "(their range in brackets). Sizes: bytes per rank per call (write_at, read_at, "
                 "shared and ordered forms, each rank its own region or record); the whole "
                 "array's for the collective forms (each rank writes its block of doubles "
                 "through a subarray view). " + _fs_note(file_systems))


def _fs_note(file_systems):
    return "Files: " + "; ".join(f"{label}: {entry['path']} ({entry['type']})"
                                 for label, entry in file_systems.items()) + "."


def _thinmpi_ratios(cells, mpi, compiler):
    """[(ratio, cell)] of every thinmpi cell of a build."""
    return [(c["ratio_vs_c"]["median"], c) for c in cells
            if (c["mpi"], c["compiler"]) == (mpi, compiler) and c["api"] == "thinmpi"
            and c.get("ratio_vs_c")]


def _name(cell):
    return f"{cell['op']} {_size_text(cell['form'], cell['bytes'])}, {cell['fs']}"


def targets_table(part):
    """Per build: thinmpi/C in every cell (median, worst named, verdict) and the audit's
    verdict (the same MPI_File calls as C in every audited variant)."""
    cells, rows = part.get("cells", []), []
    for mpi, compiler in builds_of(cells):
        found = _thinmpi_ratios(cells, mpi, compiler)
        if found:
            ratios = [r for r, _ in found]
            worst = max(found, key=lambda pair: pair[0])
            above = [c for r, c in found if r > TARGET]
            rows.append([f"thinmpi / C ≤ {TARGET:.2f}× in every cell",
                         f"{MPI_NAMES[mpi]} {compiler}", times(statistics.median(ratios)),
                         f"{len(ratios) - len(above)} of {len(ratios)}",
                         f"{times(worst[0])} ({_name(worst[1])})",
                         "met" if not above else "not met: " + ", ".join(
                             f"{_name(c)} {times(c['ratio_vs_c']['median'])}" for c in above)])
        verdict = audit_verdict(part.get("audit", []), mpi, compiler)
        if verdict:
            rows.append(["the same MPI-IO calls as C (audit)", f"{MPI_NAMES[mpi]} {compiler}",
                         "—", verdict[0], "—", verdict[1]])
    return Table("io-targets", "MPI-IO against its targets (docs/bench.md)",
                 ["target", "build", "median over its cells", "cells within", "worst cell",
                  "verdict"], rows,
                 "A cell is a call at a size on a file system; its ratio is the median of the "
                 "per-process ratios of thinmpi's time to C's in the same process.")


def _file_calls(calls):
    return {name: n for name, n in calls.items() if name.startswith("MPI_File_")}


def audit_verdict(audit, mpi, compiler):
    """('k of n', 'met' / 'not met: ...') of a build's audit, or None without one."""
    index = {(r["variant"], r["rank"]): r["calls"] for r in audit
             if (r["mpi"], r["compiler"]) == (mpi, compiler)}
    pairs = [(v, rank) for v, rank in index if v.startswith("thinmpi/")]
    if not pairs:
        return None
    differ = sorted({v for v, rank in pairs if _file_calls(index[(v, rank)]) !=
                     _file_calls(index.get((v.replace("thinmpi/", "c/"), rank), {}))})
    variants = {v for v, _ in pairs}
    return (f"{len(variants) - len(differ)} of {len(variants)}",
            "met" if not differ else "not met: " + ", ".join(differ))


def audit_table(audit):
    """Per build and call: the MPI calls per call of C and thinmpi on rank 0."""
    rows = []
    index = {(r["mpi"], r["compiler"], r["variant"], r["rank"]): r["calls"] for r in audit}
    for mpi, compiler in [(m, k) for m in MPI_ORDER for k in COMPILER_ORDER[:2]]:
        for form, op in _ops():
            c_calls = index.get((mpi, compiler, f"c/{op}", 0))
            mine = index.get((mpi, compiler, f"thinmpi/{op}", 0))
            if c_calls is None and mine is None:
                continue
            same = mine is not None and _file_calls(mine) == _file_calls(c_calls or {})
            rows.append([f"{MPI_NAMES[mpi]} {compiler}", op, _calls_text(c_calls),
                         _calls_text(mine), "yes" if same else "no"])
    return Table("io-audit", "MPI calls per call (libwb_audit, rank 0)",
                 ["build", "call", "C", "thinmpi", "same MPI_File calls"], rows,
                 f"{ios.AUDIT_CALLS} calls at {ios.AUDIT_BYTES} B (the collective forms: a "
                 f"{ios.AUDIT_BYTES} B array), counted inside an MPI_Pcontrol window that leaves "
                 "out the open, the view and the close. C's reads add MPI_Get_count, where "
                 "thinmpi reads the count from the status' fields without a call.")


def _calls_text(calls):
    if calls is None:
        return "—"
    return ", ".join(f"{n:g} {name}" for name, n in calls.items()) or "none"


def posix_table(cells, mpi, compiler):
    """tmpfs, independent forms: POSIX, C MPI-IO, C/POSIX, what MPI-IO adds per call, and each
    one's bandwidth."""
    rows = []
    for op in ios.OPS["independent"]:
        for size in sorted({c["bytes"] for c in cells if c["op"] == op and c["fs"] == "tmpfs"
                            and (c["mpi"], c["compiler"]) == (mpi, compiler)}):
            floor = _median(_cell(cells, mpi, compiler, "tmpfs", f"posix/{op}", size))
            c_cell = _cell(cells, mpi, compiler, "tmpfs", f"c/{op}", size)
            c_us = _median(c_cell)
            added = c_us - floor if c_us is not None and floor is not None else None
            rows.append([f"{op} ({'pwrite' if op == 'write_at' else 'pread'})",
                         size_label(size), us(floor), us(c_us),
                         _spread_text(c_cell, "ratio_vs_posix"), us(added),
                         _bandwidth(size, floor), _bandwidth(size, c_us)])
    return Table(f"io-posix-{mpi}-{compiler}", f"What the layer under thinmpi costs: "
                 f"{MPI_NAMES[mpi]} {compiler} MPI-IO against POSIX on tmpfs",
                 ["call", "size", "POSIX", "C MPI-IO", "MPI-IO/POSIX", "MPI-IO adds per call",
                  "POSIX GB/s", "MPI-IO GB/s"], rows,
                 "The same bytes at the same offsets of a file on tmpfs, in the same processes: "
                 "pwrite(2) / pread(2) against MPI_File_write_at / read_at. "
                 + per_byte_line(cells, mpi, compiler))


def _bandwidth(size, time_us):
    return "—" if not time_us else f"{size / (time_us * 1e3):.2f}"


def per_byte_line(cells, mpi, compiler):
    """MPI-IO's cost per call (at the smallest size) and per byte (the slope between the two
    largest sizes), against POSIX's, on tmpfs."""
    parts = []
    for op in ios.OPS["independent"]:
        sizes = sorted({c["bytes"] for c in cells if c["op"] == op and c["fs"] == "tmpfs"
                        and (c["mpi"], c["compiler"]) == (mpi, compiler)})
        if len(sizes) < 2:
            continue
        text = []
        for api in ("posix", "c"):
            points = [_median(_cell(cells, mpi, compiler, "tmpfs", f"{api}/{op}", s))
                      for s in (sizes[0], sizes[-2], sizes[-1])]
            if None in points:
                break
            slope = (points[2] - points[1]) * 1e3 / (sizes[-1] - sizes[-2])
            text.append(f"{'POSIX' if api == 'posix' else 'MPI-IO'} {us(points[0])} a call at "
                        f"{size_label(sizes[0])}, {slope:.3f} ns a byte")
        if len(text) == 2:
            parts.append(f"{op}: " + "; ".join(text))
    return ("Per call and per byte (the slope between the two largest sizes): " +
            " | ".join(parts) + ".") if parts else ""


def mpi4py_table(cells):
    """Per MPI whose mpi4py was found: mpi4py's File against C's same call, with POSIX."""
    rows = []
    for mpi, compiler in builds_of(cells, python=True):
        for fs in _file_systems(cells):
            for op in ios.OPS["independent"]:
                for size in sorted({c["bytes"] for c in cells if (c["mpi"], c["compiler"],
                                                                  c["fs"], c["op"]) ==
                                    (mpi, compiler, fs, op)}):
                    mine = _cell(cells, mpi, compiler, fs, f"mpi4py/{op}", size)
                    rows.append([MPI_NAMES[mpi], fs, op, size_label(size),
                                 us(_median(_cell(cells, mpi, compiler, fs, f"posix/{op}",
                                                  size))),
                                 us(_median(_cell(cells, mpi, compiler, fs, f"c/{op}", size))),
                                 us(_median(mine)), _spread_text(mine)])
    return Table("io-mpi4py", "mpi4py's MPI.File against the same C calls",
                 ["MPI", "file system", "call", "size", "POSIX", "C", "mpi4py", "mpi4py/C"], rows,
                 "fh.Write_at(offset, [array, MPI.BYTE]) / fh.Read_at(offset, [array, MPI.BYTE], "
                 "status) with status.Get_count checked, NumPy buffers, against C's and POSIX's "
                 "calls through ctypes in the same process "
                 "(bench/kernels/mpi4py/mpi4py_io.py). Only where an interpreter's mpi4py links "
                 "that MPI (checked with ldd).")


def mode_line(part):
    """The machine mode of the suite's processes (core/slow_mode.py)."""
    mode = part.get("mode")
    if not mode:
        return "Machine mode: unknown (no process measured its floor)."
    return (f"Machine mode: {mode['mode']} — {mode['slow']} of {mode['processes']} processes "
            f"had {rule_text(mode['threshold_us'], 'suite', c_one_way=False)}; median process "
            f"floor {us(mode['median_floor_us'])} (this VM: {_span(FAST_MODE['floor_us'])} in "
            f"its fast mode, {_span(SLOW_MODE['floor_us'])} in its slow mode).")


def _span(pair):
    return f"{pair[0]:.3f}-{pair[1]:.3f} µs"


def sections(part, charts, section_type):
    """The report's io section from doc["io"]."""
    cells, file_systems = part.get("cells", []), part.get("file_systems", {})
    section = section_type(
        "Parallel I/O (MPI-IO)",
        paragraphs=[mode_line(part), _fs_note(file_systems)],
        tables=[targets_table(part)] +
        [ratio_table(cells, m, k, file_systems) for m, k in builds_of(cells)] +
        [posix_table(cells, m, k) for m, k in builds_of(cells)] +
        [mpi4py_table(cells), audit_table(part.get("audit", []))],
        charts=[c for c in charts if c[1].startswith("io_")])
    section.paragraphs += [f"Missing: {m}" for m in part.get("missing", [])]
    section.paragraphs += [f"Failed: {f['what']}: {f['error']}" for f in part.get("failures", [])]
    return [section]
