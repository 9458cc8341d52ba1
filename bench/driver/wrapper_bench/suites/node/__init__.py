"""The node suite: thinmpi::node_channel against C MPI and the physical floor, on the ping-pong
harness built with the node variants (node_suite.py), its report (node_report.py) and its chart
(node_chart.py)."""

from ...core.room import Room
from . import node_chart, node_report, node_suite

KEY = "node"


def _run(setup, options, mode, filters):
    return {KEY: node_suite.run(setup, options, mode)} if KEY in options.suites else {}


def _recompute(old):
    return {KEY: node_suite.recompute(old[KEY])} if KEY in old else {}


def _draw(doc, out_dir):
    return node_chart.draw(doc[KEY], out_dir) if KEY in doc else []


def _sections(doc, charts, section_type):
    return {KEY: node_report.sections(doc[KEY], charts, section_type) if KEY in doc else []}


ROOM = Room(KEY, suites=(KEY,), run=_run, recompute=_recompute, draw=_draw, sections=_sections,
            quick_left_out=("node: 20,000 round trips per size up to 4 KiB and 5 processes "
                            "instead of 4,000 and 3 (--full)",))
