"""The report's PNG charts (matplotlib, no display needed)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from ...core.compare import find  # noqa: E402
from ...core.tables import MPI_NAMES, MPI_ORDER, present  # noqa: E402
from .tables import SWEEP_COLUMNS  # noqa: E402

TINY_COUNTS = (1, 8, 64)


def _save(figure, path):
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _tiny_variants(cells, mpi):
    """Variants of the tiny suite on one MPI (gcc and mpi4py), C first; structs (40-byte
    elements, their own table) are left out so that the scale stays readable."""
    names = {c["variant"] for c in cells if c["suite"] == "tiny" and c["mpi"] == mpi
             and c["compiler"] in ("gcc", "python") and not c["variant"].endswith("/struct")}
    order = ("c", "boost", "thinmpi", "mpi4py")
    return sorted(names, key=lambda n: (order.index(n.split("/")[0]) if n.split("/")[0] in order
                                        else 9, n))


def tiny_bars(cells, mpi, path):
    """One-way latency of every tiny cell of one MPI: a bar per count, grouped by variant."""
    variants = _tiny_variants(cells, mpi)
    figure, axes = plt.subplots(figsize=(max(8, 0.75 * len(variants)), 4.8))
    width = 0.8 / len(TINY_COUNTS)
    for k, count in enumerate(TINY_COUNTS):
        heights = []
        for variant in variants:
            found = [c for c in find(cells, suite="tiny", mpi=mpi, variant=variant, count=count)
                     if c["compiler"] in ("gcc", "python")]
            heights.append(found[0]["one_way_us"]["median"] if found else 0)
        axes.bar([i + k * width for i in range(len(variants))], heights, width,
                 label=f"{count} element(s)")
    axes.set_xticks([i + width for i in range(len(variants))], variants, rotation=40,
                    ha="right", fontsize=8)
    axes.set_ylabel("one-way latency (µs)")
    axes.set_title(f"Tiny messages, {MPI_NAMES[mpi]} (gcc; mpi4py: python)")
    axes.legend()
    _save(figure, path)


def _sweep_lines(axes, cells, mpi, columns, field="one_way_us"):
    for label, variant, compiler in columns:
        points = sorted((c["bytes"], c[field]["median"]) for c in
                        find(cells, suite="sweep", mpi=mpi, variant=variant,
                             compiler=compiler or "gcc") if c[field])
        if points:
            axes.plot(*zip(*points), marker="o", label=label)
    axes.set_xscale("log", base=2)
    axes.set_xlabel("payload (bytes)")


def raw_vs_vector(cells, path):
    """Ratio against C of Boost raw/vector and thinmpi across sizes, one panel per MPI."""
    mpis = present(find(cells, suite="sweep"), "mpi", MPI_ORDER)
    figure, panels = plt.subplots(1, max(1, len(mpis)), figsize=(6 * max(1, len(mpis)), 4.2),
                                  squeeze=False)
    columns = [c for c in SWEEP_COLUMNS if c[1] in ("boost/raw", "boost/vector", "c/mprobe",
                                                    "thinmpi/span", "thinmpi/vector_alloc")]
    for axes, mpi in zip(panels[0], mpis):
        _sweep_lines(axes, cells, mpi, columns, field="ratio_vs_c")
        axes.axhline(1.0, color="grey", linewidth=0.8)
        axes.set_ylabel("× C MPI (same process)")
        axes.set_title(f"Raw buffer vs vector, {MPI_NAMES[mpi]}")
        axes.legend(fontsize=8)
    _save(figure, path)


def size_sweep(cells, mpi, path):
    """One-way latency against payload size, log-log, every sweep variant of one MPI."""
    figure, axes = plt.subplots(figsize=(7.5, 5))
    _sweep_lines(axes, cells, mpi, SWEEP_COLUMNS)
    axes.set_yscale("log")
    axes.set_ylabel("one-way latency (µs)")
    axes.set_title(f"Size sweep, {MPI_NAMES[mpi]} (gcc)")
    axes.legend(fontsize=8)
    _save(figure, path)


def osu_sweep(cells, path):
    """The OSU-compatible sweep: C and thinmpi, MPI_CHAR, log-log, every MPI."""
    figure, axes = plt.subplots(figsize=(7.5, 5))
    for mpi in present(find(cells, suite="osu"), "mpi", MPI_ORDER):
        for variant, style in (("c/char_buffer", "-"), ("thinmpi/char_span", "--")):
            points = sorted((c["count"], c["one_way_us"]["median"]) for c in
                            find(cells, suite="osu", mpi=mpi, variant=variant, compiler="gcc"))
            if points:
                axes.plot(*zip(*points), style, marker=".", label=f"{MPI_NAMES[mpi]} {variant}")
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.set_xlabel("message size (bytes)")
    axes.set_ylabel("one-way latency (µs)")
    axes.set_title("OSU-compatible latency sweep (gcc)")
    axes.legend(fontsize=8)
    _save(figure, path)


def draw_all(cells, out_dir):
    """Draws every chart the data allows; returns [(title, file name)]."""
    charts = []
    for mpi in present(find(cells, suite="tiny"), "mpi", MPI_ORDER):
        name = f"tiny_{mpi}.png"
        tiny_bars(cells, mpi, out_dir / name)
        charts.append((f"Tiny messages, {MPI_NAMES[mpi]}", name))
    if find(cells, suite="sweep"):
        raw_vs_vector(cells, out_dir / "raw_vs_vector.png")
        charts.append(("Raw buffer vs vector across sizes", "raw_vs_vector.png"))
        for mpi in present(find(cells, suite="sweep"), "mpi", MPI_ORDER):
            size_sweep(cells, mpi, out_dir / f"sweep_{mpi}.png")
            charts.append((f"Size sweep, {MPI_NAMES[mpi]}", f"sweep_{mpi}.png"))
    if find(cells, suite="osu"):
        osu_sweep(cells, out_dir / "osu.png")
        charts.append(("OSU-compatible sweep", "osu.png"))
    return charts
