"""What the suites share of the OSU micro-benchmarks: the OSU-compatible sweep's sizes and
variants (the osu suite on one node, osu-hosts across hosts) and the --osu-dir values (the real
osu_latency, and OSU's programs beside the multi-rank harness, core/osu_programs.py)."""

OSU_BYTES = tuple(2**k for k in range(23))  # 1 B .. 4 MiB
OSU_VARIANTS = ("c/char_buffer", "thinmpi/char_span", "go/byte_slice_prealloc",
                "gompi/byte_slice_prealloc", "osu/osu_latency", "kamping/char_buffer",
                "mpl/char_buffer")


def sweep_sizes(filters, every=None):
    """The sweep's sizes: `every` (the run's; None: OSU_BYTES), or with --sizes those of
    OSU_BYTES up to the largest size asked for."""
    return (every or OSU_BYTES) if filters.sweep_bytes is None else tuple(
        s for s in OSU_BYTES if s <= max(filters.sweep_bytes))


def split_dirs(values):
    """--osu-dir values: 'DIR' or 'MPI=DIR' -> ({mpi: DIR}, [DIR without an MPI])."""
    named, plain = {}, []
    for value in values or []:
        mpi, sep, folder = value.partition("=")
        if sep and mpi in ("openmpi", "mpich"):
            named[mpi] = folder
        else:
            plain.append(value)
    return named, plain
