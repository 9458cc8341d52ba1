"""OSU's own collective benchmarks beside the collectives suite: osu_bcast, osu_allreduce, ...
run by core/osu_programs.py, and their table beside the harness's C cells.

What they are made to measure: the harness's call on the same bytes. OSU's `-T mpi_int` (its
default MPI_CHAR makes osu_allreduce sum four times as many elements, which MPICH does more
slowly), the harness's calls and warm-up per launch (`-i`, `-x`), and OSU's "size" read as the
harness reads a count: per rank, per destination for alltoall(v), but for
osu_reduce_scatter_block the whole send buffer (the harness's count is one rank's block, so OSU
runs at ranks x bytes). OSU prints the average over ranks of each rank's average; with `-f` also
the minimum and the maximum: the records' `us` is the maximum, the harness's figure."""

import statistics

from ...core.osu_programs import COMPILER, RANKS, Benchmark
from ...core.tables import MPI_NAMES, MPI_ORDER, Table, size_label

# harness op -> (OSU program, the C variant of the harness that makes the same call)
OPS = {"bcast": ("osu_bcast", "c/bcast/builtin"),
       "allreduce": ("osu_allreduce", "c/allreduce/sum"),
       "allgather": ("osu_allgather", "c/allgather/builtin"),
       "allgatherv": ("osu_allgatherv", "c/allgatherv/counts_given"),
       "alltoall": ("osu_alltoall", "c/alltoall/builtin"),
       "alltoallv": ("osu_alltoallv", "c/alltoallv/counts_given"),
       "reduce_scatter_block": ("osu_reduce_scatter_block", "c/reduce_scatter_block/sum")}
BENCHMARKS = {op: Benchmark(name, c_variant, op, name,
                            whole_buffer=op == "reduce_scatter_block")
              for op, (name, c_variant) in OPS.items()}


def osu_size(op, bytes_per_rank, ranks):
    """OSU's -m size for the harness's bytes per rank (reduce_scatter_block: the whole buffer)."""
    return BENCHMARKS[op].size(bytes_per_rank, ranks)


def table(part, compiler="gcc"):
    """OSU's collective benchmarks beside the harness's C cells (2 ranks) of doc["collectives"]:
    one row per MPI, collective and size; None when no OSU program ran."""
    cells = part.get("cells", [])
    extra = {}  # (mpi, variant, bytes, field) -> [per process]
    for record in part.get("records", []):
        for name in ("osu_avg_us", "osu_p50_us"):
            if record["compiler"] == COMPILER and record.get(name) is not None:
                extra.setdefault((record["mpi"], record["variant"], record["bytes"], name),
                                 []).append(record[name])
    osu_cells = [c for c in cells if c["compiler"] == COMPILER and c["ranks"] == RANKS]
    if not osu_cells:
        return None
    index = {(c["mpi"], c["compiler"], c["variant"], c["bytes"]): c for c in cells
             if c["ranks"] == RANKS}
    order = {mpi: i for i, mpi in enumerate(MPI_ORDER)}
    rows = []
    for o in sorted(osu_cells, key=lambda c: (order.get(c["mpi"], 9), list(OPS).index(c["op"]),
                                              c["bytes"])):
        harness = index.get((o["mpi"], compiler, OPS[o["op"]][1], o["bytes"]))
        c_us = harness["us"]["median"] if harness else None
        figures = [o["us"]["median"]] + [
            statistics.median(extra[key]) if key in extra else None
            for key in ((o["mpi"], o["variant"], o["bytes"], n) for n in ("osu_avg_us",
                                                                          "osu_p50_us"))]
        rows.append([o["op"], MPI_NAMES.get(o["mpi"], o["mpi"]), size_label(o["bytes"])] +
                    [_us(f) for f in (*figures, c_us)] +
                    [_over(c_us, figures[0]), _over(c_us, figures[2])])
    return Table("coll_osu", f"OSU's collective benchmarks beside the C cells (2 ranks, "
                 f"{compiler})", ["collective", "MPI", "bytes per rank", "OSU max (µs)",
                                  "OSU avg (µs)", "OSU P50 (µs)", "C harness (µs)",
                                  "C/OSU max", "C/OSU P50"], rows,
                 "OSU 7.4's osu_<collective> -T mpi_int -f -z with the harness's calls and "
                 "warm-up, launched right after the harness's launch of the same size (same "
                 "launcher and binding); osu_reduce_scatter_block at ranks x the bytes (its size "
                 "is the whole send buffer). OSU max: the slowest rank's average per call, the "
                 "harness's definition (OSU's default column is the average over ranks); OSU "
                 "P50: the median call (of the ranks' average), which a descheduled call does "
                 "not move, where the averages take every one; C harness: the low decile of its "
                 "blocks (docs/bench.md). Medians of separate processes.")


def _us(value):
    return "—" if value is None else f"{value:.2f}"


def _over(c_us, osu_us):
    return f"{c_us / osu_us:.2f}x" if c_us and osu_us else "—"

