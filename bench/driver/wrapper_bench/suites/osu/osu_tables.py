"""The OSU-compatible sweep's tables: OSU's osu_latency, C and thinmpi side by side."""

from ...core.compare import find
from ...core.tables import MPI_NAMES, MPI_ORDER, Table, one, present


def _osu_us(cell):
    return f"{cell['one_way_us']['median']:.2f}" if cell else "—"


def osu_tables(cells, compiler="gcc"):
    """One table per MPI in the format of GoMPI's README: OSU's osu_latency (where it ran), C
    and thinmpi side by side, C/OSU as GoMPI's README gives GoMPI/OSU."""
    tables = []
    for m in present(cells, "mpi", MPI_ORDER):
        rows = []
        for size in sorted({c["count"] for c in find(cells, suite="osu", mpi=m)}):
            c = one(cells, suite="osu", mpi=m, compiler=compiler, variant="c/char_buffer",
                    count=size)
            t = one(cells, suite="osu", mpi=m, compiler=compiler, variant="thinmpi/char_span",
                    count=size)
            o = one(cells, suite="osu", mpi=m, compiler="osu", variant="osu/osu_latency",
                    count=size)
            c_over_osu = (c["one_way_us"]["median"] / o["one_way_us"]["median"]
                          if c and o and o["one_way_us"]["median"] > 0 else None)
            rows.append([str(size), _osu_us(o), _osu_us(c),
                         f"{c_over_osu:.2f}x" if c_over_osu else "—", _osu_us(t),
                         f"{t['ratio_vs_c']['median']:.2f}x" if t and t["ratio_vs_c"] else "—"])
        ran_osu = any(row[1] != "—" for row in rows)
        if rows:
            tables.append(Table(f"osu-{m}", f"OSU-compatible sweep, {MPI_NAMES[m]} ({compiler})",
                                ["message size (bytes)", "OSU osu_latency (µs)", "C MPI (µs)",
                                 "C/OSU", "thinmpi (µs)", "thinmpi/C"], rows,
                                "MPI_CHAR, 1,000 iterations after 200 warm-up, two ranks on one "
                                "node, one-way = half the round trip (osu_latency's method). "
                                "thinmpi/C: the median of per-process ratios. " +
                                ("C/OSU: medians of separate processes, osu_latency launched "
                                 "right after the kernels of the same size, same launcher and "
                                 "binding." if ran_osu else
                                 "OSU: not run here (see Cells this machine cannot fill).")))
    return tables
