"""The mpi4py io kernel of wrapper-bench: wb_io's command line and records, in Python.

    mpiexec -n 2 python3 mpi4py_io.py --variants mpi4py/write_at,c/write_at,posix/write_at
        --sizes 8:2000,65536:500 --dir DIR --c-kernels LIB [--warmup W] [--blocks B]

mpi4py's MPI.File with NumPy buffers, as a careful mpi4py program writes it: opened once with
MPI.MODE_RDWR | MPI.MODE_CREATE, then per call fh.Write_at(offset, [data, MPI.BYTE]) or
fh.Read_at(offset, [into, MPI.BYTE], status) with status.Get_count(MPI.BYTE) checked; each
against C's MPI_File_write_at / read_at and POSIX pwrite / pread of the same bytes at the same
offsets (bench/kernels/c/io_c.c and io_posix.c through ctypes, io_bridge.h), in interleaved blocks
of this one process, timed as wb_io times them (a block: its calls back to back between a
barrier and the clock; the slowest rank's microseconds per call). The bytes are io_layout.c's
(rank r writes byte k as (101 r + 13 k + 1) mod 256 at offset r * n); every file is checked with
POSIX reads and deleted.
"""

import argparse
import ctypes
import json
import os
import sys

OPS = ("write_at", "read_at")


def pattern(rank, size):
    """io_layout.c's bytes of `rank` at `size` bytes, as a NumPy array."""
    import numpy

    return ((numpy.arange(size, dtype=numpy.uint64) * 13 + rank * 101 + 1) % 256).astype(
        numpy.uint8)


class PythonFile:
    """One mpi4py instance: its file, opened on `comm`, at `size` bytes per rank per call."""

    api, baseline = "mpi4py", None

    def __init__(self, op, comm, directory, size, tag):
        import numpy
        from mpi4py import MPI

        self.op, self.comm, self.size = op, comm, size
        self.rank = comm.Get_rank()
        self.path = os.path.join(directory, f"wb-io-mpi4py-{op}-{size}-{tag}.dat")
        self.offset = self.rank * size
        self.data = pattern(self.rank, size)
        self.into = numpy.zeros(size, dtype=numpy.uint8)
        self.failed = False
        if op == "read_at":
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            os.pwrite(descriptor, self.data.tobytes(), self.offset)
            os.close(descriptor)
        comm.Barrier()
        self.fh = MPI.File.Open(comm, self.path, MPI.MODE_RDWR | MPI.MODE_CREATE)
        self.status = MPI.Status()
        self.call = self.write_at if op == "write_at" else self.read_at

    def write_at(self):
        from mpi4py import MPI

        self.fh.Write_at(self.offset, [self.data, MPI.BYTE])

    def read_at(self):
        from mpi4py import MPI

        self.fh.Read_at(self.offset, [self.into, MPI.BYTE], self.status)
        if self.status.Get_count(MPI.BYTE) != self.size:
            self.failed = True

    def block(self, calls):
        from mpi4py import MPI

        call = self.call
        self.comm.Barrier()
        start = MPI.Wtime()
        for _ in range(calls):
            call()
        return (MPI.Wtime() - start) * 1e6 / max(calls, 1)

    def close(self):
        """Closes, checks what was written or read, deletes the file: True when every rank's
        bytes are right."""
        from mpi4py import MPI

        self.fh.Close()
        self.comm.Barrier()
        if self.op == "read_at":
            wrong = self.failed or bytes(self.into) != bytes(self.data)
        else:
            descriptor = os.open(self.path, os.O_RDONLY)
            wrong = os.pread(descriptor, self.size, self.offset) != self.data.tobytes()
            os.close(descriptor)
        ok = self.comm.allreduce(0 if wrong else 1, op=MPI.MIN) == 1
        if self.rank == 0:
            os.unlink(self.path)
        return ok


class BridgedFile:
    """A C or POSIX instance of libwb_ckernels (the harness's own code), through ctypes."""

    baseline = None

    def __init__(self, library, name, comm, directory, size, tag):
        self.api, _, self.op = name.partition("/")
        self.library = library
        self.instance = library.wb_io_bridge_open(name.encode(), comm.py2f(), directory.encode(),
                                                  size, 1, tag)
        if not self.instance:
            raise RuntimeError(f"{name} at {size} bytes: open failed")

    def block(self, calls):
        return self.library.wb_io_bridge_block(self.instance, calls)

    def close(self):
        return self.library.wb_io_bridge_close(self.instance) == 0


def load_c_kernels(path):
    """libwb_ckernels with the ctypes signatures of io_bridge.h (and py_bridge.h's floor)."""
    library = ctypes.CDLL(path)
    library.wb_io_bridge_open.restype = ctypes.c_void_p
    library.wb_io_bridge_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                          ctypes.c_size_t, ctypes.c_long, ctypes.c_int]
    library.wb_io_bridge_block.restype = ctypes.c_double
    library.wb_io_bridge_block.argtypes = [ctypes.c_void_p, ctypes.c_long]
    library.wb_io_bridge_close.argtypes = [ctypes.c_void_p]
    library.wb_bridge_floor.restype = ctypes.c_double
    library.wb_bridge_floor.argtypes = [ctypes.c_int]
    return library


def parse_sizes(text):
    """'8:2000,65536:500' -> [(8, 2000), (65536, 500)]."""
    return [tuple(int(x) for x in item.split(":")) for item in text.split(",")]


def open_instance(name, comm, options, library, size, tag):
    api, _, op = name.partition("/")
    if op not in OPS:
        raise SystemExit(f"mpi4py_io: {name}: no such variant here ({', '.join(OPS)} only)")
    if api == "mpi4py":
        instance = PythonFile(op, comm, options.dir, size, tag)
        instance.baseline = f"c/{op}"
        return instance
    return BridgedFile(library, name, comm, options.dir, size, tag)


def floor_us(library, comm):
    """The process's floor (floor.h) on 2 ranks, else None."""
    if comm.Get_size() != 2:
        return None
    value = library.wb_bridge_floor(comm.py2f())
    return value if value > 0 else None


def block_calls(calls, blocks, b):
    return calls * (b + 1) // blocks - calls * b // blocks


def record(name, instance, size, calls, options, ranks, block_us, floors, ok):
    api, _, op = name.partition("/")
    fields = {"variant": name, "api": api, "op": op, "form": "independent",
              "baseline": instance.baseline, "ranks": ranks, "bytes": size, "rank_bytes": size,
              "iterations": calls, "warmup": options.warmup, "blocks": options.blocks,
              "us": sum(block_us) / len(block_us), "block_us": block_us}
    for key, value in zip(("floor_before_us", "floor_after_us"), floors):
        if value:
            fields[key] = value
    return dict(fields, dir=options.dir, verified=ok)


def run(options):
    import numpy
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    library = load_c_kernels(options.c_kernels)
    sizes, names = parse_sizes(options.sizes), options.variants.split(",")
    before = floor_us(library, comm)
    cells = [(name, size, calls) for name in names for size, calls in sizes]
    instances = [open_instance(name, comm, options, library, size, tag)
                 for tag, (name, size, _) in enumerate(cells)]
    for instance in instances:
        instance.block(options.warmup)
    mine = numpy.zeros((len(cells), options.blocks))
    for b in range(options.blocks):
        for j in range(len(cells)):
            k = (b + j) % len(cells)
            mine[k, b] = instances[k].block(block_calls(cells[k][2], options.blocks, b))
    slowest = numpy.zeros_like(mine)
    comm.Reduce(mine, slowest, op=MPI.MAX, root=0)
    floors = (before, floor_us(library, comm))
    all_ok = True
    for k, (name, size, calls) in enumerate(cells):
        ok = instances[k].close()
        all_ok &= ok
        if comm.Get_rank() == 0:
            print(json.dumps(record(name, instances[k], size, calls, options, comm.Get_size(),
                                    [float(x) for x in slowest[k]], floors, ok)), flush=True)
    return all_ok


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", required=True)
    parser.add_argument("--sizes", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--c-kernels", required=True)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--blocks", type=int, default=10)
    options = parser.parse_args(argv)
    if not run(options):
        print("mpi4py_io: a call failed or a file did not verify", file=sys.stderr)
        from mpi4py import MPI

        MPI.COMM_WORLD.Abort(3)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
