"""The OSU-compatible sweep's tables: OSU's osu_latency, C and thinmpi side by side; and the
Go kernel's sweep (cgo, and GoMPI where it was built) in the format of GoMPI's README."""

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


def _go_ratio(cell):
    return f"{cell['ratio_vs_c']['median']:.1f}x" if cell and cell["ratio_vs_c"] else "—"


def go_osu_tables(cells):
    """One table per MPI in the format of GoMPI's README: size, Go, C, difference; and GoMPI's
    own calls where its kernel could be built."""
    tables = []
    for m in present(find(cells, suite="osu", compiler="go"), "mpi", MPI_ORDER):
        rows = []
        for size in sorted({c["count"] for c in find(cells, suite="osu", mpi=m,
                                                     compiler="go")}):
            go = one(cells, suite="osu", mpi=m, compiler="go", variant="go/byte_slice_prealloc",
                     count=size)
            c = one(cells, suite="osu", mpi=m, compiler="go", variant="c/char_buffer", count=size)
            gompi = one(cells, suite="osu", mpi=m, compiler="gompi",
                        variant="gompi/byte_slice_prealloc", count=size)
            rows.append([str(size), _osu_us(go), _osu_us(c), _go_ratio(go), _osu_us(gompi),
                         _go_ratio(gompi)])
        ran_gompi = any(row[4] != "—" for row in rows)
        tables.append(Table(f"osu-go-{m}", f"OSU-compatible sweep, Go through cgo, "
                            f"{MPI_NAMES[m]}", ["message size (bytes)", "Go cgo (µs)",
                                                "C MPI (µs)", "difference", "GoMPI (µs)",
                                                "GoMPI difference"], rows,
                            "GoMPI's README format. Go: SendBytes / RecvPreallocBytes "
                            "(MPI_BYTE), the calls of GoMPI's latency benchmark, through cgo; "
                            "C: c/char_buffer (MPI_CHAR) in the same Go process; difference: "
                            "the median of the per-process ratios. 1,000 round trips after "
                            "200 warm-up, one-way = half the round trip. " +
                            ("GoMPI: its own Send / RecvPrealloc, against C in its process."
                             if ran_gompi else "GoMPI: not built here (see Cells this machine "
                             "cannot fill).")))
    return tables
