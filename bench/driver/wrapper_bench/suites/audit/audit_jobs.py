"""The path audit's jobs: one launch per build under the PMPI interposer, counting the MPI calls
behind each variant."""

from ...core.jobs import Counts, Job
from ...core.jobs import chosen as _chosen

COUNTS = {"full": {"audit": Counts(100, 10, 1, 1)}, "quick": {"audit": Counts(100, 10, 1, 1)},
          "smoke": {"audit": Counts(20, 5, 1, 1)}}

# The framed protocol's payloads audited once more past the frame (16384 elements: 64 KiB of
# ints, 16 KiB of chars, above the default frame on both MPIs), where a payload is a frame and
# a continuation.
FRAMED_AUDIT_COUNT = 16384


def audit_jobs(suite, build, counts, filters, baselines):
    """One audit per build: scalar payloads at count 1, every other payload at 8 elements, and
    the framed protocol's variants again at FRAMED_AUDIT_COUNT elements."""
    scalars = tuple(v[0] for v in build.variants if v[2] == 1)
    others = tuple(v[0] for v in build.variants if v[2] != 1)
    framed = tuple(v for v in others if v.endswith(("/framed", "_framed", "_framed_uninit")))
    return [Job("audit", build, names, count, counts, counts.iterations)
            for count, group in ((1, scalars), (8, others), (FRAMED_AUDIT_COUNT, framed))
            if (names := _chosen(build, group, count, filters))]
