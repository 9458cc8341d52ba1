"""thinmpi and its peers (KaMPIng, MPL, Boost.MPI, mpi4py, Go) side by side, path by path
(peers.py): their variants run in the other suites; this room names what is missing and writes
the peers table."""

from ...core import recheck
from ...core.room import Room
from . import peers


def _prepare(setup, options, presets, repo):
    peers.note_missing(setup, options.api)


def _sections(doc, charts, section_type):
    section = peers.section(doc, section_type)
    return {"peers": [section] if section else []}


def _retime(doc, mode):
    """The lines of the peers tables without a named cause, timed again (core/recheck.py)."""
    rows, launches = recheck.run_peers(peers.unexplained_cases(doc), mode)
    return {"peer_rechecks": rows}, launches


def _recompute(old):
    return {"peer_rechecks": old.get("peer_rechecks", [])}


ROOM = Room("peers", prepare=_prepare, sections=_sections, ratios=peers.path_ratios,
            retime=_retime, recompute=_recompute)
