"""The collectives suite in the report: ratio tables, the targets, the audit and a chart."""

import statistics

from ...core.harness_report import build_pairs, left_out_lines, ratio_table
from ...core.instruction_targets import HEADERS as INSTRUCTION_HEADERS
from ...core.instruction_targets import INSTRUCTION_SLACK, columns, figures_of, verdict
from ...core.tables import MPI_NAMES, Table, size_label
from .osu_coll import table as osu_table

# thinmpi's targets against the C doing the same (docs/bench.md), by the thinmpi variant's form.
TARGETS = (
    ("collectives with counts given (std::plus<> = C's MPI_SUM; a block_layout = C's arrays "
     "computed once)", 1.02, ("vector", "counts_given", "counts_layout", "plus")),
    ("counts exchanged vs C exchanging them the same way (result in a std::vector, zeroed "
     "first)", 1.02, ("counts_exchanged",)),
    ("counts exchanged, result not zeroed (default_init_allocator, as C's malloc)", 1.02,
     ("counts_exchanged_uninit",)),
    ("lambda reduction vs C with the same user function", 1.03, ("lambda", "lambda_commutative")),
    ("stateful lambda vs C's user function reading a global", 1.05, ("lambda_state",)),
    ("programs (sample sort, BFS) vs their C versions", 1.03, ("program",)),
)
MPI4PY_NOTE = ("mpi4py (compiler `python`): `buffer` rows are the upper-case methods on int32 NumPy "
               "arrays, `object` rows the lower-case ones on Python lists (pickled), `user_op` "
               "an MPI.Op.Create'd Python sum; each against the C variant named in the row, run "
               "through ctypes in the same process (at mpi4py's MPI_THREAD_MULTIPLE). The audit "
               "shows what the object methods add: size exchanges and, for allreduce, "
               "point-to-point messages and broadcasts instead of one MPI_Allreduce.")


def _target_of(cell):
    if cell["op"] in ("sample_sort", "bfs"):
        return next(t for t in TARGETS if "program" in t[2])
    return next((t for t in TARGETS if cell["form"] in t[2]), None)


def targets_table(cells, instructions_part=None):
    """thinmpi's collective targets over all cells: median, cells within, worst; with
    instruction counts (instructions.py: the 2-rank calls at 4 B and 4 KiB), the median
    instructions over C per call of the target's variants and the worst cell beside it, and the
    verdict asks for both the time (median) and the instructions (median within
    INSTRUCTION_SLACK)."""
    rows = []
    for target in TARGETS:
        name, limit, _ = target
        ratios = [c["ratio"]["median"] for c in cells if c["api"] == "thinmpi"
                  and c.get("ratio") and _target_of(c) is target]
        figures = _instruction_figures(instructions_part, target)
        counted = columns(figures, name_call=True)
        if not ratios:
            rows.append([name, f"≤ {limit:.2f}x", "—", "no cells", "—", *counted, "—"])
            continue
        within = sum(r <= limit for r in ratios)
        typical = statistics.median(ratios)
        rows.append([name, f"≤ {limit:.2f}x", f"{typical:.3f}x", f"{within} of {len(ratios)}",
                     f"{max(ratios):.2f}x", *counted, verdict(typical <= limit, figures)])
    return Table("coll_targets", "thinmpi collectives against their targets",
                 ["what", "target", "median over cells", "cells within", "worst",
                  *INSTRUCTION_HEADERS, "verdict (median)"], rows,
                 "Every size, rank count, MPI and compiler is a cell; the figures are noisy on a "
                 "shared 2-core machine, so read the median first. Instructions: per call and "
                 "rank outside MPI, over the C variant each thinmpi variant names, at 2 ranks "
                 f"(docs/bench.md, *Instructions per call*); a median within "
                 f"{INSTRUCTION_SLACK} of C is met.")


def _variant_parts(variant):
    """{"op", "form"} of an "api/op/form" variant name, as _target_of reads a cell."""
    _, op, form = variant.split("/", 2)
    return {"op": op, "form": form}


def _instruction_figures(part, target):
    """The Figures of the instructions over C of a target's thinmpi variants (every build and
    size counted), or None where none were counted."""
    return figures_of([r for r in (part or {}).get("rows", [])
                       if r.get("suite") == "collectives" and r["variant"].startswith("thinmpi/")
                       and _target_of(_variant_parts(r["variant"])) is target])


def audit_table(rows):
    """MPI calls per collective call and rank, per variant (what each API's call really is)."""
    body = []
    for row in sorted(rows, key=lambda r: (r["variant"], r["mpi"], r["compiler"], r["ranks"])):
        calls = ", ".join(f"{n:g} {name}" for name, n in sorted(row["calls"].items())) or "none"
        body.append([row["variant"], MPI_NAMES.get(row["mpi"], row["mpi"]), row["compiler"],
                     str(row["ranks"]), calls])
    return Table("coll_audit", "MPI calls per collective call (per rank)",
                 ["variant", "MPI", "compiler", "ranks", "calls"], body,
                 "Counted by libwb_audit (PMPI) over 20 calls at 8 ints per rank.")


def draw(cells, out_dir):
    """thinmpi/C ratio against size, one line per thinmpi collective, per MPI and rank count
    (the first compiler); returns [(title, file name)]."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    charts = []
    thin = [c for c in cells if c["api"] == "thinmpi" and c.get("ratio") and c["op"] not in
            ("sample_sort", "bfs")]
    for mpi, compiler in build_pairs(thin):
        if (mpi, compiler) != next(p for p in build_pairs(thin) if p[0] == mpi):
            continue
        ranks_seen = sorted({c["ranks"] for c in thin if c["mpi"] == mpi})
        figure, axes = plt.subplots(1, len(ranks_seen), figsize=(6 * len(ranks_seen), 4.2),
                                    squeeze=False)
        for axis, ranks in zip(axes[0], ranks_seen):
            _draw_lines(axis, [c for c in thin if (c["mpi"], c["compiler"], c["ranks"]) ==
                               (mpi, compiler, ranks)])
            axis.set_title(f"{MPI_NAMES.get(mpi, mpi)} {compiler}, {ranks} ranks")
        name = f"collectives_{mpi}.png"
        figure.tight_layout()
        figure.savefig(out_dir / name, dpi=110)
        plt.close(figure)
        charts.append((f"thinmpi/C per collective, {MPI_NAMES.get(mpi, mpi)}", name))
    return charts


def _draw_lines(axis, cells):
    for variant in sorted({c["variant"] for c in cells}):
        points = sorted((c["bytes"], c["ratio"]["median"]) for c in cells
                        if c["variant"] == variant)
        axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3,
                  label=variant.removeprefix("thinmpi/"))
    axis.axhline(1.0, color="black", linewidth=0.8)
    axis.set_xscale("log", base=2)
    axis.set_xlabel("bytes per rank (per destination for alltoall)")
    axis.set_ylabel("time / C time")
    axis.legend(fontsize=6)


CHECKED_NOTE = ("thinmpi built with THINMPI_CHECKED_COLLECTIVES=1 (the checked mode, off by "
                "default): before a rooted or v-collective (and a reduction) the ranks agree on "
                "their arguments, one MPI_Allreduce of MPI_2INT with MPI_MAXLOC, so that an "
                "error one rank finds is an mpi_error on every rank. Each ratio is taken inside "
                "one process: the checked call over the same unchecked thinmpi call (this table) "
                "and over C (the next). Calls added: the audit's calls of the checked call less "
                "the unchecked one's, per call and rank.")


def _calls_added(audit, cell):
    """The audit's calls of a checked variant less its unchecked call's (same build and ranks),
    as text; "" without both rows."""
    def calls_of(variant):
        return next((r["calls"] for r in audit if (r["variant"], r["mpi"], r["compiler"],
                                                    r["ranks"]) == (variant, *where)), None)
    where = (cell["mpi"], cell["compiler"], cell["ranks"])
    checked, unchecked = calls_of(cell["variant"]), calls_of(cell["unchecked"])
    if checked is None or unchecked is None:
        return ""
    added = {name: checked.get(name, 0) - unchecked.get(name, 0) for name in {*checked,
                                                                              *unchecked}}
    return ", ".join(f"{n:+g} {name}" for name, n in sorted(added.items()) if n) or "none"


def checked_table(cells, audit):
    """The checked mode's cost: per call, build and rank count, the checked / unchecked thinmpi
    ratio at each size and the calls the agreement adds."""
    chosen = [c for c in cells if c.get("ratio_vs_unchecked")]
    sizes = sorted({c["bytes"] for c in chosen})
    index = {(c["variant"], c["mpi"], c["compiler"], c["ranks"], c["bytes"]): c for c in chosen}
    rows = []
    for variant, mpi, compiler, ranks in sorted({k[:4] for k in index}):
        found = [index.get((variant, mpi, compiler, ranks, s)) for s in sizes]
        first = next(c for c in found if c)
        rows.append([variant.split("/", 1)[1], MPI_NAMES.get(mpi, mpi), compiler, str(ranks)] +
                    [f"{c['ratio_vs_unchecked']['median']:.2f}x" if c else "—" for c in found] +
                    [_calls_added(audit, first)])
    return Table("coll_checked", "Checked mode: checked / unchecked thinmpi per collective",
                 ["call", "MPI", "compiler", "ranks"] + [size_label(s) for s in sizes] +
                 ["calls added"], rows, CHECKED_NOTE)


def checked_section(part, section_type):
    """The section of the checked mode's cost, or None when no checked variant ran."""
    cells = part.get("cells", [])
    if not any(c.get("ratio_vs_unchecked") for c in cells):
        return None
    return section_type("Checked mode: cost of agreeing on arguments",
                        tables=[checked_table(cells, part.get("audit", [])),
                                ratio_table(cells, ("thinmpi-checked",), "coll_checked_c",
                                            "Checked mode: thinmpi-checked / C per collective")])


# The sample sorts side by side: ours, and the peers' own applications
# (bench/kernels/kamping/kamping_sample_sort.cpp, kernels/mpl/mpl_sample_sort.cpp,
# bench/programs/mpl_sort_mpi.c), each on the same ints per rank, against our C program in the
# same processes.
SORTERS = (
    ("c/sample_sort/program", "ours, C (bench/programs/sample_sort.c)"),
    ("thinmpi/sample_sort/program", "ours, thinmpi (examples/sample_sort.hpp)"),
    ("kamping/sample_sort/example_mpi", "KaMPIng's, plain MPI (sample-sort/mpi.hpp)"),
    ("kamping/sample_sort/example", "KaMPIng's, KaMPIng (sample-sort/kamping.hpp)"),
    ("mpl/sample_sort/example_mpi", "MPL's, plain MPI (parallel_sort_mpi.c: doubles, qsort)"),
    ("mpl/sample_sort/example", "MPL's, MPL (parallel_sort_mpl.cc)"),
)
SORTERS_NOTE = ("Every sorter sorts the same ints per rank (bench/programs' input) and is checked "
                "sorted and a permutation of its input. The peers' rows are their own example "
                "applications compiled unmodified from their sources, called by a driver of "
                "ours (their mains time nothing). Time: the median over processes of the low "
                "decile of blocks (each block: the slowest rank's average per sort); ratio: to "
                "our C sort in the same processes, median (min-max). Calls: per sort and rank, "
                "from the audit. MPL's plain-MPI version sorts doubles (8 bytes an element) with "
                "qsort; MPL's draws size - 1 samples per rank, the others 16 log2(size) + 1.")


def _calls_per_sort(audit, variant, where):
    row = next((r for r in audit if (r["variant"], r["mpi"], r["compiler"], r["ranks"]) ==
                (variant, *where)), None)
    return ", ".join(f"{n:g} {name.removeprefix('MPI_')}" for name, n in
                     sorted(row["calls"].items())) if row else "not audited"


def sorters_table(cells, audit):
    """Ours and the peers' sample sorts: per build, rank count and ints per rank, each sorter's
    time, its ratio to our C sort and the MPI calls behind it; None when no peer's sort ran."""
    names = dict(SORTERS)
    chosen = [c for c in cells if c["variant"] in names]
    if not any(c["api"] not in ("c", "thinmpi") for c in chosen):
        return None
    index = {(c["variant"], c["mpi"], c["compiler"], c["ranks"], c["count"]): c for c in chosen}
    rows = []
    for mpi, compiler in build_pairs(chosen):
        for ranks, count in sorted({(c["ranks"], c["count"]) for c in chosen
                                    if (c["mpi"], c["compiler"]) == (mpi, compiler)}):
            for variant, label in SORTERS:
                cell = index.get((variant, mpi, compiler, ranks, count))
                if not cell:
                    continue
                ratio = cell.get("ratio")
                rows.append([label, MPI_NAMES.get(mpi, mpi), compiler, str(ranks), str(count),
                             f"{cell['us']['median']:.0f}",
                             f"{ratio['median']:.2f}x ({ratio['min']:.2f}-{ratio['max']:.2f})"
                             if ratio else "1 (C)",
                             _calls_per_sort(audit, variant, (mpi, compiler, ranks))])
    return Table("coll_sorters", "Sample sorts: ours and the peers' own applications",
                 ["sorter", "MPI", "compiler", "ranks", "ints per rank", "µs per sort",
                  "vs our C", "MPI calls per sort"], rows, SORTERS_NOTE)


def sections(part, charts, section_type, instructions_part=None):
    """The report's collectives sections from doc["collectives"] (and doc["instructions"], for
    the targets' instruction column)."""
    cells, audit = part.get("cells", []), part.get("audit", [])
    timed = [section_type("Collectives: thinmpi against C",
                          paragraphs=[f"Collectives at {', '.join(map(str, part['ranks']))} "
                                      "ranks, sizes per rank."],
                          tables=[targets_table(cells, instructions_part),
                                  ratio_table(cells, ("thinmpi",), "coll_thinmpi",
                                              "thinmpi/C per collective")],
                          charts=[c for c in charts if c[1].startswith("collectives_")]),
             section_type("Collectives: Boost.MPI and mpi4py against C",
                          paragraphs=[MPI4PY_NOTE],
                          tables=[ratio_table(cells, ("boost", "mpi4py"), "coll_others",
                                              "Boost.MPI and mpi4py / C per collective")]),
             section_type("Collectives: path audit", tables=[audit_table(audit)])]
    if osu_table(part):
        timed.insert(2, section_type("Collectives: OSU's benchmarks beside the C cells",
                                     tables=[osu_table(part)]))
    if part.get("notes"):
        timed[0].paragraphs += [f"Fewer calls: {n}" for n in part["notes"]]
    if part.get("missing"):
        timed[0].paragraphs += [f"Missing: {m}" for m in part["missing"]]
    timed[0].paragraphs += left_out_lines(part)
    sorters = sorters_table(cells, audit)
    if sorters:
        timed.insert(2, section_type("Collectives: the peers' own sample sorts beside ours",
                                     tables=[sorters]))
    checked = checked_section(part, section_type)
    if checked:
        timed.insert(1, checked)
    return timed
