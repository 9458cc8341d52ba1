"""Where the timed launches' buffers lie (docs/bench.md, "Where the buffers lie").

With WB_ALIGN=1 in the driver's environment, every timed launch preloads libwb_align.so into its
ranks (bench/harness/wb_align.c): while a harness sets its variants up, malloc and calloc of
4 KiB or more give page-aligned blocks, of 1 KiB or more 64-byte-aligned ones, for C and every
library alike; the timed calls allocate with glibc's malloc. It is off by default: it takes
one source of noise away at 4 KiB (where a buffer lies in its page) and brings MPICH 4.0.2's
1 MiB collectives into another state (a 1 MiB MPI_Scan ran 1.1 ms a call with it and 11 ms
without, in the same launch), which it does not give every variant of a process alike. The
library is built beside each build's programs. Audit launches preload the audit library
instead, and the instruction counts run under valgrind's allocator: neither is timed.

A run without it still aligns the launches made inside aligned() (core/recheck.py: a cell below
C that stays below when re-timed is timed once more with aligned setups, to see whether where
its buffers lie is its cause); aligned() counts the launches it handed the library.
"""

import os
from contextlib import contextmanager
from pathlib import Path

LIBRARY = "libwb_align.so"
SWITCH = "WB_ALIGN"
_FORCED = {"on": False, "launches": 0}


def wanted():
    """Whether this run aligns the setups' buffers (WB_ALIGN=1), or this launch is made inside
    aligned()."""
    return _FORCED["on"] or os.environ.get(SWITCH, "0") == "1"


@contextmanager
def aligned():
    """Every timed launch made inside it preloads the library, as with WB_ALIGN=1; yields a
    function that says how many launches got it (none where no build had the library)."""
    before = dict(_FORCED)
    _FORCED.update(on=True, launches=0)
    try:
        yield lambda: _FORCED["launches"]
    finally:
        _FORCED.update(before)


def library(beside):
    """The allocator library in the folder of `beside` (a build's program or library), or ''
    when it is not wanted (WB_ALIGN=1 not set) or not there."""
    if not beside or not wanted():
        return ""
    found = Path(beside).with_name(LIBRARY)
    return str(found) if found.is_file() else ""


def description(beside):
    """What the report says of a build's timed launches: their allocator."""
    if not wanted():
        return "glibc's malloc"
    if library(beside):
        return ("the setups' blocks of 4 KiB and up page-aligned, of 1 KiB and up on a 64-byte "
                "line (WB_ALIGN=1, libwb_align.so)")
    return "glibc's malloc (WB_ALIGN=1, but no libwb_align.so in this build)"


def rank_env(beside):
    """The variables a timed launch hands its ranks: {'LD_PRELOAD': the library} or {}."""
    found = library(beside)
    if found and _FORCED["on"]:
        _FORCED["launches"] += 1
    return {"LD_PRELOAD": found} if found else {}
