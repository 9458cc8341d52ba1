"""The path audit: MPI calls per one-way message (from libwb_audit's windows) and the MPI and
Boost.MPI symbols each variant's object file references (the article's nm check)."""

import re
import subprocess
from collections import defaultdict
from pathlib import Path

MPI_SYMBOL = re.compile(r"^(P?MPI_\w+|ompi_mpi_\w+)$")
BOOST_ENTRY = re.compile(r"boost::mpi::.*\b(send|recv|isend|irecv|probe|archive)\b")


def calls_per_message(audit_lines, round_trips):
    """{label: {"calls": {call: per one-way message}, "bytes_per_message": b, "ranks": n}}.

    A window of K round trips carries 2K one-way messages; the calls of both ranks are added,
    so "1 MPI_Send" means one send per message, whichever rank made it."""
    totals = defaultdict(lambda: {"calls": defaultdict(int), "bytes": 0, "ranks": 0})
    for line in audit_lines:
        total = totals[line["label"]]
        total["ranks"] += 1
        total["bytes"] += line.get("bytes_sent", 0)
        for call, n in line.get("calls", {}).items():
            total["calls"][call] += n
    messages = 2.0 * round_trips
    return {label: {"calls": {call: n / messages for call, n in sorted(t["calls"].items())},
                    "bytes_per_message": t["bytes"] / messages, "ranks": t["ranks"]}
            for label, t in totals.items()}


def object_variant(path):
    """The variant (or family, "thinmpi/*") whose code an object file holds; None for tables."""
    stem = Path(path).name.split(".")[0]
    api, _, payload = stem.partition("_")
    if payload in ("variants", "") or api not in ("c", "boost", "thinmpi", "kamping", "mpl"):
        return None
    return f"{api}/*" if payload == "kernels" else f"{api}/{payload}"


def _nm(path, demangle):
    command = ["nm", "-u", "-C", str(path)] if demangle else ["nm", "-u", str(path)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line.split()[-1] if not demangle else line.strip()[2:].strip()
            for line in result.stdout.splitlines() if line.strip()]


def short_boost_name(demangled):
    """'void boost::mpi::communicator::send<...>(int, ...) const' -> 'communicator::send<...>'."""
    name, depth, start = demangled.split("(")[0], 0, 0
    for i, char in enumerate(name):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == " " and depth == 0:
            start = i + 1
    return name[start:].replace("boost::mpi::", "")


def object_symbols(path):
    """(MPI symbols, Boost.MPI send/recv/archive entry points) that an object file references."""
    mpi = sorted({s for s in _nm(path, False) if MPI_SYMBOL.match(s)})
    boost = sorted({short_boost_name(s) for s in _nm(path, True) if BOOST_ENTRY.search(s)})
    return mpi, boost


def symbol_rows(manifest, mpi, compiler):
    """One row per variant object of a build: which MPI symbols its code references."""
    rows = []
    for path in manifest.get("objects", []):
        variant = object_variant(path)
        if variant:
            mpi_symbols, boost_symbols = object_symbols(path)
            rows.append({"mpi": mpi, "compiler": compiler, "variant": variant,
                         "object": Path(path).name, "mpi_symbols": mpi_symbols,
                         "boost_mpi_entry_points": boost_symbols})
    return rows
