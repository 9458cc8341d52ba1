"""The point-to-point suites' jobs: the tiny-message tables and the size sweep, each a launch of
two ranks running several variants in interleaved blocks, expanded over one build. The p2p room
runs them; the suites across hosts (tiny-hosts) and the instruction counts run the same jobs."""

from .jobs import Counts, Job
from .jobs import chosen as _chosen
from .jobs import with_baselines as _with_baselines

TINY_INT_COUNTS = (1, 8, 64)
TINY_CHAR_COUNTS = (8, 64)
SWEEP_BYTES = (4, 32, 256, 4096, 65536, 1048576)

# Variants of the size sweep and mpi4py's (objects stop where they stop being practical, as in
# the article).
SWEEP_VARIANTS = ("c/int_buffer", "c/mprobe", "boost/raw", "boost/vector", "thinmpi/span",
                  "thinmpi/vector_bounded", "thinmpi/vector_alloc", "thinmpi/vector_alloc_uninit",
                  "c/framed", "thinmpi/vector_framed", "thinmpi/vector_framed_uninit",
                  "thinmpi/vector_reuse",
                  "go/int_slice_prealloc", "go/int_slice_recv",
                  "kamping/vector_bounded", "kamping/vector", "mpl/vector_bounded", "mpl/vector",
                  "mpl/vector_container")
MPI4PY_VARIANTS = ("c/int_buffer", "mpi4py/numpy", "mpi4py/object")
MPI4PY_OBJECT_MAX_BYTES = 4096

# Launching two ranks costs more than the measuring at these sizes: the quick matrix keeps the
# article's sweep counts and trims the tiny tables' round trips and repetitions, and runs the
# sweep in two processes per size instead of three (the targets are judged on the tiny suite).
COUNTS = {"full": {"tiny": Counts(50000, 5000, 5), "sweep": Counts(30000, 3000, 3)},
          "quick": {"tiny": Counts(20000, 2000, 3), "sweep": Counts(30000, 3000, 2)},
          "smoke": {"tiny": Counts(400, 40, 2, 2), "sweep": Counts(200, 20, 2, 2)}}


def sweep_iterations(full_iterations, size_bytes):
    """The article's adaptive sweep counts (30,000 / 10,000 / 2,000 / 300), scaled."""
    scale = {4096: 3, 65536: 15, 1048576: 100}.get(size_bytes, 1)
    return max(20, full_iterations // scale)


def is_serial(name):
    """Whether a variant belongs to the serialization suite (kept out of the tiny tables)."""
    return "/ser_" in name


def _family(build, element_bytes_is_char):
    return [v[0] for v in build.variants if (v[1] == 1) == element_bytes_is_char
            and not is_serial(v[0])]


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


def suite_jobs(suite, build, counts, filters, baselines):
    """The jobs of the tiny or sweep suite on one build."""
    return (tiny_jobs if suite == "tiny" else sweep_jobs)(build, counts, filters, baselines)
