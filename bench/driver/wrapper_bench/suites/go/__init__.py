"""Go through cgo: the Go kernel's builds (go_session.py) and its tables (go_tables.py); its
variants run in the tiny, sweep and OSU suites."""

from ...core.room import Room
from . import go_session, go_tables


def _prepare(setup, options, presets, repo):
    if options.api is None or "go" in options.api:
        for mpi in dict.fromkeys(m for m, _ in presets):
            go_session.add_go(setup, repo, mpi, fetch_gompi=not options.no_build)


def _sections(doc, charts, section_type):
    return {"go": section_type("Go through cgo", tables=[go_tables.go_tiny(doc["cells"])])}


ROOM = Room("go", prepare=_prepare, sections=_sections, ratios=go_tables.path_ratios)
