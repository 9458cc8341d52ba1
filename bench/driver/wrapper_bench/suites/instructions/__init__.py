"""Instructions and allocations per call under callgrind, for the tiny, sweep and 2-rank
collectives launches (instructions.py): part of the default run on the gcc builds (every
compiler with --full or --instructions; none with --no-instructions or in the smoke run)."""

import dataclasses
import sys

from ...core.room import Room
from ...core.tables import Table
from . import instructions

KEY = "instructions"


# The compilers counted by default: gcc's builds (the counts of a path differ little between
# the compilers, and each preset's launches under callgrind take some 15 s here); --full
# counts every compiler, --instruction-compilers chooses.
DEFAULT_COMPILERS = ("gcc",)


def counted_compilers(options, mode):
    """The compilers whose builds are counted, or None for every one; () for none (the smoke run
    counts only when asked with --instructions, --no-instructions counts nothing)."""
    if getattr(options, "no_instructions", False) or \
            (mode == "smoke" and not getattr(options, "instructions", False)):
        return ()
    chosen = getattr(options, "instruction_compilers", None)
    if chosen:
        return tuple(chosen)
    return None if mode == "full" or getattr(options, "instructions", False) else \
        DEFAULT_COMPILERS


def _run(setup, options, mode, filters):
    compilers = counted_compilers(options, mode)
    if compilers == ():
        return {}
    if compilers is not None:
        keep = tuple(c for c in compilers if filters.compiler is None or c in filters.compiler)
        if not keep:
            return {}
        filters = dataclasses.replace(filters, compiler=keep)
    return {KEY: instructions.run(setup, options, filters,
                                  lambda line: print(line, file=sys.stderr), compilers)}


def _add_options(parser):
    parser.add_argument("--no-instructions", action="store_true",
                        help="skip the instruction counts (callgrind) of the default run")
    parser.add_argument("--instruction-compilers", type=lambda t: tuple(t.split(",")),
                        metavar="gcc,clang",
                        help="the compilers whose builds are counted under callgrind (default: "
                        "gcc; --full and --instructions: every one)")


def _recompute(old):
    return {KEY: old[KEY]} if KEY in old else {}


def _sections(doc, charts, section_type):
    part = doc.get(KEY)
    return {KEY: section_type("Instructions per call", instructions.lines(part),
                              tables=instructions.tables(
                                  part, doc["cells"], doc.get("collectives", {}).get("cells", []),
                                  Table))}


ROOM = Room(KEY, run=_run, recompute=_recompute, sections=_sections, add_options=_add_options,
            quick_left_out=("instructions: the clang builds' counts (--full, --instructions, or "
                            "--instruction-compilers gcc,clang)",))
