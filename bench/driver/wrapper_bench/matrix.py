"""Which jobs to run: the article's matrix, expanded over the builds and filters at hand.

A job is one launch of two ranks running several variants in interleaved blocks (or one audit).
Its records become cells: one per (suite, mpi, compiler, variant, count).
"""

from dataclasses import dataclass

from . import serial_suite
from .jobs import Build, Counts, Job  # noqa: F401 (Build: matrix.Build, as before)
from .jobs import chosen as _chosen
from .jobs import with_baselines as _with_baselines

TINY_INT_COUNTS = (1, 8, 64)
TINY_CHAR_COUNTS = (8, 64)
SWEEP_BYTES = (4, 32, 256, 4096, 65536, 1048576)
OSU_BYTES = tuple(2**k for k in range(23))  # 1 B .. 4 MiB
# The APIs of the variants (--api): C always runs; kamping and mpl are the peers (peers.py).
APIS = ("c", "boost", "thinmpi", "mpi4py", "go", "kamping", "mpl")
SUITES = ("tiny", "sweep", "osu", "serialization", "audit", "collectives", "neighbors", "rma")

# Variants of the size sweep, of the OSU sweep, and mpi4py's (objects stop where they stop being
# practical, as in the article).
SWEEP_VARIANTS = ("c/int_buffer", "c/mprobe", "boost/raw", "boost/vector", "thinmpi/span",
                  "thinmpi/vector_bounded", "thinmpi/vector_alloc", "thinmpi/vector_alloc_uninit",
                  "c/framed", "thinmpi/vector_framed", "thinmpi/vector_framed_uninit",
                  "thinmpi/vector_reuse",
                  "go/int_slice_prealloc", "go/int_slice_recv",
                  "kamping/vector_bounded", "kamping/vector", "mpl/vector_bounded", "mpl/vector",
                  "mpl/vector_container")
OSU_VARIANTS = ("c/char_buffer", "thinmpi/char_span", "go/byte_slice_prealloc",
                "gompi/byte_slice_prealloc", "osu/osu_latency", "kamping/char_buffer",
                "mpl/char_buffer")
# Builds whose variants do not depend on the C/C++ compiler (the --compiler filter keeps them).
COMPILER_FREE_RUNNERS = ("mpi4py", "go", "osu")  # the Go runner covers "go" and "gompi" builds
MPI4PY_VARIANTS = ("c/int_buffer", "mpi4py/numpy", "mpi4py/object")
MPI4PY_OBJECT_MAX_BYTES = 4096

FULL = {"tiny": Counts(50000, 5000, 5), "sweep": Counts(30000, 3000, 3),
        "osu": Counts(1000, 200, 3), "audit": Counts(100, 10, 1, 1),
        "serialization": Counts(20000, 2000, 3)}
# Launching two ranks costs more than the measuring at these sizes: the quick matrix keeps the
# article's sweep and trims the tiny tables' round trips and repetitions.
QUICK = {"tiny": Counts(20000, 2000, 3), "sweep": Counts(30000, 3000, 3),
         "osu": Counts(1000, 200, 3), "audit": Counts(100, 10, 1, 1),
         "serialization": Counts(5000, 500, 3)}
SMOKE = {"tiny": Counts(400, 40, 2, 2), "sweep": Counts(200, 20, 2, 2),
         "osu": Counts(200, 20, 1, 2), "audit": Counts(20, 5, 1, 1),
         "serialization": Counts(100, 10, 1, 2)}


def sweep_iterations(full_iterations, size_bytes):
    """The article's adaptive sweep counts (30,000 / 10,000 / 2,000 / 300), scaled."""
    scale = {4096: 3, 65536: 15, 1048576: 100}.get(size_bytes, 1)
    return max(20, full_iterations // scale)


@dataclass(frozen=True)
class Filters:
    """The driver's filters; None means everything."""

    mpi: tuple = None
    compiler: tuple = None
    api: tuple = None
    sweep_bytes: tuple = None
    suites: tuple = SUITES

    def keeps_build(self, build):
        """Whether the MPI and compiler filters keep `build`."""
        compilers_ok = self.compiler is None or build.runner in COMPILER_FREE_RUNNERS or \
            build.compiler in self.compiler
        return (self.mpi is None or build.mpi in self.mpi) and compilers_ok

    def keeps_variant(self, name):
        """Whether the API filter keeps the variant (C baselines always)."""
        api = name.split("/")[0]
        return self.api is None or api in self.api or name.startswith("c/")


def _family(build, element_bytes_is_char):
    return [v[0] for v in build.variants if (v[1] == 1) == element_bytes_is_char
            and not serial_suite.is_serial(v[0])]


def tiny_jobs(build, counts, filters, baselines):
    """The tiny-message tables: 1, 8, 64 ints (and structs); strings of 8 and 64 chars."""
    jobs = []
    for is_char, sizes in ((False, TINY_INT_COUNTS), (True, TINY_CHAR_COUNTS)):
        for count in sizes:
            names = _chosen(build, _family(build, is_char), count, filters)
            if build.runner == "mpi4py" and is_char:
                continue
            if names:
                jobs.append(Job("tiny", build, _with_baselines(names, baselines), count, counts))
    return jobs


def sweep_jobs(build, counts, filters, baselines):
    """The size sweep, 4 B to 1 MiB of ints."""
    jobs = []
    for size in filters.sweep_bytes or SWEEP_BYTES:
        count = max(1, size // 4)
        wanted = MPI4PY_VARIANTS if build.runner == "mpi4py" else SWEEP_VARIANTS
        if size > MPI4PY_OBJECT_MAX_BYTES:
            wanted = tuple(n for n in wanted if n != "mpi4py/object")
        names = _chosen(build, wanted, count, filters)
        if names:
            iterations = sweep_iterations(counts.iterations, size)
            jobs.append(Job("sweep", build, _with_baselines(names, baselines), count, counts,
                            iterations))
    return jobs


def osu_jobs(build, counts, filters, baselines):
    """The OSU-compatible sweep: MPI_CHAR, 1 B to 4 MiB, C and thinmpi (and Go) side by side."""
    if build.runner not in ("harness", "go", "osu"):
        return []
    sizes = OSU_BYTES if filters.sweep_bytes is None else tuple(
        s for s in OSU_BYTES if s <= max(filters.sweep_bytes))
    return [Job("osu", build, names, size, counts) for size in sizes
            if (names := _chosen(build, OSU_VARIANTS, size, filters))]


# The framed protocol's payloads audited once more past the frame (16384 elements: 64 KiB of
# ints, 16 KiB of chars, above the default frame on both MPIs), where a payload is a frame and
# a continuation.
FRAMED_AUDIT_COUNT = 16384


def audit_jobs(build, counts, filters, baselines):
    """One audit per build: scalar payloads at count 1, every other payload at 8 elements, and
    the framed protocol's variants again at FRAMED_AUDIT_COUNT elements."""
    scalars = tuple(v[0] for v in build.variants if v[2] == 1)
    others = tuple(v[0] for v in build.variants if v[2] != 1)
    framed = tuple(v for v in others if v.endswith(("/framed", "_framed", "_framed_uninit")))
    return [Job("audit", build, names, count, counts, counts.iterations)
            for count, group in ((1, scalars), (8, others), (FRAMED_AUDIT_COUNT, framed))
            if (names := _chosen(build, group, count, filters))]


SUITE_JOBS = {"tiny": tiny_jobs, "sweep": sweep_jobs, "osu": osu_jobs, "audit": audit_jobs,
              "serialization": serial_suite.jobs,
              "collectives": lambda *_: [],  # its own launches: coll_suite.py
              "neighbors": lambda *_: [],  # neighbor_suite.py
              "rma": lambda *_: []}  # and rma_suite.py


def expand(builds, filters, counts_by_suite, baselines):
    """Every job of the matrix, suite by suite, build by build."""
    jobs = []
    for suite in filters.suites:
        for build in builds:
            if build.runner == "osu" and suite != "osu":  # osu_latency is only the OSU sweep
                continue
            if filters.keeps_build(build):
                jobs.extend(SUITE_JOBS[suite](build, counts_by_suite.get(suite), filters, baselines))
    return jobs
