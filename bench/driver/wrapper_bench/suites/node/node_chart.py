"""The node suite's chart: one-way latency against size, log-log, the channel drawn between the
floor and C MPI, one panel per MPI and compiler (matplotlib, no display needed)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from ...core.tables import MPI_NAMES  # noqa: E402
from . import node_report, node_suite  # noqa: E402

CHART = "node_latency.png"
STYLES = {node_suite.FLOOR: ("floor (shared copy, no MPI)", "k", ":"),
          node_suite.C_KNOWN: ("C known count", "tab:blue", "-"),
          node_suite.C_MPROBE: ("C mprobe", "tab:cyan", "--"),
          node_suite.THINMPI_MPI: ("thinmpi MPI path", "tab:purple", "--"),
          node_suite.KNOWN: ("channel known", "tab:red", "-"),
          node_suite.UNKNOWN: ("channel unknown", "tab:orange", "-"),
          node_suite.RING: ("channel, ring only", "tab:brown", "-.")}


def draw(part, out_dir):
    """[(title, file)] of the chart, or [] without latency cells."""
    cells = part.get("cells", [])
    builds = node_report.builds_of(cells)
    if not builds:
        return []
    figure, panels = plt.subplots(1, len(builds), figsize=(5.2 * len(builds), 4.6),
                                  squeeze=False)
    for axes, (mpi, compiler) in zip(panels[0], builds):
        for variant, (label, color, line) in STYLES.items():
            points = sorted((c["bytes"], c["one_way_us"]["median"]) for c in cells
                            if (c["mpi"], c["compiler"], c["ranks"], c["variant"]) ==
                            (mpi, compiler, 2, variant) and c["one_way_us"])
            if points:
                axes.plot(*zip(*points), color=color, linestyle=line, marker=".", label=label)
        axes.set_xscale("log", base=2)
        axes.set_yscale("log")
        axes.set_xlabel("payload (bytes)")
        axes.set_ylabel("one-way latency (µs)")
        axes.set_title(f"{MPI_NAMES[mpi]} {compiler}")
        axes.grid(True, which="both", alpha=0.3)
    panels[0][0].legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(out_dir / CHART, dpi=100)
    plt.close(figure)
    return [("Intra-node channel: one-way latency against size", CHART)]
