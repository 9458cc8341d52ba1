"""The serialization suite: non-trivial objects (strings in a vector, a map, a struct of a string
and a vector) sent as one message, by hand-packed C (the floor), thinmpi's serialized form,
Boost.MPI's archives and mpi4py's pickle. Its jobs, its table and its chart."""

from ...core.compare import find
from ...core.jobs import Job, chosen, with_baselines
from ...core.tables import MPI_NAMES, MPI_ORDER, Table, builds, cell_text, one, present, times

SUITE = "serialization"
# (payload, label of one count, counts): vector<string> of n strings of n chars, map<int,string>
# of n entries (16-char values), a struct {string of n chars; vector of n doubles}.
SHAPES = (("ser_vecstr", "vector<string> {n}×{n}", (8, 64, 1024)),
          ("ser_map", "map<int,string> {n}", (8, 512)),
          ("ser_record", "struct{{string, vector<double>}} {n}", (64,)))
APIS = (("thinmpi", "thinmpi serialized"), ("boost", "Boost.MPI"), ("mpi4py", "mpi4py pickle"),
        ("kamping", "KaMPIng cereal"))
# The peers with no general serialization: a column of "—" and the reason in the table's note.
NOT_SERIALIZING = (("MPL", "MPL has no general serialization: it sends what maps to an MPI "
                    "datatype (layouts, and STL containers of such types), so a vector<string> "
                    "or a map<int,string> has no MPL form to measure"),)
# Other receive forms of a payload, run in its jobs, each a row of its own against its C floor:
# (payload, row label, floor, {API: variant}). thinmpi/ser_map_flat receives the map's bytes
# (the same wire format) as a vector<pair<int,string>>: one array of entries, as C's floor,
# where std::map allocates a node per entry. The "into a kept one" rows decode into the value
# received last time (thinmpi's recv_reuse(serialized(x)); Boost.MPI's recv(source, tag, x)
# always does), against the C that unpacks into its kept payload (c/ser_*_kept).
SIDE_FORMS = (
    ("ser_vecstr", "vector<string> {n}×{n} into a kept one", "c/ser_vecstr_kept",
     {"thinmpi": "thinmpi/ser_vecstr_reuse", "boost": "boost/ser_vecstr"}),
    ("ser_map", "map<int,string> {n} as vector<pair>", "c/ser_map",
     {"thinmpi": "thinmpi/ser_map_flat"}),
    ("ser_map", "map<int,string> {n} into a kept one", "c/ser_map_kept",
     {"thinmpi": "thinmpi/ser_map_reuse", "boost": "boost/ser_map"}),
    ("ser_map", "map<int,string> {n} as a kept vector<pair>", "c/ser_map_kept",
     {"thinmpi": "thinmpi/ser_map_flat_reuse"}),
    ("ser_record", "struct{{string, vector<double>}} {n} into a kept one", "c/ser_record_kept",
     {"thinmpi": "thinmpi/ser_record_reuse", "boost": "boost/ser_record"}),
)
# The APIs whose receive decodes into the caller's object: their cells are in the "into a kept
# one" rows, not the new-object rows.
INTO_KEPT = ("boost",)
# The forms that carry a cost C's floor does not: std::map's tree (a node allocated and freed
# per entry, or, reused, still linked and balanced). Their flat forms are judged against the
# ≤ 1.10× target in their place; their own ratio is reported beside it.
NODE_FORMS = {"thinmpi/ser_map": ("thinmpi/ser_map_flat", "std::map allocates a node per entry"),
              "thinmpi/ser_map_reuse": ("thinmpi/ser_map_flat_reuse",
                                        "std::map links and balances a node per entry")}
# The thinmpi form an API's speed goal compares with: Boost.MPI's decodes into the caller's.
SAME_FORM = {"boost": "reuse"}
# The round trips of a payload scale down with its bytes past this many (1024×1024 is 1 MiB).
FULL_ITERATIONS_UP_TO_BYTES = 256


def variant_names():
    """Every variant of the suite, C floors first."""
    return [name for payload, _, _ in SHAPES
            for name in [f"{api}/{payload}" for api in ("c", "thinmpi", "boost", "mpi4py",
                                                         "kamping")] + side_variants(payload)]


def side_variants(payload):
    """The other receive forms measured beside a payload (SIDE_FORMS), but the APIs' own."""
    return [variant for shape, _, _, forms in SIDE_FORMS if shape == payload
            for api, variant in forms.items() if variant != f"{api}/{payload}"]


def message_bytes(payload, count):
    """The encoded size of a payload (thinmpi's wire format: 8-byte lengths)."""
    if payload == "ser_vecstr":
        return 8 + count * (8 + count)
    if payload == "ser_map":
        return 8 + count * (4 + 8 + 16)
    return 8 + count + 8 + 8 * count


def _shape(variant):
    """(shape, label) of a serialized variant, or None for another variant."""
    payload = variant.split("/")[-1]
    return next(((shape, label) for shape, label, _ in SHAPES
                 if payload == shape or payload.startswith(shape + "_")), None)


def size_text(variant, count):
    """A serialized cell's size as its payload and encoded message: "vector<string> 1024×1024,
    1 MiB" (its records' bytes count the payload's items, not the message's bytes); None for
    another variant."""
    found = _shape(variant)
    if found is None:
        return None
    return f"{_label(found[1], count)}, {_approximate(message_bytes(found[0], count))}"


def cell_message_bytes(variant, count):
    """The encoded message's bytes of a serialized cell (whose records' bytes count items), or
    None for another variant."""
    found = _shape(variant)
    return None if found is None else message_bytes(found[0], count)


def _approximate(size):
    """'592 B', '14.0 KiB', '1.01 MiB'."""
    return f"{size} B" if size < 1024 else f"{size / 1024:.1f} KiB" if size < 1 << 20 else \
        f"{size / (1 << 20):.2f} MiB"


def jobs(build, counts, filters, baselines):
    """One job per shape and count: the C floor, thinmpi, Boost.MPI (or mpi4py) side by side.
    --sizes (and --smoke) keep the counts whose messages are no larger than the largest size."""
    found = []
    largest = max(filters.sweep_bytes) if filters.sweep_bytes else None
    for payload, _, sizes in SHAPES:
        wanted = tuple(f"{api}/{payload}" for api, _ in APIS) + tuple(side_variants(payload))
        for count in sizes:
            if largest is not None and message_bytes(payload, count) > largest:
                continue
            names = chosen(build, wanted, count, filters)
            if names:
                size = max(FULL_ITERATIONS_UP_TO_BYTES, message_bytes(payload, count))
                iterations = max(20, counts.iterations * FULL_ITERATIONS_UP_TO_BYTES // size)
                found.append(Job(SUITE, build, with_baselines(names, baselines), count, counts,
                                 iterations))
    return found


def _label(payload_label, count):
    return payload_label.format(n=count)


def table(cells):
    """One row per build and shape: the C floor in µs, then each API with its ratio to it."""
    rows = []
    for mpi, compiler in builds(cells, SUITE):
        for payload, label, sizes in SHAPES:
            for count in sizes:
                floor = one(cells, suite=SUITE, mpi=mpi, compiler=compiler,
                            variant=f"c/{payload}", count=count)
                row = [MPI_NAMES[mpi], compiler, _label(label, count), cell_text(floor)]
                for api, _ in APIS:
                    build_compiler = "python" if api == "mpi4py" else compiler
                    row.append("—" if api in INTO_KEPT else
                               cell_text(one(cells, suite=SUITE, mpi=mpi,
                                             compiler=build_compiler,
                                             variant=f"{api}/{payload}", count=count)))
                if any(v != "—" for v in row[3:]):
                    rows.append(row + ["—"] * len(NOT_SERIALIZING))
                rows += _side_rows(cells, mpi, compiler, payload, count)
    return Table("serialization", "Serialized objects: one message each",
                 ["MPI", "compiler", "payload", "C hand-packed"] + [n for _, n in APIS] +
                 [name for name, _ in NOT_SERIALIZING], rows,
                 "Ratios in parentheses: against the hand-packed C floor of the same process "
                 "(c/ser_*: exact size, one malloc, pack, MPI_Send; MPI_Mprobe, MPI_Get_count, "
                 "malloc, MPI_Mrecv, checked unpack into new strings). mpi4py's floor is the "
                 "same C run through ctypes in the Python process; its row shows the gcc build's "
                 "compiler column. Targets: thinmpi ≤ 1.10× C; ≥ 2× faster than Boost.MPI and "
                 "≥ 5× faster than mpi4py on vector<string> 8×8 and 64×64; std::map<int,"
                 "string> allocates a node per entry, which C's one array of entries does not: "
                 "its row \"as vector<pair>\" receives the same bytes into "
                 "std::vector<std::pair<int, std::string>> (thinmpi/ser_map_flat), the form "
                 "the ≤ 1.10× target judges. The rows \"into a kept one\" decode into the "
                 "value received last time (thinmpi: recv_reuse(serialized(x)); Boost.MPI's "
                 "recv(source, tag, x) always does, so its cells are there), against the C "
                 "that unpacks into its kept payload (c/ser_*_kept: strings copied into the "
                 "chars they have, malloc only when too few). KaMPIng: "
                 "send(send_buf(as_serialized(x))) / recv(recv_buf(as_deserializable<T>())), "
                 "cereal's binary archive. " +
                 " ".join(f"{name}: —, {why}." for name, why in NOT_SERIALIZING))


def _side_rows(cells, mpi, compiler, payload, count):
    """The rows of a payload's other receive forms: their floor, then the APIs that have one."""
    rows = []
    for shape, label, floor, forms in SIDE_FORMS:
        if shape != payload:
            continue
        found = {api: one(cells, suite=SUITE, mpi=mpi, compiler=compiler, variant=variant,
                          count=count) for api, variant in forms.items()}
        if any(found.values()):
            floor_cell = one(cells, suite=SUITE, mpi=mpi, compiler=compiler, variant=floor,
                             count=count)
            rows.append([MPI_NAMES[mpi], compiler, _label(label, count), cell_text(floor_cell)] +
                        [cell_text(found.get(api)) if found.get(api) else "—"
                         for api, _ in APIS] + ["—"] * len(NOT_SERIALIZING))
    return rows


def target_lines(cells):
    """thinmpi's serialization targets, checked on every build that has the cells."""
    lines = []
    for mpi, compiler in builds(cells, SUITE):
        measured = [c for c in find(cells, suite=SUITE, mpi=mpi, compiler=compiler,
                                    api="thinmpi") if c.get("ratio_vs_c")]
        worst = max((c["ratio_vs_c"]["median"] for c in measured
                     if c["variant"] not in NODE_FORMS), default=None)
        speedups = []
        for count in (8, 64):
            for api, goal, build_compiler in (("boost", 2, compiler), ("mpi4py", 5, "python")):
                form = SAME_FORM.get(api)
                mine = one(cells, suite=SUITE, mpi=mpi, compiler=compiler,
                           variant="thinmpi/ser_vecstr" + (f"_{form}" if form else ""),
                           count=count)
                theirs = one(cells, suite=SUITE, mpi=mpi, compiler=build_compiler,
                             variant=f"{api}/ser_vecstr", count=count)
                if mine and theirs:
                    factor = theirs["one_way_us"]["median"] / mine["one_way_us"]["median"]
                    speedups.append(f"{factor:.1f}× faster than {api} at {count}×{count}"
                                    f"{' (both into a kept one)' if form else ''} "
                                    f"({'met' if factor >= goal else 'missed'}, goal {goal}×)")
        if worst is not None:
            clauses = [f"thinmpi serialized is at most {times(worst)} the hand-packed C "
                       f"({'met' if worst <= 1.10 else 'missed'}, goal ≤ 1.10×)"]
            lines.append(f"{MPI_NAMES[mpi]} {compiler}: " +
                         "; ".join(clauses + _node_form_clauses(measured) + speedups) + ".")
    return lines


def _node_form_clauses(measured):
    """What NODE_FORMS' variants measured, each with the cost it carries and what is judged."""
    clauses = []
    for variant, (flat, why) in NODE_FORMS.items():
        ratios = [c["ratio_vs_c"]["median"] for c in measured if c["variant"] == variant]
        if ratios:
            clauses.append(f"{variant} at most {times(max(ratios))}, not judged ({why}, C's "
                           f"floor one array: {flat}, the same bytes into a vector of pairs, is "
                           "judged in its place)")
    return clauses


def draw(cells, out_dir):
    """A bar chart per MPI of each API's ratio to the C floor, per payload; [(title, file)]."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    drawn = []
    for mpi in present(find(cells, suite=SUITE), "mpi", MPI_ORDER):
        labels, series = [], {name: [] for _, name in APIS}
        for payload, label, sizes in SHAPES:
            for count in sizes:
                labels.append(_label(label, count))
                for api, name in APIS:
                    build_compiler = "python" if api == "mpi4py" else "gcc"
                    cell = one(cells, suite=SUITE, mpi=mpi, compiler=build_compiler,
                               variant=f"{api}/{payload}", count=count)
                    ratio = cell.get("ratio_vs_c") if cell else None
                    series[name].append(ratio["median"] if ratio else 0.0)
        figure, axes = plt.subplots(figsize=(10, 4.5))
        width = 0.8 / len(APIS)
        for k, (_, name) in enumerate(APIS):
            axes.bar([i + k * width for i in range(len(labels))], series[name], width,
                     label=name)
        axes.axhline(1.0, color="black", linewidth=0.8)
        axes.set_xticks([i + width for i in range(len(labels))], labels, rotation=20,
                        fontsize=8)
        axes.set_yscale("log")
        axes.set_ylabel("one-way time / hand-packed C (log)")
        axes.set_title(f"Serialized objects, {MPI_NAMES[mpi]} (gcc; mpi4py against C via "
                       "ctypes; Boost.MPI, which decodes into a kept one, against C doing so)")
        axes.legend(fontsize=8)
        figure.tight_layout()
        name = f"serialization_{mpi}.png"
        figure.savefig(out_dir / name, dpi=110)
        plt.close(figure)
        drawn.append((f"Serialized objects, {MPI_NAMES[mpi]}", name))
    return drawn
