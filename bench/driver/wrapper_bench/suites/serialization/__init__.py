"""The serialization suite: serialized objects against hand-packed C (serial_suite.py)."""

from ...core.jobs import Counts
from ...core.room import Room
from . import serial_suite

COUNTS = {"full": {"serialization": Counts(20000, 2000, 3)},
          "quick": {"serialization": Counts(5000, 500, 3)},
          "smoke": {"serialization": Counts(100, 10, 1, 2)}}


def _jobs(suite, build, counts, filters, baselines):
    return serial_suite.jobs(build, counts, filters, baselines)


def _sections(doc, charts, section_type):
    cells = doc["cells"]
    return {"serialization": section_type(
        "Serialized objects", serial_suite.target_lines(cells), tables=[serial_suite.table(cells)],
        charts=[c for c in charts if c[1].startswith("serialization_")])}


ROOM = Room("serialization", suites=(serial_suite.SUITE,), counts=COUNTS, jobs=_jobs,
            draw=lambda doc, out_dir: serial_suite.draw(doc["cells"], out_dir),
            sections=_sections)
