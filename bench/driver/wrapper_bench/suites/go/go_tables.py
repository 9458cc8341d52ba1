"""The report's table of the Go kernel (cgo, one cgo call per MPI call, GoMPI's typed API): the
tiny messages against C in the same process. Its OSU-compatible sweep is the osu room's table
(suites/osu/osu_tables.py), on that suite's cells."""

import statistics

from ...core.compare import find
from ...core.path_ratios import SUITE_GROUPS, PathRatio
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



# The Go kernel's known-size receives, on the peers table's paths (their C is the same C, run in
# the Go process: c/int_buffer, c/char_buffer). Its unknown-size receive is measured against C's
# MPI_Probe path, not the matched probe of the peers' path, so it is not among them.
GO_PATHS = {"go/int_slice_prealloc": "bounded vector<int>",
            "go/byte_slice_prealloc": "chars of known count"}


def _go_path(cell):
    """The peers table's path of a Go cell: the tiny suite's 1 int is the "int" path."""
    if (cell["suite"], cell["count"], cell["variant"]) == ("tiny", 1, "go/int_slice_prealloc"):
        return "int"
    return GO_PATHS[cell["variant"]]


def path_ratios(doc):
    """The Go cells' ratios against C in their process (what the Go and OSU tables show), as
    PathRatios for the report's first screen."""
    return [PathRatio(SUITE_GROUPS[c["suite"]], _go_path(c), "go", c["variant"], c["mpi"],
                      c["compiler"], c["bytes"], c["ratio_vs_c"]["median"])
            for c in find(doc.get("cells", []), compiler="go")
            if c["variant"] in GO_PATHS and c["suite"] in SUITE_GROUPS and c["ratio_vs_c"]]
