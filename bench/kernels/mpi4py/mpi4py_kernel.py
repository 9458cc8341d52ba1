"""The mpi4py kernel of wrapper-bench: the harness's command line and JSON records, in Python.

    python3 mpi4py_kernel.py --list | --info
    mpiexec -n 2 python3 mpi4py_kernel.py --variants mpi4py/numpy,mpi4py/object,c/int_buffer
        --count N [--iterations I] [--warmup W] [--blocks B] [--audit K] [--c-kernels LIB]

Run it with the interpreter whose mpi4py links the MPI of the launcher. c/int_buffer is the C
kernel loaded from libwb_ckernels (--c-kernels), so that the ratios of mpi4py against C are
measured in the same process, in interleaved blocks, like every other ratio of the bench.
"""

import ctypes
import json
import os
import sys

import mpi4py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi4py_harness  # noqa: E402  (next to this file)
import mpi4py_serial  # noqa: E402
from mpi4py_harness import thread_level  # noqa: E402

TAG = 7


class NumpyBuffer:
    """mpi4py/numpy: comm.Send(array) / comm.Recv(array) of an int32 NumPy array."""

    name, baseline, element_bytes = "mpi4py/numpy", "c/int_buffer", 4

    def __init__(self, comm, count):
        import numpy

        self.comm, self.peer = comm, 1 - comm.Get_rank()
        self.sent = (numpy.arange(count, dtype=numpy.int32) * 7 + 1).astype(numpy.int32)
        self.received = numpy.zeros(count, dtype=numpy.int32)

    def round_trips(self, iterations):
        """Runs `iterations` round trips (rank 0 sends, rank 1 echoes)."""
        comm, peer, sent, received = self.comm, self.peer, self.sent, self.received
        reply = sent if comm.Get_rank() == 0 else received
        starts = comm.Get_rank() == 0
        for _ in range(iterations):
            if starts:
                comm.Send(reply, dest=peer, tag=TAG)
            comm.Recv(received, source=peer, tag=TAG)
            if not starts:
                comm.Send(reply, dest=peer, tag=TAG)

    def verify(self):
        """True when the last payload received is the one sent."""
        return bool((self.received == self.sent).all())


class PythonObject:
    """mpi4py/object: comm.send(list) / comm.recv() of a Python list of ints (pickled)."""

    name, baseline, element_bytes = "mpi4py/object", "c/int_buffer", 4

    def __init__(self, comm, count):
        self.comm, self.peer = comm, 1 - comm.Get_rank()
        self.sent = [i * 7 + 1 for i in range(count)]
        self.received = None

    def round_trips(self, iterations):
        """Runs `iterations` round trips (rank 0 sends, rank 1 echoes)."""
        comm, peer = self.comm, self.peer
        starts = comm.Get_rank() == 0
        for _ in range(iterations):
            if starts:
                comm.send(self.sent, dest=peer, tag=TAG)
            self.received = comm.recv(source=peer, tag=TAG)
            if not starts:
                comm.send(self.received, dest=peer, tag=TAG)

    def verify(self):
        """True when the last payload received is the one sent."""
        return self.received == self.sent


class CKernel:
    """A C variant of libwb_ckernels (the harness's own code), driven through ctypes."""

    baseline, element_bytes = None, 4

    def __init__(self, name, library, comm, count):
        self.name, self.library = name, library
        self.bridge = library.wb_bridge_setup(name.encode(), comm.py2f(), count)
        if not self.bridge:
            raise RuntimeError(f"{name}: not in {library._name}")

    def round_trips(self, iterations):
        """Runs `iterations` round trips (rank 0 sends, rank 1 echoes)."""
        return self.library.wb_bridge_time(self.bridge, iterations)

    def verify(self):
        """True when the last payload received is the one sent."""
        return self.library.wb_bridge_verify(self.bridge) == 0

    def close(self):
        """Frees the C variant's buffers."""
        self.library.wb_bridge_teardown(self.bridge)


PYTHON_VARIANTS = {variant.name: variant for variant in (NumpyBuffer, PythonObject)}
PYTHON_VARIANTS.update(mpi4py_serial.VARIANTS)  # the serialization suite


def load_c_kernels(path):
    """libwb_ckernels with its ctypes signatures."""
    library = ctypes.CDLL(path)
    library.wb_bridge_setup.restype = ctypes.c_void_p
    library.wb_bridge_setup.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t]
    library.wb_bridge_time.restype = ctypes.c_double
    library.wb_bridge_time.argtypes = [ctypes.c_void_p, ctypes.c_long]
    library.wb_bridge_verify.argtypes = [ctypes.c_void_p]
    library.wb_bridge_teardown.argtypes = [ctypes.c_void_p]
    library.wb_bridge_floor.restype = ctypes.c_double
    library.wb_bridge_floor.argtypes = [ctypes.c_int]
    return library


def floor_now(comm, c_kernels):
    """The process's physical floor now (bench/harness/floor.h, through libwb_ckernels), one-way
    µs, or None without the library or when it could not be measured."""
    if not c_kernels:
        return None
    value = load_c_kernels(c_kernels).wb_bridge_floor(comm.py2f())
    return value if value > 0 else None


def make_variant(name, comm, count, c_kernels):
    """The variant called `name`, set up on both ranks."""
    if name in PYTHON_VARIANTS:
        return PYTHON_VARIANTS[name](comm, count)
    if name.startswith("c/") and c_kernels:
        return CKernel(name, load_c_kernels(c_kernels), comm, count)
    raise SystemExit(f"mpi4py_kernel: {name}: no such variant here")


def timed(variant, comm, iterations):
    """Seconds for `iterations` round trips, started together on both ranks."""
    from mpi4py import MPI

    comm.Barrier()
    start = MPI.Wtime()
    seconds = variant.round_trips(iterations)
    elapsed = MPI.Wtime() - start
    return seconds if seconds is not None else elapsed


def block_sizes(iterations, blocks):
    """How many round trips each block runs (the harness's split)."""
    return [iterations * (b + 1) // blocks - iterations * b // blocks for b in range(blocks)]


def record_head(variant, options):
    """The fields every record of the harness starts with."""
    api, payload = variant.name.split("/")
    return {"variant": variant.name, "api": api, "payload": payload,
            "baseline": variant.baseline, "count": options.count,
            "bytes": options.count * variant.element_bytes, "warmup": options.warmup}


def all_verified(variant, comm):
    """True when the last payload received on both ranks is the one sent."""
    return comm.allreduce(1 if variant.verify() else 0) == 2


def run_blocks(variants, comm, options):
    """Interleaved blocks, as in the harness; returns the records (rank 0 prints them)."""
    sizes = block_sizes(options.iterations, options.blocks)
    before = floor_now(comm, options.c_kernels)
    for variant in variants:
        variant.round_trips(options.warmup)
    seconds = [[0.0] * options.blocks for _ in variants]
    for b, size in enumerate(sizes):
        for k in range(len(variants)):
            i = (b + k) % len(variants)
            seconds[i][b] = timed(variants[i], comm, size)
    after = floor_now(comm, options.c_kernels)
    records = []
    for variant, times in zip(variants, seconds):
        record = record_head(variant, options)
        record.update(iterations=options.iterations, blocks=options.blocks,
                      one_way_us=sum(times) * 1e6 / (2 * options.iterations),
                      block_one_way_us=[t * 1e6 / (2 * n) for t, n in zip(times, sizes)],
                      floor_before_us=before, floor_after_us=after,
                      verified=all_verified(variant, comm), thread_level=thread_level())
        records.append(record)
    return records


def run_audit(variants, comm, options):
    """K round trips of each variant inside an MPI_Pcontrol window labelled by WB_AUDIT_LABEL."""
    records = []
    for variant in variants:
        variant.round_trips(options.warmup)
        mpi4py_harness.audited(comm, variant.name, lambda: variant.round_trips(options.audit))
        record = record_head(variant, options)
        record.update(audit_round_trips=options.audit, verified=all_verified(variant, comm))
        records.append(record)
    return records


def info():
    """What the report's context block needs from this interpreter."""
    mpi4py.rc.initialize = False
    from mpi4py import MPI
    import numpy

    return {"mpi_library_version": MPI.Get_library_version().strip("\x00 \n"),
            "mpi4py": mpi4py.__version__, "numpy": numpy.__version__,
            "python": sys.version.split()[0], "mpi4py_extension": MPI.__file__}


def parse(argv):
    """The harness's options (and --c-kernels, --info)."""
    parser = mpi4py_harness.parser(__doc__, "mpi4py/numpy,mpi4py/object", 10000, 1000)
    parser.add_argument("--info", action="store_true")
    return parser.parse_args(argv)


def main(argv):
    """Runs what the options ask for; returns the exit status."""
    options = parse(argv)
    if options.list:
        for variant in PYTHON_VARIANTS.values():
            print(json.dumps({"variant": variant.name, "baseline": variant.baseline}))
        return 0
    if options.info:
        print(json.dumps(info()))
        return 0
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    if comm.Get_size() != 2:
        raise SystemExit("mpi4py_kernel: run me with exactly 2 ranks")
    variants = [make_variant(name, comm, options.count, options.c_kernels)
                for name in options.variants.split(",")]
    run = run_audit if options.audit > 0 else run_blocks
    return mpi4py_harness.finish(variants, run(variants, comm, options), comm)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
