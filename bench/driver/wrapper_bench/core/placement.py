"""Where the timed launches' buffers lie (docs/bench.md, "Where the buffers lie").

Every timed launch preloads libwb_align.so into its ranks (bench/harness/wb_align.c): while a
harness sets its variants up, malloc and calloc of 4 KiB or more give page-aligned blocks, of
1 KiB or more 64-byte-aligned ones, for C and every library alike, so that a ratio does not
depend on where the heap happened to put a variant's buffers; the timed calls allocate as
with glibc's malloc. The library is built beside each build's programs; an older build without it
runs on glibc's malloc, and WB_ALIGN=0 in the driver's environment turns it off (to see the
effect). Audit launches preload the audit library instead, and the instruction counts run under
valgrind's allocator: neither is timed.
"""

import os
from pathlib import Path

LIBRARY = "libwb_align.so"
SWITCH = "WB_ALIGN"


def library(beside):
    """The allocator library in the folder of `beside` (a build's program or library), or ''
    when it is not there or WB_ALIGN=0."""
    if not beside or os.environ.get(SWITCH, "1") == "0":
        return ""
    found = Path(beside).with_name(LIBRARY)
    return str(found) if found.is_file() else ""


def description(beside):
    """What the report says of a build's timed launches: their allocator."""
    found = library(beside)
    if found:
        return ("the setups' blocks of 4 KiB and up page-aligned, of 1 KiB and up on a 64-byte "
                "line (libwb_align.so)")
    if os.environ.get(SWITCH, "1") == "0":
        return "glibc's malloc (WB_ALIGN=0)"
    return "glibc's malloc (no libwb_align.so in this build)"


def rank_env(beside):
    """The variables a timed launch hands its ranks: {'LD_PRELOAD': the library} or {}."""
    found = library(beside)
    return {"LD_PRELOAD": found} if found else {}
