"""The report's tables as data (title, headers, rows), shared by the Markdown and HTML pages.

They are the article's tables (C floor, Boost scalar overhead, raw vs vector, the container
cliff, mpi4py's two personalities, the size sweep) with thinmpi rows added, then ours (struct,
the OSU sweep, the path audit, symbols, thinmpi against its targets, missing and failed cells).
"""

from dataclasses import dataclass, field

from .compare import find

MPI_ORDER = ("openmpi", "mpich")
COMPILER_ORDER = ("gcc", "clang", "python")
MPI_NAMES = {"openmpi": "OpenMPI", "mpich": "MPICH"}
API_NAMES = {"c": "C MPI", "boost": "Boost.MPI", "mpi4py": "mpi4py", "thinmpi": "thinmpi"}


@dataclass
class Table:
    """A report table: rows of strings under headers, with an optional note."""

    key: str
    title: str
    headers: list
    rows: list
    note: str = ""
    groups: list = field(default_factory=list)  # optional sub-titles, one per block of rows


def us(value):
    """'0.298 µs', or '—' for a cell that was not measured."""
    return "—" if value is None else f"{value:.3f} µs"


def times(value):
    """'1.04×', or '—'."""
    return "—" if value is None else f"{value:.2f}×"


def cell_text(cell, with_ratio=True):
    """'0.374 µs (1.25×)' for a cell, '—' when it was not measured."""
    if not cell:
        return "—"
    text = us(cell["one_way_us"]["median"])
    ratio = cell.get("ratio_vs_c")
    if with_ratio and ratio and cell["baseline"] != cell["variant"]:
        text += f" ({times(ratio['median'])})"
    return text


def one(cells, **wanted):
    """The one cell matching `wanted`, or None."""
    found = find(cells, **wanted)
    return found[0] if found else None


def present(cells, field_name, order):
    """The values of a field found in `cells`, in the report's order."""
    values = {c[field_name] for c in cells}
    return [v for v in order if v in values] + sorted(values - set(order))


def builds(cells, suite):
    """(mpi, compiler) pairs with C/C++ cells in a suite, in report order."""
    pairs = {(c["mpi"], c["compiler"]) for c in cells if c["suite"] == suite
             and c["compiler"] != "python"}
    return [(m, k) for m in MPI_ORDER for k in COMPILER_ORDER if (m, k) in pairs]


def c_floor(cells):
    """The article's first table: C MPI at 1, 8 and 64 ints."""
    rows = [[MPI_NAMES[m], k] + [cell_text(one(cells, suite="tiny", mpi=m, compiler=k,
                                                variant="c/int_buffer", count=n))
                                 for n in (1, 8, 64)] for m, k in builds(cells, "tiny")]
    return Table("c-floor", "C MPI: the floor", ["MPI", "compiler", "1 int", "8 ints", "64 ints"],
                 rows, "MPI_Send/MPI_Recv of n MPI_INT, receiver knows the count (c/int_buffer).")


def scalar_overhead(cells):
    """Boost.MPI's (and thinmpi's) scalar send against C."""
    rows = []
    for m, k in builds(cells, "tiny"):
        c, b, t = (one(cells, suite="tiny", mpi=m, compiler=k, variant=v, count=1)
                   for v in ("c/int_buffer", "boost/int", "thinmpi/scalar"))
        rows.append([MPI_NAMES[m], k, cell_text(c), cell_text(b, False),
                     times(b and b["ratio_vs_c"]["median"]), cell_text(t, False),
                     times(t and t["ratio_vs_c"]["median"])])
    return Table("scalar", "Boost.MPI (and thinmpi): the scalar path",
                 ["MPI", "compiler", "C MPI, 1 int", "Boost.MPI, int", "overhead",
                  "thinmpi, scalar", "overhead"], rows,
                 "Overheads are medians of per-process ratios against C in the same process.")


RAW_VS_VECTOR = ("c/int_buffer", "boost/raw", "boost/vector", "c/mprobe", "thinmpi/span",
                 "thinmpi/vector_bounded", "thinmpi/vector_alloc")


def raw_vs_vector(cells):
    """Raw buffer against vector (and the unknown-size receives) at 4 B."""
    rows = [[MPI_NAMES[m], k] + [cell_text(one(cells, suite="tiny", mpi=m, compiler=k,
                                                variant=v, count=1)) for v in RAW_VS_VECTOR]
            for m, k in builds(cells, "tiny")]
    return Table("raw-vs-vector", "The vector was not the raw buffer (4 B payload)",
                 ["MPI", "compiler", "C buffer", "Boost raw", "Boost vector[1]", "C mprobe",
                  "thinmpi span", "thinmpi vector (bounded)", "thinmpi recv<vector>"], rows,
                 "Ratios in parentheses: against each variant's C baseline in the same process, "
                 "c/int_buffer, except thinmpi recv<vector> against c/mprobe (the C receive of "
                 "unknown size).")


CLIFF_ROWS = (("C known count", "c/int_buffer", "c/char_buffer"),
              ("C mprobe (unknown size)", "c/mprobe", "c/char_mprobe"),
              ("Boost.MPI", "boost/vector", "boost/string"),
              ("thinmpi bounded", "thinmpi/vector_bounded", "thinmpi/string"),
              ("thinmpi allocating", "thinmpi/vector_alloc", "thinmpi/string_alloc"),
              ("C framed protocol", "c/framed", None),
              ("thinmpi framed_channel", "thinmpi/vector_framed", "thinmpi/string_framed"),
              ("thinmpi framed, not zeroed", "thinmpi/vector_framed_uninit", None),
              ("thinmpi recv_reuse", "thinmpi/vector_reuse", None))


def container_cliff(cells):
    """vector<int> and string payloads, every path, against C."""
    rows = []
    for m, k in builds(cells, "tiny"):
        for label, vector, string in CLIFF_ROWS:
            values = [one(cells, suite="tiny", mpi=m, compiler=k, variant=vector, count=n)
                      for n in (1, 8, 64)]
            values += [one(cells, suite="tiny", mpi=m, compiler=k, variant=string, count=n)
                       for n in (8, 64)]
            if any(values):
                rows.append([MPI_NAMES[m], k, label] + [cell_text(v) for v in values])
    return Table("cliff", "The container cliff",
                 ["MPI", "compiler", "path", "vector<int>[1]", "vector<int>[8]",
                  "vector<int>[64]", "string[8]", "string[64]"], rows,
                 "Against each path's C baseline in the same process: vectors c/int_buffer, "
                 "strings c/char_buffer; thinmpi's allocating receives and recv_reuse against "
                 "c/mprobe and c/char_mprobe, the C code that does the same; the framed "
                 "protocol (C and thinmpi) against the known-count receive it competes with.")


def mpi4py_personalities(cells):
    """mpi4py's NumPy buffers and Python objects against C."""
    rows = []
    for m in present(cells, "mpi", MPI_ORDER):
        for variant, label in (("c/int_buffer", "C in the same process"),
                               ("mpi4py/numpy", "NumPy buffer"),
                               ("mpi4py/object", "Python object")):
            values = [one(cells, suite="tiny", mpi=m, compiler="python", variant=variant,
                          count=n) for n in (1, 8, 64)]
            harness_c = one(cells, suite="tiny", mpi=m, compiler="gcc", variant="c/int_buffer",
                            count=1)
            if any(values):
                rows.append([MPI_NAMES[m], label] + [cell_text(v) for v in values] +
                            [times(values[0]["one_way_us"]["median"] /
                                   harness_c["one_way_us"]["median"])
                             if values[0] and harness_c else "—"])
    return Table("mpi4py", "mpi4py has two personalities",
                 ["MPI", "payload", "1 int", "8 ints", "64 ints", "1 int vs C harness"], rows,
                 "Ratios in parentheses: against the C kernel run through ctypes in the same "
                 "Python process (same MPI initialisation, MPI_THREAD_MULTIPLE as mpi4py asks). "
                 "The last column compares with the C harness process (gcc), which runs at "
                 "MPI_THREAD_SINGLE.")


SWEEP_COLUMNS = (("C", "c/int_buffer", None), ("C mprobe", "c/mprobe", None),
                 ("Boost raw", "boost/raw", None), ("Boost vector", "boost/vector", None),
                 ("thinmpi span", "thinmpi/span", None),
                 ("thinmpi recv<vector>", "thinmpi/vector_alloc", None),
                 ("thinmpi recv<vector> not zeroed", "thinmpi/vector_alloc_uninit", None),
                 ("C framed", "c/framed", None),
                 ("thinmpi framed", "thinmpi/vector_framed", None),
                 ("thinmpi framed not zeroed", "thinmpi/vector_framed_uninit", None),
                 ("thinmpi recv_reuse", "thinmpi/vector_reuse", None),
                 ("mpi4py NumPy", "mpi4py/numpy", "python"),
                 ("mpi4py object", "mpi4py/object", "python"),
                 ("Go RecvPrealloc (cgo)", "go/int_slice_prealloc", "go"),
                 ("Go Recv (cgo)", "go/int_slice_recv", "go"))


def size_label(size):
    """'4 B', '4 KiB', '1 MiB'."""
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"


def size_sweep(cells, compiler="gcc"):
    """The size sweep, one row per MPI and payload size."""
    rows, groups = [], []
    for m in present(cells, "mpi", MPI_ORDER):
        sizes = sorted({c["bytes"] for c in find(cells, suite="sweep", mpi=m)})
        for size in sizes:
            groups.append(MPI_NAMES[m])
            rows.append([MPI_NAMES[m], size_label(size)] + [
                cell_text(one(cells, suite="sweep", mpi=m, compiler=k or compiler, variant=v,
                              bytes=size)) for _, v, k in SWEEP_COLUMNS])
    return Table("sweep", f"What happens when the messages get bigger ({compiler} kernels)",
                 ["MPI", "payload"] + [label for label, _, _ in SWEEP_COLUMNS], rows,
                 "Ratios as in the tables above. mpi4py objects stop at 4 KiB, where the article "
                 "stopped plotting them. Go: against C in the same Go process (RecvPrealloc vs "
                 "c/int_buffer, Recv vs c/probe).")


def struct_table(cells):
    """c/struct and thinmpi/struct at 1, 8 and 64 particles."""
    rows = []
    for m, k in builds(cells, "tiny"):
        for variant in ("c/struct", "thinmpi/struct"):
            values = [one(cells, suite="tiny", mpi=m, compiler=k, variant=variant, count=n)
                      for n in (1, 8, 64)]
            if any(values):
                rows.append([MPI_NAMES[m], k, variant] + [cell_text(v) for v in values])
    return Table("struct", "Structs with a derived datatype (40-byte padded particle)",
                 ["MPI", "compiler", "variant", "1", "8", "64"], rows)


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
