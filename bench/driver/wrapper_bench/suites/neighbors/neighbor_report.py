"""The neighbors suite in the report: its targets, the ratio tables, the sparse exchange against
the dense one, and the audit side by side at 2 and 4 ranks."""

import statistics

from ...core.harness_report import left_out_lines, ratio_table
from ...core.tables import MPI_NAMES, Table, harness_ratio, size_label

SPARSE_TARGET_RANKS = 4


def _torus_dims(ranks):
    """dims_create(ranks, 2), as the kernels make the torus: the most balanced two factors."""
    first = max(d for d in range(1, int(ranks ** 0.5) + 1) if ranks % d == 0)
    return (ranks // first, first)


def _repeats(cell):
    """Whether a rank is the same neighbor twice in the cell's topology: the ring (both
    neighbors named on both sides) at 1 or 2 ranks, the periodic torus where a dimension has 1
    or 2 ranks (every torus of 2 and 4 ranks)."""
    if cell["variant"].endswith("/ring"):
        return cell["ranks"] <= 2
    if cell["variant"].endswith("/torus"):
        return min(_torus_dims(cell["ranks"])) <= 2
    return False


def c_pairs_wrongly(cell):
    """Whether the C call of the cell delivers blocks where MPI does not define them, so that
    thinmpi takes its own path (one MPI_Alltoallw) and the ratio compares a correct exchange
    with a wrong one (docs/library.md, "Neighbor order where a neighbor repeats"): the kernels
    call the blocking forms, which MPICH 4.0.2 pairs wrongly for neighbor_alltoallv on a grid
    and neighbor_alltoall on a graph where a neighbor repeats (Open MPI 4.1.4's blocking forms
    are right)."""
    if cell["mpi"] != "mpich" or not _repeats(cell):
        return False
    return (cell["variant"].endswith("neighbor_alltoallv/torus")
            or cell["variant"].endswith("neighbor_alltoall/ring"))


def _is_neighborhood(cell):
    return cell["op"].startswith("neighbor_") and not c_pairs_wrongly(cell)


def _is_wrong_in_c(cell):
    return cell["op"].startswith("neighbor_") and c_pairs_wrongly(cell)


# thinmpi's targets against the C doing the same (docs/bench.md), by what the cell measures.
# A target of None is reported, not judged.
TARGETS = (
    ("neighborhood collectives (ring, torus) vs the same C call", 1.02, _is_neighborhood),
    ("neighborhood collectives where a neighbor repeats and C's call pairs the blocks wrongly "
     "(MPICH 4.0.2): thinmpi's correct path vs the wrong C call", None, _is_wrong_in_c),
    ("the halo program vs its C version", 1.02, lambda c: c["op"] == "halo_2d"),
    ("sparse exchange (NBX) vs the same protocol in C", 1.02,
     lambda c: c["variant"] == "thinmpi/sparse_exchange/nbx"),
    ("dense exchange (alltoallv, exchange_counts) vs the same C", 1.02,
     lambda c: c["variant"] == "thinmpi/sparse_exchange/alltoallv"),
    ("making the torus (cartesian_communicator) vs MPI_Cart_create", 1.02,
     lambda c: c["op"] == "cart_create"),
)

SPARSE_NOTE = ("The sparse exchange's time over the dense exchange's of the same API, both in "
               "the same process: each rank sends `size` bytes to at most 2 ranks ((r + 1) % p "
               "and (r + 2) % p). Below 1.00x the sparse exchange is the faster. Where 4 ranks "
               "share fewer cores, their ratios count context switches more than messages "
               "(Open MPI yields when oversubscribed, MPICH busy-polls; no launcher setting "
               "makes them what 4 cores would give, docs/bench.md): read the algorithm's growth "
               "in the audit's table of what grows with the ranks.")
HALO_NOTE = ("One call: 20 sweeps of each rank's n x n block from the starting temperatures, "
             "each sweep four sendrecv (rows contiguous, columns strided), the update and an "
             "allreduce; the ratio is taken inside one process as for the calls above.")
SPARSE_FORMS = ("sparse_exchange/nbx", "sparse_exchange/nbx_pairs", "sparse_exchange/alltoallv")
# NBX's probing and testing: as many calls as the wait takes, so left out of its growth.
POLLING_CALLS = ("MPI_Improbe", "MPI_Iprobe", "MPI_Test", "MPI_Testall")
GROWTH_NOTE = ("From the audit, per call and rank, at each rank count: the calls (NBX's "
               "MPI_Improbe, MPI_Test and MPI_Testall left out, as many as its wait takes; "
               "they are in the audit table below) and the ranks they address. The dense "
               "exchange addresses every rank twice (MPI_Alltoall of the counts, "
               "MPI_Alltoallv of the data), 2 x p, however few destinations; NBX addresses its "
               "destinations, plus what its one MPI_Ibarrier sends inside the MPI (about "
               "log2 p messages a rank, not counted here).")
AUDIT_NOTE = ("Counted by libwb_audit (PMPI) over 20 calls at 8 ints per neighbour, per call "
              "and rank. Peers: the ranks those calls address (1 per send, every rank per "
              "MPI_Alltoall(v), the out-degree per neighborhood call): what grows with the "
              "number of ranks where the number of calls does not. The NBX probe and test "
              "counts depend on timing.")


def _ratio_text(value):
    return f"{value:.2f}x"


def targets_table(cells, sparse):
    """thinmpi's neighbors targets: median over cells, cells within, worst; and the sparse
    exchange faster than the dense one at 4 ranks."""
    rows = []
    for name, limit, chosen in TARGETS:
        ratios = [c["ratio"]["median"] for c in cells if c["api"] == "thinmpi"
                  and c.get("ratio") and chosen(c)]
        target = f"≤ {limit:.2f}x" if limit is not None else "reported, not judged"
        if not ratios:
            rows.append([name, target, "—", "no cells", "—"])
            continue
        within = (f"{sum(r <= limit for r in ratios)} of {len(ratios)}" if limit is not None
                  else f"{len(ratios)} cells")
        rows.append([name, target, f"{statistics.median(ratios):.3f}x", within,
                     _ratio_text(max(ratios))])
    at_four = [s["ratio"]["median"] for s in sparse
               if s["api"] == "thinmpi" and s["ranks"] == SPARSE_TARGET_RANKS]
    name = f"thinmpi sparse exchange / dense exchange at {SPARSE_TARGET_RANKS} ranks"
    rows.append([name, "< 1.00x"] + ([f"{statistics.median(at_four):.3f}x",
                                      f"{sum(r < 1 for r in at_four)} of {len(at_four)}",
                                      _ratio_text(max(at_four))] if at_four else
                                     ["—", "no cells", "—"]))
    return Table("neighbor_targets", "thinmpi neighbors against their targets",
                 ["what", "target", "median over cells", "cells within", "worst"], rows,
                 "Every size, rank count, MPI and compiler is a cell; the figures are noisy on "
                 "a shared 2-core machine, so read the median first.")


def sparse_table(sparse):
    """One row per (API, MPI, compiler, ranks), one column per size: sparse / dense."""
    sizes = sorted({s["bytes"] for s in sparse})
    index = {(s["api"], s["mpi"], s["compiler"], s["ranks"], s["bytes"]): s for s in sparse}
    rows = []
    for api, mpi, compiler, ranks in sorted({k[:4] for k in index}):
        found = [index.get((api, mpi, compiler, ranks, size)) for size in sizes]
        rows.append([api, MPI_NAMES.get(mpi, mpi), compiler, str(ranks)] +
                    [_ratio_text(f["ratio"]["median"]) if f else "—" for f in found])
    return Table("neighbor_sparse", "Sparse exchange (NBX) / dense exchange (alltoallv)",
                 ["API", "MPI", "compiler", "ranks"] + [size_label(s) for s in sizes],
                 rows, SPARSE_NOTE)


def halo_table(cells, apis):
    """The halo program per (variant, MPI, compiler, ranks), one column per block side."""
    chosen = [c for c in cells if c["api"] in apis and c["op"] == "halo_2d"]
    sides = sorted({c["count"] for c in chosen})
    index = {(c["variant"], c["mpi"], c["compiler"], c["ranks"], c["count"]): c for c in chosen}
    rows = []
    for variant, mpi, compiler, ranks in sorted({k[:4] for k in index}):
        found = [index.get((variant, mpi, compiler, ranks, n)) for n in sides]
        rows.append([variant, found[0]["baseline"] if found[0] else "", MPI_NAMES.get(mpi, mpi),
                     compiler, str(ranks)] + [harness_ratio(f) for f in found])
    return Table("neighbor_halo", "The halo program: thinmpi/C",
                 ["variant", "vs", "MPI", "compiler", "ranks"] +
                 [f"{n} x {n} per rank" for n in sides], rows, HALO_NOTE)


def _calls_text(calls):
    return ", ".join(f"{n:g} {name}" for name, n in sorted(calls.items())) or "none"


def audit_table(rows):
    """Per variant and build: the calls and peers per call and rank, at each rank count."""
    ranks = sorted({r["ranks"] for r in rows})
    index = {(r["variant"], r["mpi"], r["compiler"], r["ranks"]): r for r in rows}
    body = []
    for variant, mpi, compiler in sorted({k[:3] for k in index}):
        found = [index.get((variant, mpi, compiler, n)) for n in ranks]
        body.append([variant, MPI_NAMES.get(mpi, mpi), compiler] +
                    [_calls_text(f["calls"]) if f else "—" for f in found] +
                    [f"{f.get('peers', 0):g}" if f else "—" for f in found])
    headers = ["variant", "MPI", "compiler"] + [f"calls at {n} ranks" for n in ranks] + \
        [f"peers at {n} ranks" for n in ranks]
    return Table("neighbor_audit", "MPI calls and peers per call (per rank)", headers, body,
                 AUDIT_NOTE)


def _growth(peers, ranks):
    """How the ranks a call addresses grow from the first rank count to the others."""
    if all(p == peers[0] for p in peers):
        return "constant: its destinations (O(messages))"
    if peers[0] > 0 and all(p * ranks[0] == peers[0] * n for p, n in zip(peers, ranks)):
        return f"with the ranks: {peers[0] / ranks[0]:g} x p (O(p))"
    return " -> ".join(f"{p:g}" for p in peers)


def sparse_growth_table(rows):
    """The sparse and dense exchanges' audit rows side by side at each rank count: the calls
    that do not depend on timing, the ranks addressed, and how those grow."""
    chosen = [r for r in rows if r["variant"].split("/", 1)[-1] in SPARSE_FORMS]
    ranks = sorted({r["ranks"] for r in chosen})
    index = {(r["variant"], r["mpi"], r["compiler"], r["ranks"]): r for r in chosen}
    body = []
    for variant, mpi, compiler in sorted({k[:3] for k in index}):
        found = [index.get((variant, mpi, compiler, n)) for n in ranks]
        fixed = [{name: n for name, n in f["calls"].items() if name not in POLLING_CALLS}
                 if f else None for f in found]
        peers = [f.get("peers", 0) for f in found if f]
        body.append([variant, MPI_NAMES.get(mpi, mpi), compiler] +
                    [_calls_text(c) if c is not None else "—" for c in fixed] +
                    [f"{f.get('peers', 0):g}" if f else "—" for f in found] +
                    [_growth(peers, ranks) if len(peers) == len(ranks) > 1 else "—"])
    headers = ["variant", "MPI", "compiler"] + [f"calls at {n} ranks" for n in ranks] + \
        [f"ranks addressed at {n}" for n in ranks] + ["grows"]
    return Table("neighbor_sparse_growth",
                 "Sparse exchange (NBX) and dense exchange: what grows with the ranks",
                 headers, body, GROWTH_NOTE)


def sections(part, section_type):
    """The report's neighbors sections from doc["neighbors"]."""
    cells, sparse = part.get("cells", []), part.get("sparse", [])
    calls = [c for c in cells if c["op"] != "halo_2d"]  # the program has its own table
    first = section_type(
        "Neighbors: thinmpi against C",
        paragraphs=[f"Neighborhood collectives, the halo program and the sparse exchange at "
                    f"{', '.join(map(str, part['ranks']))} ranks; sizes per neighbour (per "
                    "destination for the exchanges), the halo program's by the side of each "
                    "rank's block."],
        tables=[targets_table(cells, sparse),
                ratio_table(calls, ("thinmpi",), "neighbor_thinmpi",
                            "thinmpi/C per neighbors call"),
                halo_table(cells, ("thinmpi",)), sparse_table(sparse)])
    others = section_type("Neighbors: mpi4py against C", tables=[
        ratio_table(calls, ("mpi4py",), "neighbor_mpi4py", "mpi4py/C per neighbors call")])
    audit = section_type("Neighbors: path audit",
                         tables=[sparse_growth_table(part.get("audit", [])),
                                 audit_table(part.get("audit", []))])
    if part.get("notes"):
        first.paragraphs += [f"Fewer calls: {n}" for n in part["notes"]]
    if part.get("missing"):
        first.paragraphs += [f"Missing: {m}" for m in part["missing"]]
    first.paragraphs += left_out_lines(part)
    return [first, others, audit]
