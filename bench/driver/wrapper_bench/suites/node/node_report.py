"""The node suite in the report: a latency table per MPI and compiler, the crossover of the ring
against C, the message rate, the two pairs at once, the targets and the chart."""

import statistics

from ...core.slow_mode import rule_text
from ...core.tables import COMPILER_ORDER, MPI_NAMES, MPI_ORDER, Table, size_label, times, us
from . import node_suite as ns

COLUMNS = (("floor", ns.FLOOR), ("C known", ns.C_KNOWN), ("C mprobe", ns.C_MPROBE),
           ("thinmpi MPI path", ns.THINMPI_MPI), ("channel known", ns.KNOWN),
           ("channel unknown", ns.UNKNOWN), ("channel, ring only", ns.RING))
# docs/bench.md (Targets, the intra-node channel): (what, variant, against, sizes, bound,
# judged on: "median" over the cells or "every" cell).
SMALL = (4, 8, 16, 32, 48)
TARGETS = (("4-48 B one-way vs the floor", ns.KNOWN, "floor", SMALL, 1.5, "median"),
           ("4-48 B one-way vs C known count", ns.KNOWN, "c", SMALL, 0.5, "median"),
           ("unknown size, 1-48 B, vs C known count", ns.UNKNOWN, "c", (1,) + SMALL, 1.0,
            "below"),
           ("every size to 1 MiB vs C known count (default crossover)", ns.KNOWN, "c",
            ns.SIZES, 1.0, "every"))
RATE_TARGET = 2.0
LATENCY_NOTE = ("One-way µs (half a round trip), the median over processes of each process's "
                "low-decile block; every column of a row ran in the same processes, in "
                "interleaved blocks. floor: the payload copied into a shared segment and out "
                "again by each rank with one cache line as the flag (c/shm_floor, no MPI); it "
                "is the floor up to a few KiB only: above, MPI's single-copy path (CMA) moves "
                "the bytes once where it copies twice. C known: MPI_Send/MPI_Recv of n "
                "MPI_CHAR. C mprobe: MPI_Mprobe + MPI_Get_count + malloc + MPI_Mrecv. thinmpi "
                "MPI path: comm.send(span) / comm.recv(span). channel: node_channel with its "
                "default mpi_from_bytes (known: recv into a span; unknown: "
                "recv<std::vector<char>>); ring only: mpi_from_bytes past every size. Ratios "
                "are the median of the per-process ratios.")


def builds_of(cells, ranks=2):
    """(mpi, compiler) of the cells at `ranks` ranks, in the report's order."""
    found = {(c["mpi"], c["compiler"]) for c in cells if c["ranks"] == ranks}
    return [(m, k) for m in MPI_ORDER for k in COMPILER_ORDER if (m, k) in found]


def _cell(cells, mpi, compiler, variant, size, ranks=2):
    return next((c for c in cells if (c["mpi"], c["compiler"], c["ranks"], c["variant"],
                                      c["bytes"]) == (mpi, compiler, ranks, variant, size)),
                None)


def _median(cell, field="one_way_us"):
    return cell[field]["median"] if cell and cell.get(field) else None


def latency_table(cells, mpi, compiler):
    """Per size: every latency column, and the channel's ratios to the floor and to C."""
    sizes = sorted({c["bytes"] for c in cells if c["kind"] == "latency" and c["ranks"] == 2
                    and (c["mpi"], c["compiler"]) == (mpi, compiler)})
    rows = []
    for size in sizes:
        row = [size_label(size)]
        row += [us(_median(_cell(cells, mpi, compiler, v, size))) for _, v in COLUMNS]
        known, ring = _cell(cells, mpi, compiler, ns.KNOWN, size), \
            _cell(cells, mpi, compiler, ns.RING, size)
        row += [times(_median(known, "ratio_vs_floor")), times(_median(known, "ratio_vs_c")),
                times(_median(ring, "ratio_vs_c"))]
        rows.append(row)
    return Table(f"node-{mpi}-{compiler}", f"Intra-node channel, {MPI_NAMES[mpi]} {compiler}: "
                 "one-way latency, 2 ranks", ["size"] + [n for n, _ in COLUMNS] +
                 ["channel/floor", "channel/C known", "ring/C known"], rows, LATENCY_NOTE)


def _size_or_none(size):
    return size_label(size) if size else "—"


def crossover_table(part):
    """Per build: up to where the ring (and the default channel) beats C's known count."""
    rows = []
    for entry in sorted(part.get("crossovers", []), key=lambda e: (
            MPI_ORDER.index(e["mpi"]) if e["mpi"] in MPI_ORDER else 9, e["compiler"],
            e["variant"] != ns.RING)):
        loss = entry["first_loss"]
        ratio = next((r for s, r in entry["ratios"] if s == loss), None)
        losses = ", ".join(f"{size_label(s)} ({times(r)})" for s, r in entry["ratios"]
                           if s in entry.get("losses", ()))
        rows.append([MPI_NAMES.get(entry["mpi"], entry["mpi"]), entry["compiler"],
                     "ring only" if entry["variant"] == ns.RING else "default",
                     _size_or_none(entry["last_win"]),
                     f"{_size_or_none(loss)}" + (f" ({times(ratio)})" if ratio else ""),
                     losses or "none"])
    return Table("node-crossover", "Where the channel stops beating C MPI (2 ranks)",
                 ["MPI", "compiler", "channel", "beats C up to", "first size it loses",
                  "every size it loses at"], rows,
                 "A size is lost where the median of the per-process ratios to C's known count "
                 "is above 1.0. 'ring only' carries every payload through the ring "
                 "(mpi_from_bytes past every size): its first loss is the crossover that "
                 "mpi_from_bytes should sit at.")


def rate_table(cells):
    """Messages per second of C and the channel, per build, size and rank count."""
    rows = []
    for ranks in (2, ns.PAIRS_RANKS):
        for mpi, compiler in builds_of(cells, ranks):
            for size in sorted({c["bytes"] for c in cells if c["kind"] == "rate" and
                                c["ranks"] == ranks and c["mpi"] == mpi}):
                c_cell = _cell(cells, mpi, compiler, ns.C_RATE, size, ranks)
                mine = _cell(cells, mpi, compiler, ns.RATE, size, ranks)
                ratio = _median(mine, "ratio_vs_c")
                rows.append([MPI_NAMES[mpi], compiler, str(ranks), size_label(size),
                             _rate(c_cell), _rate(mine), times(1 / ratio) if ratio else "—"])
    return Table("node-rate", "Message rate: a window of 64 messages one way, a 1-byte ack back",
                 ["MPI", "compiler", "ranks", "size", "C (Isend window + Waitall)",
                  "channel", "channel over C"], rows,
                 "Messages per second (median over processes). C: rank 0 posts 64 MPI_Isend "
                 "and MPI_Waitall, rank 1 pre-posts 64 MPI_Irecv into 64 buffers and "
                 "MPI_Waitall, then MPI_Send of a 1-byte ack (osu_mbw_mr's pattern). channel: 64 "
                 "send() one way, 64 recv() into 64 buffers, one send(char) back. At 4 ranks two "
                 "pairs run at once (the slower pair's time).")


def _rate(cell):
    value = _median(cell, "messages_per_s")
    return "—" if value is None else f"{value / 1e6:.2f} M/s"


def pairs_table(cells):
    """The two pairs at once (oversubscribed on 2 cores): the latency columns they run."""
    rows = []
    columns = [(n, v) for n, v in COLUMNS if v in ns.PAIRS_VARIANTS]
    for mpi, compiler in builds_of(cells, ns.PAIRS_RANKS):
        for size in sorted({c["bytes"] for c in cells if c["kind"] == "latency" and
                            c["ranks"] == ns.PAIRS_RANKS and c["mpi"] == mpi}):
            row = [MPI_NAMES[mpi], compiler, size_label(size)]
            row += [us(_median(_cell(cells, mpi, compiler, v, size, ns.PAIRS_RANKS)))
                    for _, v in columns]
            known = _cell(cells, mpi, compiler, ns.KNOWN, size, ns.PAIRS_RANKS)
            row.append(times(_median(known, "ratio_vs_c")))
            rows.append(row)
    return Table("node-pairs", f"Two pairs at once ({ns.PAIRS_RANKS} ranks: 0-1 and 2-3)",
                 ["MPI", "compiler", "size"] + [n for n, _ in columns] + ["channel/C known"],
                 rows, "Each pair has its own channel (made over the pair's communicator).")


def _judge(kind, ratios, bound):
    if kind == "median":
        return statistics.median(ratios) <= bound
    if kind == "below":
        return all(r < bound for r in ratios)
    return all(r <= bound for r in ratios)


def targets_table(part):
    """Each target of docs/bench.md per build: the median ratio over its cells, the cells
    within, the worst, the verdict."""
    cells, rows = part.get("cells", []), []
    for what, variant, against, sizes, bound, kind in TARGETS:
        field = "ratio_vs_floor" if against == "floor" else "ratio_vs_c"
        for mpi, compiler in builds_of(cells):
            found = [(s, _median(_cell(cells, mpi, compiler, variant, s), field)) for s in sizes]
            found = [(s, r) for s, r in found if r is not None]
            if not found:
                continue
            ratios = [r for _, r in found]
            worst = max(found, key=lambda pair: pair[1])
            rows.append([what, f"{MPI_NAMES[mpi]} {compiler}",
                         f"{'<' if kind == 'below' else '≤'} {bound:.2f}×"
                         + (" every size" if kind == "every" else ""),
                         times(statistics.median(ratios)),
                         f"{sum(r <= bound for r in ratios)} of {len(ratios)}",
                         f"{times(worst[1])} ({size_label(worst[0])})",
                         "met" if _judge(kind, ratios, bound) else "not met"])
    for mpi, compiler in builds_of(cells):
        mine = _cell(cells, mpi, compiler, ns.RATE, ns.RATE_BYTES[0])
        ratio = _median(mine, "ratio_vs_c")
        if ratio:
            rows.append(["message rate at 8 B vs C", f"{MPI_NAMES[mpi]} {compiler}",
                         f"≥ {RATE_TARGET:.1f}× C's rate", times(1 / ratio), "—", "—",
                         "met" if 1 / ratio >= RATE_TARGET else "not met"])
    return Table("node-targets", "The intra-node channel against its targets (docs/bench.md)",
                 ["target", "build", "bound", "median over its cells", "cells within",
                  "worst cell", "verdict"], rows,
                 "2 ranks. Ratios are the channel's time over the floor's or over C's known "
                 "count in the same processes (rate: the channel's messages per second over "
                 "C's). The crossover table names where the ring stops beating C.")


def mode_line(part):
    """The machine mode of the suite's processes (core/slow_mode.py)."""
    mode = part.get("mode")
    if not mode:
        return "Machine mode: unknown (no process measured its floor)."
    return (f"Machine mode: {mode['mode']} — {mode['slow']} of {mode['processes']} 2-rank "
            f"processes had {rule_text(mode['threshold_us'], 'suite', c_one_way=False)}; "
            f"median floor {us(mode['median_floor_us'])}. "
            f"The {ns.PAIRS_RANKS}-rank runs put {ns.PAIRS_RANKS} ranks on "
            f"{part.get('cores')} cores: oversubscribed"
            + (", so they are short and their times show the scheduler more than the paths."
               if (part.get("cores") or 0) < ns.PAIRS_RANKS else "."))


def sections(part, charts, section_type):
    """The report's node section from doc["node"]."""
    cells = part.get("cells", [])
    section = section_type(
        "Intra-node channel",
        paragraphs=[mode_line(part)],
        tables=[targets_table(part), crossover_table(part)] +
        [latency_table(cells, m, k) for m, k in builds_of(cells)] +
        [rate_table(cells), pairs_table(cells)],
        charts=[c for c in charts if c[1].startswith("node_")])
    section.paragraphs += [f"Missing: {m}" for m in part.get("missing", [])]
    section.paragraphs += [f"Failed: {f['what']}: {f['error']}" for f in part.get("failures", [])]
    return [section]
