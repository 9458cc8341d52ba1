"""What the report says, in order, independent of its format (Markdown or HTML)."""

from dataclasses import dataclass, field

from . import below_c, first_screen, rooms
from .core import tables


@dataclass
class Section:
    """A report section: paragraphs, tables and charts under a title."""

    title: str
    paragraphs: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    charts: list = field(default_factory=list)  # (title, png file name)
    charts_first: bool = False  # the charts before the tables (the first screen's chart)


def short_version(library_version):
    """'MPICH Version: 4.0.2 ... MPICH Device: ch4:ucx ...' -> 'MPICH 4.0.2 (ch4:ucx)'; other
    implementations' one-line strings are kept as they are."""
    fields = dict(line.split(":", 1) for line in library_version.splitlines() if ":" in line)
    if "MPICH Version" in fields:
        device = fields.get("MPICH Device", "").strip()
        return f"MPICH {fields['MPICH Version'].strip()}" + (f" ({device})" if device else "")
    return library_version.splitlines()[0] if library_version else "unknown"


def context_lines(context):
    """The machine and versions, one line each."""
    lines = [f"Machine: {context.get('cpu_model')}, {context.get('cpu_count')} cores, "
             f"{context.get('os')} (kernel {context.get('kernel')}), {context.get('date')}.",
             f"Mode: {context.get('mode')} ({context.get('command')})."]
    for mpi, version in context.get("mpi", {}).items():
        binding = context.get("binding", {}).get(mpi, "unknown")
        buffers = context.get("placement", {}).get(mpi)
        pml = context.get("pml", {}).get(mpi)
        lines.append(f"{tables.MPI_NAMES.get(mpi, mpi)}: {short_version(version)} "
                     f"(binding: {binding}" + (f"; PML: {pml}" if pml else "")
                     + (f"; buffers: {buffers}" if buffers else "") + ").")
    for build, compilers in context.get("compilers", {}).items():
        lines.append(f"{build}: C {compilers.get('c')}, C++ {compilers.get('cxx')}.")
    for mpi, boost in context.get("boost", {}).items():
        lines.append(f"Boost.MPI for {tables.MPI_NAMES.get(mpi, mpi)}: {boost}.")
    for mpi, info in context.get("mpi4py", {}).items():
        lines.append(f"mpi4py for {tables.MPI_NAMES.get(mpi, mpi)}: {info}.")
    for mpi, info in context.get("go", {}).items():
        lines.append(f"Go kernel for {tables.MPI_NAMES.get(mpi, mpi)}: {info}.")
    for mpi, info in context.get("osu", {}).items():
        lines.append(f"OSU osu_latency for {tables.MPI_NAMES.get(mpi, mpi)}: {info}.")
    return lines


def mode_lines(doc):
    """What the rooms put under the report's title, above the first screen's chart (the floor
    room: each MPI's machine mode)."""
    return [line for room in rooms.ROOMS if room.headline for line in room.headline(doc)]


# The report's sections by name, in order; each room writes its own (rooms.py). The article's
# come first, with the floor's notes under their tables; the missing and failed cells stay last.
ARTICLE = ("conclusions", "floor", "c_floor", "scalar", "raw_vs_vector", "cliff", "mpi4py", "go",
           "sweep", "structs", "persistent", "osu", "hosts", "serialization", "path_audit",
           "symbols", "instructions", "targets")
OTHERS = ("collectives", "neighbors", "rma", "node", "io", "peers", "timings")
LAST = ("missing",)


def _flat(found, names):
    out = []
    for name in names:
        value = found.get(name, [])
        out += value if isinstance(value, list) else [value]
    return out


def report_sections(doc, charts):
    """The report's sections under its title and mode_lines: the first screen (every library
    against C per path, the targets' verdicts), the machine, versions and method, then every
    room's section."""
    sections = build_sections(doc, charts)
    details = Section("Machine, versions and method",
                      ["\n".join(f"- {line}" for line in context_lines(doc["context"])), METHOD])
    return [first_screen.section(doc, charts, sections, Section), details] + sections


def build_sections(doc, charts):
    """The report's sections, the article's order first."""
    found = {}
    for room in rooms.ROOMS:
        found.update(room.sections(doc, charts, Section) if room.sections else {})
    article, last = _flat(found, ARTICLE), _flat(found, LAST)
    for section in article + last:
        for room in rooms.ROOMS:
            if room.annotate:
                room.annotate(section.tables, doc["cells"])
    # Faster than C reads every suite's cells, so it follows the targets, above the others.
    return article + [below_c.section(doc, Section)] + _flat(found, OTHERS) + last


METHOD = ("Two ranks on one node; rank 0 sends, rank 1 sends the same kind of payload back; "
          "one-way latency is half the round trip. Every C/C++ variant of one MPI x compiler "
          "runs in one process, in interleaved blocks, so each ratio against C is taken inside "
          "one run. A process's figure is the low decile of its 20 blocks (other work on the "
          "machine slows whole blocks), its ratio the quotient of two such figures; the median "
          "over process-level repetitions is reported (min and max are in results.json). "
          "mpi4py runs its C baseline through ctypes in the same process, the Go kernel "
          "through cgo. Every process also measures its physical floor, a cache-line "
          "ping-pong between its two ranks' cores with no MPI, before and after its variants.")
