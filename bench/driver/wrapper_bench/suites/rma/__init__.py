"""The rma suite: one-sided operations on the collectives suite's harness, beside OSU's
one-sided tests (rma_suite.py), and its report (rma_report.py)."""

from ...core.room import Room
from . import rma_report, rma_suite

KEY = "rma"


def _run(setup, options, mode, filters):
    return {KEY: rma_suite.run(setup, options, mode)} if KEY in options.suites else {}


def _recompute(old):
    return {KEY: rma_suite.recompute(old[KEY])} if KEY in old else {}


def _sections(doc, charts, section_type):
    return {KEY: rma_report.sections(doc[KEY], section_type) if KEY in doc else []}


ROOM = Room(KEY, suites=(KEY,), run=_run, recompute=_recompute, sections=_sections,
            quick_left_out=("rma: 1 MiB, with OSU's one-sided tests there, a second and third "
                            "process of each OSU test, and 5,000 calls per launch up to 4 KiB "
                            "instead of 50,000 (--full)",))
