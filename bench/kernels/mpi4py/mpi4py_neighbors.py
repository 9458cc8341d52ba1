"""The mpi4py neighbors kernel of wrapper-bench: wb_neighbors' command line and records, in Python.

    python3 mpi4py_neighbors.py --list
    mpiexec -n P python3 mpi4py_neighbors.py --variants mpi4py/neighbor_alltoall/buffer,
        c/neighbor_alltoall/torus --count N [--iterations I] [--warmup W] [--blocks B]
        [--audit K] [--c-kernels LIB]

mpi4py on the neighbors suite's torus (comm.Create_cart of MPI.Compute_dims, periodic): the
buffer methods (Neighbor_alltoall, Neighbor_alltoallv on int32 NumPy arrays), the object method
(neighbor_alltoall on Python lists, pickled) and making the torus (Create_cart, then Free), each
against the C variant doing the same (bench/kernels/c/c_neighbors.c through ctypes, in the same
process), timed and audited as mpi4py_coll.py does. The data and the check are those of
bench/harness/neighbors.h.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi4py_coll  # noqa: E402  (next to this file)
from mpi4py_coll import value  # noqa: E402

DEGREE = 4  # the torus: per dimension the -1 then the +1 neighbour


def block(rank, k, count):
    """Send block k of `rank` (wb_neighbor_fill): the value names the sender and the dimension."""
    return [value(rank, (k // 2) * count + i) for i in range(count)]


def torus_dims(size):
    """MPI_Dims_create of size in 2 dimensions (wb_torus_dims)."""
    from mpi4py import MPI

    return MPI.Compute_dims(size, 2)


class Torus(mpi4py_coll.Collective):
    """One call on the periodic torus, made with Create_cart at setup."""

    baseline = "c/neighbor_alltoall/torus"

    def __init__(self, comm, count):
        super().__init__(comm, count)
        self.torus = comm.Create_cart(torus_dims(self.size), periods=[True, True],
                                      reorder=False)
        self.neighbors = [n for d in range(2) for n in self.torus.Shift(d, 1)]

    def verify(self):
        """Each block from its slot's neighbour, along its slot's dimension or another one of
        the same neighbour (wb_neighbor_check of c_neighbors.c)."""
        got, count = self.result(), self.count
        if len(got) != DEGREE * count:
            return False
        return all(any(self.neighbors[other] == rank and
                       got[k * count:(k + 1) * count] == block(rank, other, count)
                       for other in range(DEGREE))
                   for k, rank in enumerate(self.neighbors))

    def close(self):
        self.torus.Free()


class BufferTorus(Torus):
    """int32 NumPy arrays: MPI reads and writes them, nothing is pickled."""

    form = "buffer"

    def __init__(self, comm, count):
        import numpy

        super().__init__(comm, count)
        self.send = numpy.array([x for k in range(DEGREE) for x in block(self.rank, k, count)],
                                dtype=numpy.int32)
        self.received = numpy.zeros(DEGREE * count, dtype=numpy.int32)
        self.counts = [count] * DEGREE
        self.displs = [k * count for k in range(DEGREE)]


class NeighborAlltoall(BufferTorus):
    op = "neighbor_alltoall"

    def call(self):
        self.torus.Neighbor_alltoall(self.send, self.received)


class NeighborAlltoallv(BufferTorus):
    op, baseline = "neighbor_alltoallv", "c/neighbor_alltoallv/torus"

    def call(self):
        from mpi4py import MPI

        self.torus.Neighbor_alltoallv([self.send, self.counts, self.displs, MPI.INT],
                                      [self.received, self.counts, self.displs, MPI.INT])


class NeighborAlltoallObject(Torus):
    """neighbor_alltoall of one Python list per neighbour (pickled), a list of lists back."""

    op, form = "neighbor_alltoall", "object"

    def __init__(self, comm, count):
        super().__init__(comm, count)
        self.send = [block(self.rank, k, count) for k in range(DEGREE)]
        self.received = []

    def call(self):
        self.received = self.torus.neighbor_alltoall(self.send)

    def result(self):
        return [x for got in self.received for x in got]


class CartCreate(mpi4py_coll.Collective):
    """comm.Create_cart of the torus and Free, against MPI_Cart_create and MPI_Comm_free."""

    op, form, baseline = "cart_create", "create_cart", "c/cart_create/torus"

    def call(self):
        torus = self.comm.Create_cart(torus_dims(self.size), periods=[True, True], reorder=False)
        self.received = torus.dims
        torus.Free()

    def verify(self):
        return self.received == torus_dims(self.size)


PYTHON_VARIANTS = {v.name(): v for v in (NeighborAlltoall, NeighborAlltoallv,
                                         NeighborAlltoallObject, CartCreate)}

if __name__ == "__main__":
    sys.exit(mpi4py_coll.main(sys.argv[1:], PYTHON_VARIANTS, __doc__))
