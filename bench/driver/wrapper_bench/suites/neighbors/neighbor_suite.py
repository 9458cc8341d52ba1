"""The neighbors suite: neighborhood collectives on a ring (a distributed graph) and a 2D torus
(a periodic Cartesian grid), making the torus, the halo program (a 2D Jacobi heat equation),
and the sparse exchange (NBX) against the dense one (alltoallv with exchanged counts) on the
same data; thinmpi and mpi4py each against the same calls in C, inside one process.

It runs on the collectives harness built with the neighbors' variants (wb_neighbors, manifest
wb_neighbors.json; bench/cmake/WbNeighbors.cmake) and the mpi4py kernel mpi4py_neighbors.py,
with the collectives suite's launches, timing, cells and audit (core/harness.py,
harness_run.py, harness_cells.py).
"""

import statistics
from collections import defaultdict

from ...core import harness, harness_cells, harness_run

MANIFEST = "wb_neighbors.json"
MPI4PY_KERNEL = harness.MPI4PY_KERNELS / "mpi4py_neighbors.py"
NEIGHBOR_BYTES = (4, 256, 4096, 65536)  # per neighbour, and per destination of the exchange
HALO_SIDES = (64, 256)  # the side of each rank's square block of the plate
SMOKE_HALO_SIDE = 16
PLAN = harness.Plan("neighbors", NEIGHBOR_BYTES, HALO_SIDES, SMOKE_HALO_SIDE,
                    "c/neighbor_alltoall/torus")
SPARSE, DENSE = "sparse_exchange/nbx", "sparse_exchange/alltoallv"


def find_builds(setup, options):
    """The neighbors harnesses of the presets the driver registered, and the mpi4py kernels;
    [(build or None, why)]."""
    return harness_run.harness_builds(setup, options, MANIFEST, "thinmpi neighbors kernel",
                                      MPI4PY_KERNEL)


def run(setup, options, mode):
    """Every neighbors job of the builds at hand; returns doc["neighbors"]."""
    return recompute(harness_run.run_plan(setup, options, mode, find_builds(setup, options), PLAN))


def sparse_vs_dense(records):
    """The sparse exchange's time over the dense one's, per API, taken inside each process
    (both run in the same launch); one cell per (api, mpi, compiler, ranks, bytes) with the
    median and spread over processes."""
    by_process = defaultdict(dict)
    for record in records:
        by_process[(record["job"], record["rep"])][record["variant"]] = record
    ratios = defaultdict(list)
    for process in by_process.values():
        for api in ("c", "thinmpi"):
            sparse, dense = process.get(f"{api}/{SPARSE}"), process.get(f"{api}/{DENSE}")
            if sparse and dense and harness_cells.process_value(dense) > 0:
                key = (api, sparse["mpi"], sparse["compiler"], sparse["ranks"], sparse["bytes"])
                ratios[key].append(harness_cells.process_value(sparse) /
                                   harness_cells.process_value(dense))
    return [{"api": key[0], "mpi": key[1], "compiler": key[2], "ranks": key[3],
             "bytes": key[4], "ratio": {"median": statistics.median(values),
                                        "min": min(values), "max": max(values)}}
            for key, values in sorted(ratios.items())]


def recompute(part):
    """The cells of a neighbors part from its raw records (also for --render)."""
    return dict(part, cells=harness_cells.aggregate(part["records"]),
                sparse=sparse_vs_dense(part["records"]))
