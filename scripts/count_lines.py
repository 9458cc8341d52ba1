#!/usr/bin/python3
"""Lines of code of the example programs, counted as the KaMPIng repository counts its versions
(kamping-site/kamping-examples, evaluation/count_lines.py).

A file's counted region lies between a line containing "//> START <APPLICATION> <IMPLEMENTATION>"
and the next line containing "//> END"; the lines strictly between the two markers count, except
blank lines and lines starting with "//" (comments). One region per file, as theirs.

    scripts/count_lines.py examples bench/programs       # CSV: application,implementation,...
    scripts/count_lines.py --markdown examples bench/programs
"""

import argparse
import sys
from pathlib import Path

START, END = "//> START", "//> END"

# The KaMPIng paper's published counts (MPI, Boost.MPI, MPL, KaMPIng, KaMPIng flattened).
# HALO is not the paper's: its MPL figure is ours, counted this way in MPL's
# examples/heat_equation_Jacobi_method.cc (MPL 80c3305): update_overlap (20 lines) and the two
# statements that make its Cartesian communicator (3 lines), what the HALO regions here hold.
PUBLISHED = {"VECTOR_ALLGATHER": (14, 5, 12, 1, None), "SORTING": (32, 30, 37, 28, 16),
             "BFS": (46, 42, 49, 31, 22), "HALO": (None, None, 23, None, None)}


def count_region(lines):
    """{"application", "implementation", "length", ...} of the first marked region, or None."""
    begin, application, implementation = None, None, None
    comments = blank = 0
    for index, line in enumerate(lines):
        text = line.strip()
        if begin is None:
            if START in line:
                begin = index
                application, implementation = text.split()[2:4]
            continue
        if END in line:
            length = index - (begin + 1) - comments - blank
            return {"application": application, "implementation": implementation,
                    "length": length, "begin": begin, "end": index,
                    "comment_lines": comments, "blank_lines": blank}
        comments += text.startswith("//")
        blank += not text
    return None


def count_paths(paths):
    """The regions of every file directly in the given folders (or the given files)."""
    rows = []
    for path in map(Path, paths):
        files = sorted(p for p in path.glob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            try:
                region = count_region(file.read_text().splitlines())
            except UnicodeDecodeError:
                continue
            if region:
                rows.append(dict(region, file=str(file)))
    return sorted(rows, key=lambda r: (r["application"], r["implementation"]))


def markdown(rows):
    """The table of docs/library.md: our counts next to the paper's (and MPL's halo)."""
    ours = {(r["application"], r["implementation"]): r["length"] for r in rows}
    lines = ["| program | C MPI (ours) | thinmpi | MPI (paper) | Boost.MPI | MPL | KaMPIng | "
             "KaMPIng flattened |", "|---|---|---|---|---|---|---|---|"]
    for application, published in PUBLISHED.items():
        cells = [ours.get((application, "C"), "—"), ours.get((application, "THINMPI"), "—")]
        cells += ["—" if n is None else n for n in published]
        lines.append(f"| {application.lower()} | " + " | ".join(map(str, cells)) + " |")
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="folders (their files) or files")
    parser.add_argument("--markdown", action="store_true", help="the docs/library.md table")
    options = parser.parse_args(argv)
    rows = count_paths(options.paths)
    if options.markdown:
        print(markdown(rows))
        return 0
    columns = ("application", "implementation", "length", "begin", "end", "comment_lines",
               "blank_lines", "file")
    print(",".join(columns))
    for row in rows:
        print(",".join(str(row[c]) for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
