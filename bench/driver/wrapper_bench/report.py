"""What the report says, in order, independent of its format (Markdown or HTML)."""

from dataclasses import dataclass, field

from . import (coll_report, floor_report, go_tables, host_tables, instructions, neighbor_report,
               path_tables, peers, rma_report, serial_suite, tables)
from .conclusions import conclusions


@dataclass
class Section:
    """A report section: paragraphs, tables and charts under a title."""

    title: str
    paragraphs: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    charts: list = field(default_factory=list)  # (title, png file name)


def short_version(library_version):
    """'MPICH Version: 4.0.2 ... MPICH Device: ch4:ucx ...' -> 'MPICH 4.0.2 (ch4:ucx)'; other
    implementations' one-line strings are kept as they are."""
    fields = dict(line.split(":", 1) for line in library_version.splitlines() if ":" in line)
    if "MPICH Version" in fields:
        device = fields.get("MPICH Device", "").strip()
        return f"MPICH {fields['MPICH Version'].strip()}" + (f" ({device})" if device else "")
    return library_version.splitlines()[0] if library_version else "unknown"


def noise_lines(cells, context):
    """How many cells moved by more than 20% between processes, and how busy the machine was."""
    load, cores = context.get("load_average", {}), context.get("cpu_count", "?")
    timed = [c for c in cells if c["reps"] > 1]
    noisy = [c for c in timed if c["one_way_us"]["max"] > 1.2 * c["one_way_us"]["min"]]
    if not timed:
        return []
    return [f"Noise: {len(noisy)} of {len(timed)} cells moved by more than 20% between "
            "processes (min and max of every cell are in results.json); the load average was "
            f"{load.get('start', '?')} when the run started and {load.get('end', '?')} when it "
            f"ended, on {cores} cores. On a virtual machine "
            "the host may move the two vCPUs between cores, so absolute times shift from one "
            "process to the next; ratios, taken side by side inside one process, hold better."]


def context_lines(context):
    """The machine and versions, one line each."""
    lines = [f"Machine: {context.get('cpu_model')}, {context.get('cpu_count')} cores, "
             f"{context.get('os')} (kernel {context.get('kernel')}), {context.get('date')}.",
             f"Mode: {context.get('mode')} ({context.get('command')})."]
    for mpi, version in context.get("mpi", {}).items():
        binding = context.get("binding", {}).get(mpi, "unknown")
        lines.append(f"{tables.MPI_NAMES.get(mpi, mpi)}: {short_version(version)} "
                     f"(binding: {binding}).")
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


def _by_chart(charts, prefix):
    return [c for c in charts if c[1].startswith(prefix)]


def _conclusion_lines(doc):
    return [f"**{c['number']}. {c['claim']}** — *{c['verdict']}.* {c['evidence']}"
            for c in conclusions(doc["cells"], doc["audit"])]


def build_sections(doc, charts):
    """The report's sections, the article's order first."""
    cells = doc["cells"]
    collectives = coll_report.sections(doc["collectives"], charts, Section) \
        if "collectives" in doc else []
    if "neighbors" in doc:
        collectives += neighbor_report.sections(doc["neighbors"], Section)
    if "rma" in doc:
        collectives += rma_report.sections(doc["rma"], Section)
    article = [
        Section("What actually mattered, on this machine",
                _conclusion_lines(doc) + noise_lines(cells, doc["context"])),
        Section("C MPI: the floor", tables=[tables.c_floor(cells)]),
        Section("The scalar path", tables=[tables.scalar_overhead(cells)],
                charts=_by_chart(charts, "tiny_")),
        Section("The vector was not the raw buffer", tables=[tables.raw_vs_vector(cells)],
                charts=_by_chart(charts, "raw_vs_vector")),
        Section("The container cliff", tables=[tables.container_cliff(cells)]),
        Section("mpi4py has two personalities", tables=[tables.mpi4py_personalities(cells)]),
        Section("Go through cgo", tables=[go_tables.go_tiny(cells)]),
        Section("What happens when the messages get bigger", tables=[tables.size_sweep(cells)],
                charts=_by_chart(charts, "sweep_")),
        Section("Structs", tables=[tables.struct_table(cells)]),
        Section("OSU-compatible sweep",
                tables=tables.osu_tables(cells) + go_tables.go_osu_tables(cells),
                charts=_by_chart(charts, "osu")),
        Section("Across hosts", host_tables.host_lines(doc["context"]),
                host_tables.host_tables(cells)),
        Section("Serialized objects", serial_suite.target_lines(cells),
                tables=[serial_suite.table(cells)], charts=_by_chart(charts, "serialization_")),
        Section("Path audit", tables=path_tables.audit_tables(doc["audit"])),
        Section("Symbols", tables=path_tables.symbol_tables(doc["symbols"])),
        Section("Instructions per call", instructions.lines(doc.get("instructions")),
                tables=instructions.tables(
                    doc.get("instructions"), cells,
                    doc.get("collectives", {}).get("cells", []), tables.Table)),
        Section("thinmpi against its targets", tables=[path_tables.thinmpi_targets(
            cells, doc.get("instructions"))]),
        Section("Missing and failed cells",
                tables=[path_tables.missing_table(doc["missing"]),
                        path_tables.failures_table(doc["failures"])]),
    ]
    article.insert(1, Section("The physical floor", [floor_report.slow_line(doc.get("floor"))],
                              tables=[floor_report.floor_table(doc.get("floor"))]))
    for section in article:
        floor_report.annotate(section.tables, cells)
    peer_section = peers.section(doc, Section)
    collectives += [peer_section] if peer_section else []
    return article[:-1] + collectives + article[-1:]  # missing and failed cells stay last


METHOD = ("Two ranks on one node; rank 0 sends, rank 1 sends the same kind of payload back; "
          "one-way latency is half the round trip. Every C/C++ variant of one MPI x compiler "
          "runs in one process, in interleaved blocks, so each ratio against C is taken inside "
          "one run. A process's figure is the low decile of its 20 blocks (other work on the "
          "machine slows whole blocks), its ratio the quotient of two such figures; the median "
          "over process-level repetitions is reported (min and max are in results.json). "
          "mpi4py runs its C baseline through ctypes in the same process, the Go kernel "
          "through cgo. Every process also measures its physical floor, a cache-line "
          "ping-pong between its two ranks' cores with no MPI, before and after its variants.")
