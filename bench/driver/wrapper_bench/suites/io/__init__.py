"""The io suite: MPI-IO from C, thinmpi::file and mpi4py side by side, POSIX pwrite/pread as the
floor, on tmpfs and on the disk (io_suite.py), and its report (io_report.py)."""

from ...core.room import Room
from . import io_report, io_suite

KEY = "io"


def _run(setup, options, mode, filters):
    return {KEY: io_suite.run(setup, options, mode)} if KEY in options.suites else {}


def _recompute(old):
    return {KEY: io_suite.recompute(old[KEY])} if KEY in old else {}


def _sections(doc, charts, section_type):
    return {KEY: io_report.sections(doc[KEY], charts, section_type) if KEY in doc else []}


ROOM = Room(KEY, suites=(KEY,), run=_run, recompute=_recompute, sections=_sections,
            quick_left_out=("io: the 64 MiB collective arrays, 5 processes instead of 3 and "
                            "about 3x the calls per cell (--full)",))
