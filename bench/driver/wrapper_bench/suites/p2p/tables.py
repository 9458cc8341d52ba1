"""The point-to-point suites' tables (tiny, sweep): the article's tables (C floor, Boost scalar
overhead, raw vs vector, the container cliff, mpi4py's two personalities, the size sweep) with
thinmpi rows added, then ours (struct). The OSU sweep's are in suites/osu/osu_tables.py."""

from ...core.compare import find
from ...core.tables import (MPI_NAMES, MPI_ORDER, Table, builds, cell_text, one, present,
                            size_label, times, us)


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


def _tiny_rows(cells, variants):
    """One row per build and variant of the tiny suite: its cells at 1, 8 and 64 elements."""
    rows = []
    for m, k in builds(cells, "tiny"):
        for variant in variants:
            values = [one(cells, suite="tiny", mpi=m, compiler=k, variant=variant, count=n)
                      for n in (1, 8, 64)]
            if any(values):
                rows.append([MPI_NAMES[m], k, variant] + [cell_text(v) for v in values])
    return rows


def struct_table(cells):
    """c/struct and thinmpi/struct at 1, 8 and 64 particles."""
    return Table("struct", "Structs with a derived datatype (40-byte padded particle)",
                 ["MPI", "compiler", "variant", "1", "8", "64"],
                 _tiny_rows(cells, ("c/struct", "thinmpi/struct")))


def persistent_table(cells):
    """Persistent and partitioned point-to-point at 1, 8 and 64 ints: C's set-up-once ping-pong
    against the blocking one, C's partitioned one against C's persistent one, thinmpi's each
    against its C."""
    return Table("persistent", "Persistent and partitioned point-to-point (set up once, started "
                 "every round)", ["MPI", "compiler", "variant", "1 int", "8 ints", "64 ints"],
                 _tiny_rows(cells, ("c/persistent", "thinmpi/persistent", "c/partitioned",
                                    "thinmpi/partitioned")),
                 "MPI_Send_init / MPI_Recv_init once, MPI_Start + MPI_Wait for every message "
                 "(thinmpi: send_init / recv_init, start() + wait()). Ratios: c/persistent "
                 "against the blocking MPI_Send / MPI_Recv (c/int_buffer), thinmpi/persistent "
                 "against c/persistent, each in the same process. Partitioned (MPI-4, so not on "
                 "Open MPI 4.1: see the missing cells): MPI_Psend_init / MPI_Precv_init of one "
                 "partition of n MPI_INT once, MPI_Start, MPI_Pready on the sender and MPI_Wait "
                 "for every message (thinmpi: psend_init / precv_init, start(), pready(0), "
                 "wait()); c/partitioned against c/persistent, thinmpi/partitioned against "
                 "c/partitioned, each in the same process.")
