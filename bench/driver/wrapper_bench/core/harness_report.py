"""What the reports of the multi-rank harness's suites (collectives, neighbors) share: the
ratio table (one row per variant, build and rank count, one column per size) and the lines that
name the rank counts left out."""

from .tables import MPI_NAMES, MPI_ORDER, Table, harness_ratio, size_label

NOTE = ("Ratio to the C variant named in the row, taken inside one process (variants interleaved "
        "in blocks); median over processes. Each call is timed alone between barriers, a rank's "
        "figure is its average, the block's figure the slowest rank's (OSU's method); a "
        "process's figure is the low decile of its blocks. 4 ranks share 2 cores "
        "(oversubscribed): those ratios are noisier than the 2-rank ones.")


def build_pairs(cells):
    """The (mpi, compiler) pairs of `cells`, in the report's order."""
    pairs = {(c["mpi"], c["compiler"]) for c in cells}
    return sorted(pairs, key=lambda p: (MPI_ORDER.index(p[0]) if p[0] in MPI_ORDER else 9, p[1]))


def ratio_table(cells, apis, key, title):
    """One row per (variant, MPI, compiler, ranks), one column per size: the median ratio."""
    chosen = [c for c in cells if c["api"] in apis]
    sizes = sorted({c["bytes"] for c in chosen})
    index = {(c["variant"], c["mpi"], c["compiler"], c["ranks"], c["bytes"]): c for c in chosen}
    rows = []
    for variant in sorted({c["variant"] for c in chosen}):
        baseline = next(c["baseline"] for c in chosen if c["variant"] == variant)
        for mpi, compiler in build_pairs([c for c in chosen if c["variant"] == variant]):
            for ranks in sorted({c["ranks"] for c in chosen}):
                found = [index.get((variant, mpi, compiler, ranks, s)) for s in sizes]
                if any(found):
                    rows.append([variant, baseline, MPI_NAMES.get(mpi, mpi), compiler,
                                 str(ranks)] + [harness_ratio(c) for c in found])
    headers = ["variant", "vs", "MPI", "compiler", "ranks"] + [size_label(s) for s in sizes]
    return Table(key, title, headers, rows, NOTE)


def left_out_lines(part):
    """One line per rank count whose timed cells were left out, with why and how to ask."""
    return [f"Left out: the {entry['ranks']}-rank timed cells ({entry['launches']} launches): "
            f"{entry['why']}." for entry in part.get("left_out", [])]
