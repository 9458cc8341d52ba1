"""The mpi4py rma kernel of wrapper-bench: wb_rma's command line and records, in Python.

    python3 mpi4py_rma.py --list
    mpiexec -n 2 python3 mpi4py_rma.py --variants mpi4py/put/lock_flush,c/put/lock_flush
        --count N [--iterations I] [--warmup W] [--blocks B] [--audit K] [--c-kernels LIB]

mpi4py's MPI.Win on a window of int32 (MPI.Win.Allocate) with NumPy buffers: Put, Get and
Accumulate (MPI.SUM) with a lock of rank 1 held and Flush after each (lock_flush), in a round trip
of three Fence (fence) and 64 to a Flush (bandwidth); Fetch_and_op and Compare_and_swap with
Flush; each against the C variant making the same calls (bench/kernels/c/c_rma.c through ctypes,
in the same process). Timing is OSU's one-sided method (osu_put_latency), as the harness times
these variants: the calls back to back between two barriers. The layout and the check are those
of bench/harness/rma_kernels.h.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi4py_coll  # noqa: E402  (next to this file)
from mpi4py_coll import value  # noqa: E402

BANDWIDTH_OPS = 64  # WB_RMA_BANDWIDTH_OPS
WINDOW_QUANTUM_INTS = 4  # rma_kernels.h: MPICH 4.0.2 misplaces operations into windows whose
# size is not a multiple of 16 bytes


class OneSided(mpi4py_coll.Collective):
    """A window of `count` int32 per rank holding its owner's values, the origin the same; rank
    0 locks rank 1 (lock_flush, bandwidth) or every rank fences (fence) at setup."""

    form, fence = "lock_flush", False

    def __init__(self, comm, count):
        import numpy
        from mpi4py import MPI

        super().__init__(comm, count)
        self.peer = 1 - self.rank if self.rank < 2 else MPI.PROC_NULL
        window_ints = -(-count // WINDOW_QUANTUM_INTS) * WINDOW_QUANTUM_INTS
        self.win = MPI.Win.Allocate(window_ints * 4, disp_unit=4, comm=comm)
        self.window = numpy.frombuffer(self.win.tomemory(), dtype=numpy.int32)
        self.window[:] = [value(self.rank, i) for i in range(window_ints)]
        self.origin = numpy.array([value(self.rank, i) for i in range(count)], dtype=numpy.int32)
        self.fetched = numpy.zeros(count, dtype=numpy.int32)
        self.single = numpy.zeros(1, dtype=numpy.int32)  # what the atomics fetch
        self.one = numpy.ones(1, dtype=numpy.int32)
        self.expected = numpy.array([value(1, 0)], dtype=numpy.int32)
        self.next = self.expected + 1
        self.calls_made, self.chain_ok = 0, True
        comm.Barrier()  # every window is filled before any rank accesses it
        self.open = self.fence or self.rank == 0
        if self.fence:
            self.win.Fence(0)
        elif self.rank == 0:
            self.win.Lock(1, MPI.LOCK_SHARED)

    @classmethod
    def name(cls):
        return f"{cls.api}/{cls.op}/{cls.form}"

    def issue(self):
        raise NotImplementedError

    def call(self):
        if self.fence:
            self.win.Fence(0)
            if self.rank == 0:
                self.issue()
            self.win.Fence(0)
            if self.rank == 1:
                self.issue()
            self.win.Fence(0)
            self.calls_made += 1
        elif self.rank == 0:
            for _ in range(BANDWIDTH_OPS if self.form == "bandwidth" else 1):
                self.issue()
            self.win.Flush(1)
            self.calls_made += BANDWIDTH_OPS if self.form == "bandwidth" else 1

    def osu_block(self, calls):
        """osu_put_latency's timing: the calls back to back between two barriers."""
        from mpi4py import MPI

        call = self.call
        self.comm.Barrier()
        start = MPI.Wtime()
        for _ in range(calls):
            call()
        total = MPI.Wtime() - start
        self.comm.Barrier()
        return total * 1e6 / calls

    def verify(self):
        """Ends the epoch, then checks this rank's window (read under a lock of itself) as
        wb_rma_check of c_rma.c does."""
        from mpi4py import MPI

        if self.open:
            if self.fence:
                self.win.Fence(MPI.MODE_NOSUCCEED)
            else:
                self.win.Unlock(1)
            self.open = False
        calls = self.comm.allreduce(self.calls_made, op=MPI.MAX)
        self.win.Lock(self.rank, MPI.LOCK_SHARED)
        ok = self.check([int(x) for x in self.window[:self.count]], calls)
        self.win.Unlock(self.rank)
        return ok

    def values(self, rank, times=0, source=0):
        return [value(rank, i) + times * value(source, i) for i in range(self.count)]

    def close(self):
        if self.open:
            self.verify()
        self.win.Free()


def _targets(variant):
    return variant.rank == 1 or (variant.fence and variant.rank == 0)


class Put(OneSided):
    op = "put"

    def issue(self):
        self.win.Put(self.origin, self.peer)

    def check(self, window, calls):
        return window == self.values(1 - self.rank if _targets(self) else self.rank)


class Get(OneSided):
    op = "get"

    def issue(self):
        self.win.Get(self.fetched, self.peer)

    def check(self, window, calls):
        issuer = self.rank == 0 or (self.fence and self.rank == 1)
        fetched = [int(x) for x in self.fetched]
        return window == self.values(self.rank) and (not issuer or
                                                     fetched == self.values(1 - self.rank))


class Accumulate(OneSided):
    op = "accumulate"

    def issue(self):
        from mpi4py import MPI

        self.win.Accumulate(self.origin, self.peer, op=MPI.SUM)

    def check(self, window, calls):
        return window == self.values(self.rank, calls if _targets(self) else 0, 1 - self.rank)


class FetchAndOp(OneSided):
    op = "fetch_and_op"

    def issue(self):
        from mpi4py import MPI

        self.win.Fetch_and_op(self.one, self.single, 1, 0, MPI.SUM)

    def check(self, window, calls):
        if self.rank == 1:
            return window[0] == value(1, 0) + calls
        return self.rank != 0 or calls == 0 or int(self.single[0]) == value(1, 0) + calls - 1


class CompareAndSwap(FetchAndOp):
    op = "compare_and_swap"

    def call(self):
        if self.rank != 0:
            return
        self.win.Compare_and_swap(self.next, self.expected, self.single, 1, 0)
        self.win.Flush(1)
        self.chain_ok = self.chain_ok and self.single[0] == self.expected[0]
        self.expected[0] = self.next[0]
        self.next[0] += 1
        self.calls_made += 1

    def check(self, window, calls):
        return super().check(window, calls) and self.chain_ok


def _forms(kind, forms=("lock_flush", "fence", "bandwidth")):
    """The variants of `kind` in each form."""
    return [type(f"{kind.__name__}_{form}", (kind,), {
        "form": form, "fence": form == "fence", "baseline": f"c/{kind.op}/{form}"})
        for form in forms]


PYTHON_VARIANTS = {v.name(): v for v in (
    *_forms(Put), *_forms(Get), *_forms(Accumulate), *_forms(FetchAndOp, ("lock_flush",)),
    *_forms(CompareAndSwap, ("lock_flush",)))}

if __name__ == "__main__":
    sys.exit(mpi4py_coll.main(sys.argv[1:], PYTHON_VARIANTS, __doc__))
