#!/usr/bin/python3
"""Doxygen input filter (docs/Doxyfile, FILTER_PATTERNS): puts every public entity of a header
into the group of its folder, so that the reference is grouped by family as the headers are
(docs/library.md, "How the code is laid out") and a new header needs no grouping command.

Usage: doxygen_groups.py <file>; writes the file to stdout. In a header under include/thinmpi/<folder>/,
each `namespace thinmpi {` line gets `\\addtogroup <folder>` and `@{` at its end, and each
`}  // namespace thinmpi` line an `@}` at its start (Doxygen groups a class only when the group
opens inside its namespace). Lines are neither added nor removed, so the line numbers of
Doxygen's warnings are the header's own. docs/groups.dox defines the groups (title, cost table).
"""
import pathlib
import re
import sys

OPEN = re.compile(r"^namespace thinmpi \{")
CLOSE = re.compile(r"^\}  // namespace thinmpi$")
# Specializations of std templates (std::ranges::enable_borrowed_range of the views) are not
# thinmpi's API, and Doxygen 1.9.4 misreads a variable template's specialization as an undeclared
# documented symbol: hidden with \cond.
STD_OPEN = re.compile(r"^namespace std(::\w+)* \{")
STD_CLOSE = re.compile(r"^\}  // namespace std(::\w+)*$")


def group_of(path: pathlib.Path) -> str | None:
    """The folder right under include/thinmpi/, or None (thinmpi.hpp, docs, other files)."""
    parts = path.resolve().parts
    for i in range(len(parts) - 2, 0, -1):
        if parts[i - 1] == "include" and parts[i] == "thinmpi":
            return parts[i + 1] if len(parts) > i + 2 else None
    return None


def grouped(text: str, group: str) -> str:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if OPEN.match(line):
            lines[i] = f"{line} /** \\addtogroup {group} */ /** @{{ */"
        elif CLOSE.match(line):
            lines[i] = f"/** @}} */ {line}"
        elif STD_OPEN.match(line):
            lines[i] = f"/** \\cond */ {line}"
        elif STD_CLOSE.match(line):
            lines[i] = f"{line.split('//')[0]} /** \\endcond */"
    return "\n".join(lines)


def main() -> int:
    path = pathlib.Path(sys.argv[1])
    text = path.read_text(encoding="utf-8")
    group = group_of(path) if path.suffix == ".hpp" else None
    sys.stdout.write(grouped(text, group) if group else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
