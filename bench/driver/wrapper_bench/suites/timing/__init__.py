"""Where the time went: the run's phases and their wall time (core/timing.py keeps them in
results.json's "timings"); this room only writes their table."""

from ...core.room import Room
from ...core.tables import Table

KEY = "timings"


def table(part):
    """The phases with their seconds, launches and share of the run."""
    rows = (part or {}).get("rows", [])
    total = (part or {}).get("total_seconds") or sum(r["seconds"] for r in rows) or 1.0
    body = [[r["phase"], r["what"], f"{r['seconds']:.0f}",
             "" if r.get("launches") is None else str(r["launches"]),
             f"{100 * r['seconds'] / total:.0f} %"] for r in rows]
    body.append(["total", "the whole run" if rows and rows[0]["phase"] == "setup" else
                 "the driver (without the setup scripts)", f"{total:.0f}", "", "100 %"])
    return Table("timings", "Phases of this run", ["phase", "what", "s", "launches", "share"],
                 body if rows else [],
                 "Wall time of each phase on this machine (other work on it inflates it). "
                 "A suite's row covers its launches (all repetitions, failed ones and their "
                 "splits); the builds' row covers configuring and compiling one preset.")


def left_out_lines(part):
    """What the quick run left out, and how to run it."""
    left_out = (part or {}).get("left_out_quick")
    return ["Left out of the quick run (`make bench FULL=1`, `--full`, runs everything):"] + \
        [f"- {line}" for line in left_out] if left_out else []


def _sections(doc, charts, section_type):
    part = doc.get(KEY)
    return {KEY: section_type("Where the time went", left_out_lines(part),
                              tables=[table(part)]) if part else []}


def _recompute(old):
    return {KEY: old[KEY]} if KEY in old else {}


ROOM = Room("timing", recompute=_recompute, sections=_sections)
