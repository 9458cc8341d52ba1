"""The neighbors suite: neighbor collectives on the collectives suite's harness
(neighbor_suite.py) and its report (neighbor_report.py)."""

from ...core.room import Room
from . import neighbor_report, neighbor_suite

KEY = "neighbors"


def _run(setup, options, mode, filters):
    return {KEY: neighbor_suite.run(setup, options, mode)} if KEY in options.suites else {}


def _recompute(old):
    return {KEY: neighbor_suite.recompute(old[KEY])} if KEY in old else {}


def _sections(doc, charts, section_type):
    return {KEY: neighbor_report.sections(doc[KEY], section_type) if KEY in doc else []}


ROOM = Room(KEY, suites=(KEY,), run=_run, recompute=_recompute, sections=_sections)
