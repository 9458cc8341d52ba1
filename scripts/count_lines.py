#!/usr/bin/python3
"""Lines of code of the example programs, counted as the KaMPIng repository counts its versions
(kamping-site/kamping-examples, evaluation/count_lines.py).

A file's counted region lies between a line containing "//> START <APPLICATION> <IMPLEMENTATION>"
and the next line containing "//> END"; the lines strictly between the two markers count, except
blank lines and lines starting with "//" (comments). One region per file, as theirs.

    scripts/count_lines.py examples bench/programs       # CSV: application,implementation,...
    scripts/count_lines.py --markdown examples bench/programs

The peers' own programs (KaMPIng's and MPL's examples, the sources that bench/setup/peer-source.sh
unpacks into build/peers/<name>-src, or $WB_PEERS_DIR, or --peers) carry no markers: their regions
are spans of lines found by anchors (PEER_REGIONS), counted by the same rule. Without a peer's
source (an offline machine without ../shared/peers) its cells are "-" with the reason, one line
on stderr says which peer, where it was looked for and what goes, and the exit status stays 0.
"""

import argparse
import os
import sys
from pathlib import Path

START, END = "//> START", "//> END"
REPO = Path(__file__).resolve().parents[1]
PEERS_DIR = REPO / os.environ.get("WB_PEERS_DIR", "build/peers")  # an absolute one replaces REPO

# The KaMPIng paper's published counts (MPI, Boost.MPI, MPL, KaMPIng, KaMPIng flattened).
# HALO is not the paper's: its MPL figure is ours, counted this way in MPL's
# examples/heat_equation_Jacobi_method.cc (MPL 80c3305): update_overlap (20 lines) and the two
# statements that make its Cartesian communicator (3 lines), what the HALO regions here hold.
PUBLISHED = {"VECTOR_ALLGATHER": (14, 5, 12, 1, None), "SORTING": (32, 30, 37, 28, 16),
             "BFS": (46, 42, 49, 31, 22), "HALO": (None, None, None, None, None)}

# The peers' own versions, in their sources at the pinned revisions (KaMPIng 5c8e84f, MPL
# 80c3305): (application, implementation, peer, file, spans). A span runs from the first line
# containing its start text (searched after the previous span) through the first line
# containing its end text, or, without one, through the line that closes the braces opened from
# its start: a whole function with its template line, signature and closing brace, as our thinmpi
# regions hold them. The local steps their sorts call (KaMPIng's common.hpp, MPL's partition and
# cmp_double) are left out, as ours are. MPL's HALO: update_overlap and the two statements that
# make its Cartesian communicator, what our HALO regions hold.
PEER_REGIONS = (
    ("VECTOR_ALLGATHER", "KAMPING", "kamping", "examples/usage/allgatherv_example.cpp",
     (("comm.allgatherv(send_buf(input));", "comm.allgatherv(send_buf(input));"),)),
    ("SORTING", "KAMPING_MPI", "kamping", "examples/applications/sample-sort/mpi.hpp",
     (("template <typename T>", None),)),
    ("SORTING", "KAMPING", "kamping", "examples/applications/sample-sort/kamping.hpp",
     (("template <typename T>", None),)),
    ("SORTING", "MPL_MPI", "mpl", "examples/parallel_sort_mpi.c",
     (("vector parallel_sort(vector v) {", None),)),
    ("SORTING", "MPL", "mpl", "examples/parallel_sort_mpl.cc", (("template<typename T>", None),)),
    ("HALO", "MPL", "mpl", "examples/heat_equation_Jacobi_method.cc",
     (("template<std::size_t dim, typename T, typename A>", None),
      ("mpl::cartesian_communicator::dimensions size{", "mpl::cartesian_communicator comm_c{"))),
)
# The peers' columns, and why a cell has no program (a "-" with its reason under the table).
PEER_COLUMNS = (("KAMPING_MPI", "KaMPIng's MPI"), ("KAMPING", "KaMPIng"), ("MPL_MPI", "MPL's MPI"),
                ("MPL", "MPL"))
PEER_ABSENT = {
    "VECTOR_ALLGATHER": "KaMPIng's allgatherv example (examples/usage) has no plain-MPI twin; "
                        "MPL's examples have no allgatherv (gatherv.cc gathers to one root)",
    "SORTING": None,
    "BFS": "neither KaMPIng's nor MPL's examples have a BFS",
    "HALO": "KaMPIng's examples have no halo exchange; MPL's heat equation has no plain-MPI twin",
}


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


def _span(lines, begin, start, end):
    """(first, last) line index of the span that starts at the first line from `begin` holding
    `start`; None where that line is not found."""
    first = next((i for i in range(begin, len(lines)) if start in lines[i]), None)
    if first is None:
        return None
    if end is not None:
        last = next((i for i in range(first, len(lines)) if end in lines[i]), None)
        return None if last is None else (first, last)
    depth, opened = 0, False
    for index in range(first, len(lines)):
        depth += lines[index].count("{") - lines[index].count("}")
        opened = opened or "{" in lines[index]
        if opened and depth <= 0:
            return first, index
    return None


def count_spans(lines, spans):
    """{"length", "spans", ...} of the spans [(start, end)], each counted by the rule of the
    markers' regions (no blank lines, no "//" lines); None where a span is not found."""
    found, begin, length, comments, blank = [], 0, 0, 0, 0
    for start, end in spans:
        span = _span(lines, begin, start, end)
        if span is None:
            return None
        found.append((span[0] + 1, span[1] + 1))  # line numbers, as an editor shows them
        for line in lines[span[0]:span[1] + 1]:
            text = line.strip()
            comments += text.startswith("//")
            blank += not text
            length += bool(text) and not text.startswith("//")
        begin = span[1] + 1
    return {"length": length, "spans": found, "comment_lines": comments, "blank_lines": blank}


def count_peers(peers_dir=PEERS_DIR):
    """The peers' rows (as count_paths's, "spans" for begin and end), and {(application,
    implementation): why} for those that could not be counted."""
    rows, missing = [], {}
    for application, implementation, peer, name, spans in PEER_REGIONS:
        file = Path(peers_dir) / f"{peer}-src" / name
        region = count_spans(file.read_text().splitlines(), spans) if file.is_file() else None
        if region:
            rows.append(dict(region, application=application, implementation=implementation,
                             file=str(file)))
        else:
            missing[(application, implementation)] = (
                f"{file} is not there (bench/setup/peer-source.sh unpacks it)"
                if not file.is_file() else f"{file} no longer has the lines counted")
    return rows, missing


def missing_sources(peers_dir=PEERS_DIR):
    """{peer: one line naming the peer, the first of its counted files that its source folder
    lacks, and what is not counted}, for each peer of PEER_REGIONS whose files are not all
    there (an empty or half-unpacked folder is no source)."""
    missing = {}
    for _, _, peer, name, _ in PEER_REGIONS:
        source = Path(peers_dir) / f"{peer}-src"
        if peer in missing or (source / name).is_file():
            continue
        cells = ", ".join(f"{a.lower()} {i.lower()}" for a, i, p, _, _ in PEER_REGIONS
                          if p == peer)
        missing[peer] = (f"{peer}: no source in {source} "
                         f"(no {name}; bench/setup/peer-source.sh unpacks it from "
                         f"$WB_{peer.upper()}_SOURCE, ../shared/peers or a clone): "
                         f"not counted: {cells}")
    return missing


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


def markdown(rows, peer_missing=None):
    """The table of docs/library.md: our counts, the peers' own programs counted the same way,
    and the counts the KaMPIng paper published; then why a peer cell is "-"."""
    counted = {(r["application"], r["implementation"]): r["length"] for r in rows}
    peer_missing = peer_missing or {}
    lines = ["| program | C MPI (ours) | thinmpi | " +
             " | ".join(name for _, name in PEER_COLUMNS) +
             " | paper: MPI | paper: Boost.MPI | paper: MPL | paper: KaMPIng | "
             "paper: KaMPIng flattened |", "|---|" + "---|" * (6 + len(PEER_COLUMNS))]
    notes = []
    for application, published in PUBLISHED.items():
        cells = [counted.get((application, "C"), "—"),
                 counted.get((application, "THINMPI"), "—")]
        for implementation, _ in PEER_COLUMNS:
            cells.append(counted.get((application, implementation), "-"))
            if (application, implementation) in peer_missing:
                notes.append(f"{application.lower()}, {implementation.lower()}: "
                             f"{peer_missing[(application, implementation)]}")
        cells += ["—" if n is None else n for n in published]
        lines.append(f"| {application.lower()} | " + " | ".join(map(str, cells)) + " |")
        if PEER_ABSENT[application]:
            notes.append(f"{application.lower()}: {PEER_ABSENT[application]}")
    return "\n".join(lines + [""] + [f"- {note}" for note in notes])


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="folders (their files) or files")
    parser.add_argument("--markdown", action="store_true", help="the docs/library.md table")
    parser.add_argument("--peers", default=str(PEERS_DIR),
                        help="where the peers' sources are unpacked (<name>-src folders)")
    options = parser.parse_args(argv)
    for line in missing_sources(options.peers).values():
        print(f"count_lines: {line}", file=sys.stderr)
    peer_rows, peer_missing = count_peers(options.peers)
    rows = count_paths(options.paths)
    if options.markdown:
        print(markdown(rows + peer_rows, peer_missing))
        return 0
    for row in peer_rows:  # a peer's region: its first and last lines
        row.update(begin=row["spans"][0][0], end=row["spans"][-1][1])
    rows += peer_rows
    columns = ("application", "implementation", "length", "begin", "end", "comment_lines",
               "blank_lines", "file")
    print(",".join(columns))
    for row in rows:
        print(",".join(str(row[c]) for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
