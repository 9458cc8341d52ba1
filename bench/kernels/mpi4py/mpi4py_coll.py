"""The mpi4py collectives kernel of wrapper-bench: wb_coll's command line and records, in Python.

    python3 mpi4py_coll.py --list
    mpiexec -n P python3 mpi4py_coll.py --variants mpi4py/allreduce/buffer,c/allreduce/sum
        --count N [--iterations I] [--warmup W] [--blocks B] [--audit K] [--c-kernels LIB]

mpi4py's buffer methods (comm.Bcast, Allreduce, ... on int32 NumPy arrays) and object methods
(comm.bcast, allreduce, allgather, alltoall on Python lists of ints, pickled), each against the C
variant doing the same collective (`c/...`, loaded from libwb_ckernels through ctypes and timed
by its C code), in interleaved blocks in one process. Timing is OSU's (osu_allreduce), as in
bench/harness/coll_harness.c: each call timed alone, calls separated by barriers, a rank's figure
the average of its calls, a block's figure the slowest rank's. Audit mode runs K calls of each
variant in an MPI_Pcontrol(2) window labelled by WB_AUDIT_LABEL (libwb_audit).
"""

import ctypes
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi4py_harness  # noqa: E402  (next to this file)
from mpi4py_harness import thread_level  # noqa: E402

ELEMENT_BYTES = 4


def value(rank, index):
    """Element `index` of the ints that `rank` sends (wb_coll_value of coll_check.c)."""
    return rank * 7 + index % 13 + 1


def add_ints(a, b, datatype=None):
    """The sum of a user op: in buffer mode (in, inout, datatype) it adds `a` into `b`; in object
    mode mpi4py calls it on the two lists and keeps what it returns."""
    if datatype is not None:
        import numpy

        inout = numpy.frombuffer(b, dtype=numpy.int32)
        inout += numpy.frombuffer(a, dtype=numpy.int32)
        return None
    return [x + y for x, y in zip(a, b)]


def expected(kind, rank, size, count):
    """What a call of `kind` leaves on `rank` of `size` ranks (wb_coll_check), as a list."""
    if kind == "bcast":
        return [value(0, i) for i in range(count)]
    if kind == "allreduce":
        return [sum(value(r, i) for r in range(size)) for i in range(count)]
    if kind == "scan":
        return [sum(value(r, i) for r in range(rank + 1)) for i in range(count)]
    if kind == "reduce_scatter_block":
        return [sum(value(r, rank * count + i) for r in range(size)) for i in range(count)]
    if kind == "allgather":
        return [value(r, i) for r in range(size) for i in range(count)]
    if kind == "alltoall":
        return [value(s, rank * count + i) for s in range(size) for i in range(count)]
    raise ValueError(kind)


class Collective:
    """One mpi4py collective on every rank of `comm`: `call()` is one call by all ranks."""

    api, op, form, baseline, kind = "mpi4py", "", "", "", ""

    def __init__(self, comm, count):
        self.comm, self.count = comm, count
        self.rank, self.size = comm.Get_rank(), comm.Get_size()
        self.received = None

    @classmethod
    def name(cls):
        return f"{cls.api}/{cls.op}/{cls.form}"

    def result(self):
        """The last call's result as a flat list of ints."""
        return [int(x) for x in self.received]

    def verify(self):
        """True when this rank's last result is right."""
        return self.result() == expected(self.kind, self.rank, self.size, self.count)


class Buffer(Collective):
    """The buffer methods on int32 NumPy arrays (no pickling: MPI reads and writes the arrays)."""

    form = "buffer"
    sent_blocks = 1  # blocks of `count` ints each rank sends
    received_blocks = 1

    def __init__(self, comm, count):
        import numpy

        super().__init__(comm, count)
        sent = count * (self.size if self.sent_blocks == "size" else 1)
        self.send = numpy.array([value(self.rank, i) for i in range(sent)], dtype=numpy.int32)
        received = count * (self.size if self.received_blocks == "size" else 1)
        self.received = numpy.zeros(received, dtype=numpy.int32)
        self.counts = [count] * self.size
        self.displs = [r * count for r in range(self.size)]
        if self.kind == "bcast" and self.rank == 0:
            self.received[:] = self.send


class Bcast(Buffer):
    op, baseline, kind = "bcast", "c/bcast/builtin", "bcast"

    def call(self):
        self.comm.Bcast(self.received, root=0)


class Allreduce(Buffer):
    op, baseline, kind = "allreduce", "c/allreduce/sum", "allreduce"

    def call(self):
        from mpi4py import MPI

        self.comm.Allreduce(self.send, self.received, op=MPI.SUM)


class UserOp:
    """Mixin: the sum of add_ints made an MPI_Op (MPI.Op.Create), freed by close()."""

    def __init__(self, comm, count):
        from mpi4py import MPI

        super().__init__(comm, count)
        self.user_op = MPI.Op.Create(add_ints, commute=True)

    def close(self):
        self.user_op.Free()


class AllreduceUserOp(UserOp, Allreduce):
    """The sum in a Python function made an MPI_Op, against the same sum in a C
    MPI_User_function: mpi4py calls back into Python for each reduction step."""

    form, baseline = "user_op", "c/allreduce/user_fn"

    def call(self):
        self.comm.Allreduce(self.send, self.received, op=self.user_op)


class Allgather(Buffer):
    op, baseline, kind, received_blocks = "allgather", "c/allgather/builtin", "allgather", "size"

    def call(self):
        self.comm.Allgather(self.send, self.received)


class Allgatherv(Allgather):
    op, baseline = "allgatherv", "c/allgatherv/counts_given"

    def call(self):
        from mpi4py import MPI

        self.comm.Allgatherv(self.send, [self.received, self.counts, self.displs, MPI.INT])


class Alltoall(Buffer):
    op, baseline, kind = "alltoall", "c/alltoall/builtin", "alltoall"
    sent_blocks = received_blocks = "size"

    def call(self):
        self.comm.Alltoall(self.send, self.received)


class Alltoallv(Alltoall):
    op, baseline = "alltoallv", "c/alltoallv/counts_given"

    def call(self):
        from mpi4py import MPI

        self.comm.Alltoallv([self.send, self.counts, self.displs, MPI.INT],
                            [self.received, self.counts, self.displs, MPI.INT])


class ReduceScatterBlock(Buffer):
    op, baseline, kind = "reduce_scatter_block", "c/reduce_scatter_block/sum", \
        "reduce_scatter_block"
    sent_blocks = "size"

    def call(self):
        from mpi4py import MPI

        self.comm.Reduce_scatter_block(self.send, self.received, op=MPI.SUM)


class Scan(Buffer):
    op, baseline, kind = "scan", "c/scan/sum", "scan"

    def call(self):
        from mpi4py import MPI

        self.comm.Scan(self.send, self.received, op=MPI.SUM)


class PythonObject(Collective):
    """The object methods on Python lists of ints: mpi4py pickles them (comm.bcast, ...)."""

    form = "object"
    blocks = False  # whether the payload is one list per destination (alltoall)

    def __init__(self, comm, count):
        super().__init__(comm, count)
        if self.blocks:
            self.send = [[value(self.rank, d * count + i) for i in range(count)]
                         for d in range(self.size)]
        else:
            self.send = [value(self.rank, i) for i in range(count)]


class BcastObject(PythonObject):
    op, baseline, kind = "bcast", "c/bcast/builtin", "bcast"

    def call(self):
        self.received = self.comm.bcast(self.send if self.rank == 0 else None, root=0)


class AllreduceObject(UserOp, PythonObject):
    """comm.allreduce of a list with an element-wise sum (MPI.SUM would concatenate lists)."""

    op, baseline, kind = "allreduce", "c/allreduce/sum", "allreduce"

    def call(self):
        self.received = self.comm.allreduce(self.send, op=self.user_op)


class AllgatherObject(PythonObject):
    op, baseline, kind = "allgather", "c/allgather/builtin", "allgather"

    def call(self):
        self.received = self.comm.allgather(self.send)

    def result(self):
        return [x for block in self.received for x in block]


class AlltoallObject(PythonObject):
    op, baseline, kind, blocks = "alltoall", "c/alltoall/builtin", "alltoall", True

    def call(self):
        self.received = self.comm.alltoall(self.send)

    def result(self):
        return [x for block in self.received for x in block]


PYTHON_VARIANTS = {v.name(): v for v in (
    Bcast, Allreduce, AllreduceUserOp, Allgather, Allgatherv, Alltoall, Alltoallv,
    ReduceScatterBlock, Scan, BcastObject, AllreduceObject, AllgatherObject, AlltoallObject)}


class CCollective:
    """A C collective variant of libwb_ckernels (the harness's own code), through ctypes."""

    api, baseline = "c", None

    def __init__(self, name, library, comm, count):
        self.library, self.full_name = library, name
        _, self.op, self.form = name.split("/")
        self.bridge = library.wb_coll_bridge_setup(name.encode(), comm.py2f(), count)
        if not self.bridge:
            raise SystemExit(f"mpi4py_coll: {name}: not in {library._name}")

    def name(self):
        return self.full_name

    def call(self):
        self.library.wb_coll_bridge_calls(self.bridge, 1)

    def calls(self, n):
        self.library.wb_coll_bridge_calls(self.bridge, n)

    def osu_block(self, calls):
        return self.library.wb_coll_bridge_block(self.bridge, calls)

    def verify(self):
        return self.library.wb_coll_bridge_verify(self.bridge) == 0

    def close(self):
        self.library.wb_coll_bridge_teardown(self.bridge)


def load_c_kernels(path):
    """libwb_ckernels with the ctypes signatures of coll_bridge.h."""
    library = ctypes.CDLL(path)
    library.wb_coll_bridge_setup.restype = ctypes.c_void_p
    library.wb_coll_bridge_setup.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t]
    library.wb_coll_bridge_block.restype = ctypes.c_double
    library.wb_coll_bridge_block.argtypes = [ctypes.c_void_p, ctypes.c_long]
    library.wb_coll_bridge_calls.argtypes = [ctypes.c_void_p, ctypes.c_long]
    library.wb_coll_bridge_verify.argtypes = [ctypes.c_void_p]
    library.wb_coll_bridge_teardown.argtypes = [ctypes.c_void_p]
    return library


def make_variant(name, comm, count, c_kernels, python_variants=None):
    """The variant called `name` (of `python_variants`, these collectives by default), set up on
    every rank."""
    python_variants = PYTHON_VARIANTS if python_variants is None else python_variants
    if name in python_variants:
        return python_variants[name](comm, count)
    if name.startswith("c/") and c_kernels:
        return CCollective(name, load_c_kernels(c_kernels), comm, count)
    raise SystemExit(f"mpi4py_coll: {name}: no such variant here")


def calls(variant, n):
    """`n` calls back to back (warm-up, audit)."""
    if hasattr(variant, "calls"):
        return variant.calls(n)
    for _ in range(n):
        variant.call()
    return None


def osu_block(variant, comm, n):
    """This rank's µs per call over `n` calls, OSU style (wb_coll_osu_block in Python; the C
    variants run that very function in C)."""
    if hasattr(variant, "osu_block"):
        return variant.osu_block(n)
    from mpi4py import MPI

    wtime, barrier, call = MPI.Wtime, comm.Barrier, variant.call
    total = 0.0
    call()  # untimed, as in C: the block starts with its buffers warm (coll_timing.c)
    barrier()
    for _ in range(n):
        start = wtime()
        call()
        total += wtime() - start
        barrier()
    return total * 1e6 / n


def record_head(variant, comm, options):
    """The fields every wb_coll record starts with."""
    name = variant.name()
    api, op, form = name.split("/")
    return {"variant": name, "api": api, "op": op, "form": form, "baseline": variant.baseline,
            "ranks": comm.Get_size(), "count": options.count,
            "bytes": options.count * ELEMENT_BYTES}


def all_verified(variant, comm):
    """True when every rank's last result is right."""
    from mpi4py import MPI

    return comm.allreduce(0 if variant.verify() else 1, op=MPI.MAX) == 0


def run_blocks(variants, comm, options):
    """Interleaved blocks, as in wb_coll; returns the records (rank 0 prints them)."""
    from mpi4py import MPI

    blocks, iterations = options.blocks, options.iterations
    if not 1 <= blocks <= min(1024, iterations):
        raise SystemExit("mpi4py_coll: need 1 <= blocks <= min(1024, iterations)")
    for variant in variants:
        calls(variant, options.warmup)
    mine = [[0.0] * blocks for _ in variants]
    for b in range(blocks):
        n = iterations * (b + 1) // blocks - iterations * b // blocks
        for k in range(len(variants)):
            i = (b + k) % len(variants)
            mine[i][b] = osu_block(variants[i], comm, n)
    records = []
    for variant, times in zip(variants, mine):
        slowest = [comm.allreduce(t, op=MPI.MAX) for t in times]
        record = record_head(variant, comm, options)
        record.update(iterations=iterations, warmup=options.warmup, blocks=blocks,
                      us=sum(slowest) / blocks, block_us=slowest,
                      verified=all_verified(variant, comm), thread_level=thread_level())
        records.append(record)
    return records


def run_audit(variants, comm, options):
    """K calls of each variant inside an MPI_Pcontrol(2) window labelled by WB_AUDIT_LABEL."""
    records = []
    for variant in variants:
        calls(variant, options.warmup)
        mpi4py_harness.audited(comm, variant.name(), lambda: calls(variant, options.audit))
        record = record_head(variant, comm, options)
        record.update(audit_calls=options.audit, verified=all_verified(variant, comm))
        records.append(record)
    return records


def parse(argv, python_variants=None, doc=__doc__):
    """wb_coll's options (and --c-kernels)."""
    python_variants = PYTHON_VARIANTS if python_variants is None else python_variants
    return mpi4py_harness.parser(doc, ",".join(python_variants), 1000, 100).parse_args(argv)


def main(argv, python_variants=None, doc=__doc__):
    """Runs what the options ask for (with `python_variants`, these collectives by default);
    returns the exit status."""
    python_variants = PYTHON_VARIANTS if python_variants is None else python_variants
    options = parse(argv, python_variants, doc)
    if options.list:
        for variant in python_variants.values():
            print(json.dumps({"variant": variant.name(), "api": variant.api, "op": variant.op,
                              "form": variant.form, "baseline": variant.baseline,
                              "program": False}))
        return 0
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    variants = [make_variant(name, comm, options.count, options.c_kernels, python_variants)
                for name in options.variants.split(",")]
    run = run_audit if options.audit > 0 else run_blocks
    return mpi4py_harness.finish(variants, run(variants, comm, options), comm)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
