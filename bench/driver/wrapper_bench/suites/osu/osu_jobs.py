"""The OSU-compatible sweep's jobs: MPI_CHAR, 1 B to 4 MiB, C and thinmpi (and Go, and the real
osu_latency) side by side."""

from ...core.jobs import Counts, Job
from ...core.jobs import chosen as _chosen
from ...core.osu import OSU_VARIANTS, sweep_sizes

# The quick run's sizes: every other power of two, 1 B to 4 MiB (the curve's shape and both ends
# at half the launches; the spread between processes there is the matrix's smallest, median
# 2.8 %, so two processes per size do). --full runs every power of two, three times.
QUICK_BYTES = tuple(4**k for k in range(12))  # 1 B, 4 B, 16 B, ... 4 MiB
# The quick run makes 200 round trips from 1 MiB up (osu_latency's own are 1,000, as the full
# run's): at 1,000 the 1 and 4 MiB launches were 58 of the suite's 63 s of timed round trips
# (fresh clone at e3bf26f), for the cells whose spread between processes is the matrix's smallest.
COUNTS = {"full": {"osu": Counts(1000, 200, 3)},
          "quick": {"osu": Counts(1000, 200, 2, sizes=QUICK_BYTES, large=(1048576, 200))},
          "smoke": {"osu": Counts(200, 20, 1, 2)}}


def osu_jobs(suite, build, counts, filters, baselines):
    """The OSU-compatible sweep: MPI_CHAR, 1 B to 4 MiB, C and thinmpi (and Go) side by side."""
    if build.runner not in ("harness", "go", "osu"):
        return []
    return [Job("osu", build, names, size, counts, iterations=_iterations(counts, size))
            for size in sweep_sizes(filters, counts.sizes)
            if (names := _chosen(build, OSU_VARIANTS, size, filters))]


def _iterations(counts, size):
    """Round trips of one size: the mode's, or its fewer large ones (counts.large)."""
    if counts.large and size >= counts.large[0]:
        return counts.large[1]
    return counts.iterations
