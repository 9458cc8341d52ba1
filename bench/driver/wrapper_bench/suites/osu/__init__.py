"""The OSU-compatible sweep: its jobs (osu_jobs.py), the real osu_latency beside them (osu.py)
and its tables (osu_tables.py, with the Go kernel's)."""

from ...core.room import Room
from . import osu, osu_jobs, osu_tables


def _prepare(setup, options, presets, repo):
    if "osu" in options.suites:
        osu.add_osu(setup, list(dict.fromkeys(m for m, _ in presets)), options.osu_dir)


def _sections(doc, charts, section_type):
    cells = doc["cells"]
    return {"osu": section_type(
        "OSU-compatible sweep",
        tables=osu_tables.osu_tables(cells) + osu_tables.go_osu_tables(cells),
        charts=[c for c in charts if c[1].startswith("osu")])}


ROOM = Room("osu", suites=("osu",), counts=osu_jobs.COUNTS, jobs=osu_jobs.osu_jobs,
            arrange=osu.interleave, prepare=_prepare, sections=_sections,
            runners={"osu": osu.launch},
            quick_left_out=("OSU sweep: the odd powers of two (2 B, 8 B, ... 2 MiB), a third "
                            "process per size, and at 1 and 4 MiB 1,000 round trips instead of "
                            "200 (--full)",))
