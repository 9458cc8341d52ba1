"""The collectives suite: the multi-rank harness's plan of collectives run on the builds at hand
(coll_suite.py; the harness itself, which the neighbors and rma suites run on too, is
core/harness.py), OSU's collective benchmarks beside it (osu_coll.py) and its report
(coll_report.py)."""

from ...core.room import Room
from . import coll_report, coll_suite

KEY = "collectives"


def _run(setup, options, mode, filters):
    return {KEY: coll_suite.run(setup, options, mode)} if KEY in options.suites else {}


def _recompute(old):
    return {KEY: coll_suite.recompute(old[KEY])} if KEY in old else {}


def _draw(doc, out_dir):
    return coll_report.draw(doc.get(KEY, {}).get("cells", []), out_dir)


def _sections(doc, charts, section_type):
    return {KEY: coll_report.sections(doc[KEY], charts, section_type, doc.get("instructions"))
            if KEY in doc else []}


ROOM = Room(KEY, suites=(KEY,), run=_run, recompute=_recompute, draw=_draw, sections=_sections,
            quick_left_out=("collectives: 32 B and 256 B, with OSU's collective benchmarks "
                            "there, and a second and third process of each OSU benchmark "
                            "(--full)",
                            "collectives and neighbors: the 4-rank cells, which oversubscribe "
                            "2 cores (--ranks 2,4, or --full)"))
