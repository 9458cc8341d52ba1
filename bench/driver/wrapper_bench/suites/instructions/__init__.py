"""Instructions and allocations per call under callgrind (--instructions), for the tiny, sweep
and 2-rank collectives launches (instructions.py)."""

import sys

from ...core.room import Room
from ...core.tables import Table
from . import instructions

KEY = "instructions"


def _run(setup, options, mode, filters):
    if not getattr(options, "instructions", False):
        return {}
    return {KEY: instructions.run(setup, options, filters,
                                  lambda line: print(line, file=sys.stderr))}


def _recompute(old):
    return {KEY: old[KEY]} if KEY in old else {}


def _sections(doc, charts, section_type):
    part = doc.get(KEY)
    return {KEY: section_type("Instructions per call", instructions.lines(part),
                              tables=instructions.tables(
                                  part, doc["cells"], doc.get("collectives", {}).get("cells", []),
                                  Table))}


ROOM = Room(KEY, run=_run, recompute=_recompute, sections=_sections)
