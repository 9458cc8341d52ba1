"""The physical floor that every kernel process measures beside its variants: which processes
ran in the slow mode (floor.py) and the floor's table and notes (floor_report.py)."""

from ...core.room import Room
from . import floor, floor_report


def _digest(doc, records):
    doc["cells"] = floor.apply(doc["cells"], records)
    doc["floor"] = floor.summary(records)


def _sections(doc, charts, section_type):
    return {"floor": section_type("The physical floor", [floor_report.slow_line(doc.get("floor"))],
                                  tables=[floor_report.floor_table(doc.get("floor"))])}


def _headline(doc):
    return floor_report.mode_lines(doc.get("floor"))


ROOM = Room("floor", digest=_digest, annotate=floor_report.annotate, sections=_sections,
            headline=_headline)
