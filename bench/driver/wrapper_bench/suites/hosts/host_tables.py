"""The report's tables across hosts (suites osu-hosts and tiny-hosts): the OSU sweep in GoMPI's
format with Boost.MPI and mpi4py beside C and thinmpi, Open MPI against MPICH, the tiny
messages, and where the ranks ran and over what."""

from ...core.compare import find
from ...core.tables import MPI_NAMES, MPI_ORDER, Table, cell_text, one, present, size_label, times

OSU_NOTE = ("One rank on each of two hosts, one-way = half the round trip (osu_latency's method), "
            "{iterations} iterations after {warmup} warm-up, median over processes. C MPI and "
            "thinmpi send MPI_CHAR; Boost.MPI (raw pointer send) and mpi4py (NumPy) send the same "
            "bytes as ints, from 4 B, with their own C baseline in the same process (their ratio "
            "in parentheses). thinmpi / C is the median of per-process ratios.")


def _us(cell, ratio=False):
    if not cell:
        return "—"
    text = f"{cell['one_way_us']['median']:.2f}"
    if ratio and cell.get("ratio_vs_c"):
        text += f" ({cell['ratio_vs_c']['median']:.2f}x)"
    return text


def _compiler(cells, suite):
    compilers = {c["compiler"] for c in cells if c["suite"] == suite and c["compiler"] != "python"}
    return "gcc" if "gcc" in compilers or not compilers else sorted(compilers)[0]


def osu_host_tables(cells):
    """One table per MPI: size, C MPI, thinmpi, Boost.MPI, mpi4py (µs), thinmpi / C."""
    tables = []
    host_cells = find(cells, suite="osu-hosts")
    compiler = _compiler(cells, "osu-hosts")
    for m in present(host_cells, "mpi", MPI_ORDER):
        rows, first = [], None
        for size in sorted({c["bytes"] for c in find(host_cells, mpi=m)}):
            c, t, b = (one(host_cells, mpi=m, compiler=compiler, variant=v, bytes=size)
                       for v in ("c/char_buffer", "thinmpi/char_span", "boost/raw"))
            p = one(host_cells, mpi=m, compiler="python", variant="mpi4py/numpy", bytes=size)
            first = first or c or t
            rows.append([str(size), _us(c), _us(t), _us(b, True), _us(p, True),
                         f"{t['ratio_vs_c']['median']:.2f}x" if t and t["ratio_vs_c"] else "—"])
        if rows:
            note = OSU_NOTE.format(iterations=first["iterations"] if first else "?",
                                   warmup=first["warmup"] if first else "?")
            tables.append(Table(f"osu-hosts-{m}", f"OSU-compatible sweep across hosts, "
                                f"{MPI_NAMES[m]} ({compiler})",
                                ["message size (bytes)", "C MPI (µs)", "thinmpi (µs)",
                                 "Boost.MPI (µs)", "mpi4py (µs)", "thinmpi / C"], rows, note))
    return tables


def mpi_comparison(cells):
    """C MPI across hosts: Open MPI against MPICH at every size both measured."""
    host_cells = find(cells, suite="osu-hosts", variant="c/char_buffer")
    rows = []
    for size in sorted({c["bytes"] for c in host_cells}):
        openmpi = one(host_cells, mpi="openmpi", bytes=size)
        mpich = one(host_cells, mpi="mpich", bytes=size)
        if openmpi and mpich:
            ratio = openmpi["one_way_us"]["median"] / mpich["one_way_us"]["median"]
            rows.append([size_label(size), _us(openmpi), _us(mpich), times(ratio)])
    return Table("hosts-openmpi-vs-mpich", "C MPI across hosts: Open MPI against MPICH",
                 ["message size", "Open MPI (µs)", "MPICH (µs)", "Open MPI / MPICH"], rows,
                 "Medians of separate launches of each MPI, so machine noise between them "
                 "counts; the target is Open MPI within 1.5x of MPICH (docs/bench.md, "
                 "Targets).")


def tiny_host_table(cells):
    """The tiny suite across hosts: every variant at 1, 8 and 64 elements."""
    host_cells = find(cells, suite="tiny-hosts")
    compiler = _compiler(cells, "tiny-hosts")
    rows = []
    for m in present(host_cells, "mpi", MPI_ORDER):
        for k in (compiler, "python"):
            variants = sorted({c["variant"] for c in find(host_cells, mpi=m, compiler=k)},
                              key=lambda v: (not v.startswith("c/"), v))
            for variant in variants:
                values = [one(host_cells, mpi=m, compiler=k, variant=variant, count=n)
                          for n in (1, 8, 64)]
                rows.append([MPI_NAMES[m], k, variant] + [cell_text(v) for v in values])
    return Table("tiny-hosts", f"Tiny messages across hosts ({compiler} kernels and mpi4py)",
                 ["MPI", "process", "variant", "1", "8", "64"], rows,
                 "Elements of the variant's payload (ints, chars for strings, 40-byte structs); "
                 "ratios against each variant's C baseline in the same process, as on one node.")


def host_lines(context):
    """Where the ranks ran and what carried the messages, one line per MPI."""
    hosts = context.get("hosts")
    if not hosts:
        return ["Not run: `make bench BENCH_ARGS=\"--hosts cluster\"` runs the host suites on "
                "a local cluster of network namespaces, `--hosts a,b` or `--hostfile` on a real "
                "one (docs/cluster.md)."]
    lines = [f"Mode: {hosts.get('mode')} (one rank per host)."]
    for mpi, ranks in hosts.get("rank_hosts", {}).items():
        placed = " and ".join(ranks) if isinstance(ranks, list) else f"not run: {ranks}"
        line = (f"{MPI_NAMES.get(mpi, mpi)}: ranks on {placed}; transport: "
                f"{hosts.get('transport', {}).get(mpi, 'unknown')}; launched with "
                f"`{hosts.get('launcher', {}).get(mpi, '?')}`.")
        check = hosts.get("transport_check", {}).get(mpi)
        if check and "wire_per_payload" in check:
            line += (f" Check: during {check['payload_bytes']:,} bytes of ping-pong payload, "
                     f"node1's eth0 carried {check['eth0_bytes']:,} bytes "
                     f"({check['wire_per_payload']:.2f} per payload byte: the network, not "
                     "shared memory).")
        elif check:
            line += f" Transport check failed: {check.get('error')}."
        lines.append(line)
    return lines


def host_tables(cells):
    """Every table of the section, those without cells left out."""
    if not find(cells, suite="osu-hosts") and not find(cells, suite="tiny-hosts"):
        return []
    tables = osu_host_tables(cells)
    comparison = mpi_comparison(cells)
    tiny = tiny_host_table(cells)
    return tables + [t for t in (comparison, tiny) if t.rows]
