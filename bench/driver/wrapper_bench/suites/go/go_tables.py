"""The report's tables of the Go kernel (cgo, one cgo call per MPI call, GoMPI's typed API):
the tiny messages against C in the same process, and the OSU-compatible sweep in the format
of GoMPI's README (size, Go, C, difference)."""

import statistics

from ...core.compare import find
from ...core.tables import MPI_NAMES, MPI_ORDER, Table, cell_text, one, present, times

GO_INT_ROWS = (("C known count", "c/int_buffer"),
               ("Go RecvPrealloc (known size)", "go/int_slice_prealloc"),
               ("C MPI_Probe + MPI_Recv", "c/probe"),
               ("Go Recv (unknown size)", "go/int_slice_recv"))
GO_NOTE = ("Go 1.19 through cgo, one cgo call per MPI call, the calls of GoMPI's typed API "
           "(SendInt32s, RecvPreallocInt32s, RecvInt32s = MPI_Probe + MPI_Get_count + make + "
           "MPI_Recv, as far as GoMPI's mpi.go shows; not GoMPI itself, see the missing cells). "
           "Ratios in parentheses: against the C variant run in the same Go process through "
           "libwb_ckernels (one cgo call per block): RecvPrealloc against c/int_buffer, Recv "
           "against c/probe, the same MPI calls in C. 'vs C known count' is Recv against "
           "c/int_buffer in the same processes: what not knowing the size costs a Go program.")


def same_process_ratio(cell, base):
    """The median over processes of cell / base, both measured in each process (their
    per-process figures are in launch order)."""
    if not cell or not base or len(cell["per_rep_us"]) != len(base["per_rep_us"]):
        return None
    ratios = [a / b for a, b in zip(cell["per_rep_us"], base["per_rep_us"]) if b > 0]
    return statistics.median(ratios) if ratios else None


def _go(cells, mpi, variant, count, suite="tiny"):
    return one(cells, suite=suite, mpi=mpi, compiler="go", variant=variant, count=count)


def go_tiny(cells):
    """Go's receives of known and unknown size against C, 1, 8 and 64 ints, per MPI."""
    rows = []
    for m in present(find(cells, compiler="go"), "mpi", MPI_ORDER):
        for label, variant in GO_INT_ROWS:
            values = [_go(cells, m, variant, n) for n in (1, 8, 64)]
            if not any(values):
                continue
            versus = "—"
            if variant == "go/int_slice_recv":
                versus = ", ".join(times(same_process_ratio(v, _go(cells, m, "c/int_buffer",
                                                                    n)))
                                   for v, n in zip(values, (1, 8, 64)))
            rows.append([MPI_NAMES[m], label, variant] + [cell_text(v) for v in values] +
                        [versus])
    return Table("go-tiny", "Go through cgo: tiny messages",
                 ["MPI", "path", "variant", "1 int", "8 ints", "64 ints",
                  "vs C known count (1, 8, 64)"], rows, GO_NOTE)


def _ratio_text(cell):
    return f"{cell['ratio_vs_c']['median']:.1f}x" if cell and cell["ratio_vs_c"] else "—"


def _us_text(cell):
    return f"{cell['one_way_us']['median']:.2f}" if cell else "—"


def go_osu_tables(cells):
    """One table per MPI in the format of GoMPI's README: size, Go, C, difference; and GoMPI's
    own calls where its kernel could be built."""
    tables = []
    for m in present(find(cells, suite="osu", compiler="go"), "mpi", MPI_ORDER):
        rows = []
        for size in sorted({c["count"] for c in find(cells, suite="osu", mpi=m,
                                                     compiler="go")}):
            go = _go(cells, m, "go/byte_slice_prealloc", size, "osu")
            c = _go(cells, m, "c/char_buffer", size, "osu")
            gompi = one(cells, suite="osu", mpi=m, compiler="gompi",
                        variant="gompi/byte_slice_prealloc", count=size)
            rows.append([str(size), _us_text(go), _us_text(c), _ratio_text(go),
                         _us_text(gompi), _ratio_text(gompi)])
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
