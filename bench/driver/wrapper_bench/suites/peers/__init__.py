"""thinmpi and its peers (KaMPIng, MPL, Boost.MPI, mpi4py, Go) side by side, path by path
(peers.py): their variants run in the other suites; this room names what is missing and writes
the peers table."""

from ...core.room import Room
from . import peers


def _prepare(setup, options, presets, repo):
    peers.note_missing(setup, options.api)


def _sections(doc, charts, section_type):
    section = peers.section(doc, section_type)
    return {"peers": [section] if section else []}


ROOM = Room("peers", prepare=_prepare, sections=_sections, ratios=peers.path_ratios)
