"""The first screen's chart: every library's ratio to C per path, one row per path, one marker
per library (the median over its cells) with a whisker over its cells (matplotlib, no display
needed)."""

from .first_screen import CHART, LIBRARY_NAMES, libraries_of, path_rows, shown

MARKERS = {"thinmpi": ("o", "#1f77b4"), "kamping": ("s", "#ff7f0e"), "mpl": ("D", "#2ca02c"),
           "boost": ("^", "#d62728"), "mpi4py": ("v", "#9467bd"), "go": ("P", "#8c564b")}
TITLE = "Every library against C, per path (median over cells, whisker lowest-highest)"


def _draw_rows(axes, rows, apis):
    """The markers and whiskers, each library a little above or below its row's line."""
    step = 0.7 / max(len(apis), 1)
    for k, api in enumerate(apis):
        marker, colour = MARKERS.get(api, ("x", "black"))
        offset = (k - (len(apis) - 1) / 2) * step
        found = [(i, row.libraries[api]) for i, row in enumerate(rows) if api in row.libraries]
        ys = [i + offset for i, _ in found]
        medians = [s.median for _, s in found]
        errors = [[s.median - s.low for _, s in found], [s.high - s.median for _, s in found]]
        axes.errorbar(medians, ys, xerr=errors, fmt=marker, color=colour, ecolor=colour,
                      elinewidth=1, capsize=2, markersize=5, label=LIBRARY_NAMES[api])


def _ticks(axes, low, high):
    """Readable ratio ticks on the log axis: 0.5x, 1x, 2x, 5x, ..."""
    fine = high / low < 6  # 0.75x and 1.25x only where they do not crowd 1x
    ticks = [t for t in (0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100)
             if low <= t <= high and (fine or t not in (0.75, 1.25))]
    axes.set_xticks(ticks)
    axes.set_xticklabels([f"{t:g}x" for t in ticks])
    axes.minorticks_off()


def draw(doc, out_dir):
    """[(title, file name)] of the chart, or [] where no library ran beside C."""
    rows, _ = shown(path_rows(doc))
    if not rows:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    apis = libraries_of(rows)
    height = 2.0 + 0.34 * len(rows)
    figure, axes = plt.subplots(figsize=(11, height))
    _draw_rows(axes, rows, apis)
    every = [v for row in rows for s in row.libraries.values() for v in (s.low, s.high)]
    low, high = min(every + [1.0]) / 1.15, max(every + [1.0]) * 1.15
    axes.set_xscale("log")
    axes.set_xlim(low, high)
    _ticks(axes, low, high)
    axes.axvline(1.0, color="black", linewidth=1)
    for i in range(1, len(rows)):
        if rows[i].group != rows[i - 1].group:
            axes.axhline(i - 0.5, color="#bbb", linewidth=0.8)
    axes.set_yticks(range(len(rows)))
    axes.set_yticklabels([row.label() for row in rows], fontsize=8.5)
    axes.set_ylim(len(rows) - 0.5, -0.5)
    axes.grid(axis="x", color="#eee")
    axes.set_xlabel("time / C's time on the same path, same processes (log scale; 1x = C)")
    axes.set_title(TITLE, fontsize=10)
    figure.legend(*axes.get_legend_handles_labels(), loc="lower center", fontsize=8.5,
                  ncol=len(apis), frameon=False)
    figure.tight_layout(rect=(0, 0.35 / height, 1, 1))  # the legend's strip at the bottom
    figure.savefig(out_dir / CHART, dpi=100)
    plt.close(figure)
    return [(TITLE, CHART)]
