"""What every room's tables share: the Table (title, headers, rows) that the Markdown and HTML
pages render, the names and order of MPIs and compilers, and the cell formatting."""

from dataclasses import dataclass, field

from .compare import find

MPI_ORDER = ("openmpi", "mpich")
COMPILER_ORDER = ("gcc", "clang", "python")
MPI_NAMES = {"openmpi": "OpenMPI", "mpich": "MPICH"}
API_NAMES = {"c": "C MPI", "boost": "Boost.MPI", "mpi4py": "mpi4py", "thinmpi": "thinmpi"}


@dataclass
class Table:
    """A report table: rows of strings under headers, with an optional note."""

    key: str
    title: str
    headers: list
    rows: list
    note: str = ""
    groups: list = field(default_factory=list)  # optional sub-titles, one per block of rows


def us(value):
    """'0.298 µs', or '—' for a cell that was not measured."""
    return "—" if value is None else f"{value:.3f} µs"


def times(value):
    """'1.04×', or '—'."""
    return "—" if value is None else f"{value:.2f}×"


def cell_text(cell, with_ratio=True):
    """'0.374 µs (1.25×)' for a cell, '—' when it was not measured."""
    if not cell:
        return "—"
    text = us(cell["one_way_us"]["median"])
    ratio = cell.get("ratio_vs_c")
    if with_ratio and ratio and cell["baseline"] != cell["variant"]:
        text += f" ({times(ratio['median'])})"
    return text


def calls_text(calls):
    """'1 MPI_Send + 1 MPI_Recv' from calls per message (setup calls under 0.05 left out)."""
    parts = [f"{n:g} {name}" if abs(n - round(n)) < 1e-9 else f"{n:.2f} {name}"
             for name, n in sorted(calls.items(), key=lambda item: -item[1]) if n >= 0.05]
    return " + ".join(parts) or "none"


def one(cells, **wanted):
    """The one cell matching `wanted`, or None."""
    found = find(cells, **wanted)
    return found[0] if found else None


def present(cells, field_name, order):
    """The values of a field found in `cells`, in the report's order."""
    values = {c[field_name] for c in cells}
    return [v for v in order if v in values] + sorted(values - set(order))


def builds(cells, suite):
    """(mpi, compiler) pairs with C/C++ cells in a suite, in report order."""
    pairs = {(c["mpi"], c["compiler"]) for c in cells if c["suite"] == suite
             and c["compiler"] != "python"}
    return [(m, k) for m in MPI_ORDER for k in COMPILER_ORDER if (m, k) in pairs]


def harness_ratio(cell):
    """'1.04x': the median ratio of a collectives-harness cell (collectives, rma), '—' when it
    has none."""
    return f"{cell['ratio']['median']:.2f}x" if cell and cell.get("ratio") else "—"


def size_label(size):
    """'4 B', '4 KiB', '1 MiB'."""
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"
