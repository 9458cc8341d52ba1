"""The peers: thinmpi beside the other convenient MPI libraries a user would choose instead
(KaMPIng, MPL, Boost.MPI, mpi4py), path by path, each ratio against the C code of that path and
the MPI calls behind it (from the PMPI audit); for every path where thinmpi is not the fastest
convenient library, a line saying why.

The KaMPIng and MPL kernels are bench/kernels/kamping/kamping_*.cpp and
bench/kernels/mpl/mpl_*.cpp, built by bench/cmake/WbPeers.cmake where their sources can be had;
wb_build.json says why not elsewhere.
"""

from ...core import build as build_step
from ...core.path_ratios import SUITE_GROUPS, PathRatio
from ...core.recorded_causes import recorded
from ...core.tables import (COMPILER_ORDER, MPI_NAMES, MPI_ORDER, Table, calls_text, present,
                            size_label, times)
from .peer_ratios import against_spread, claim_within_spread, ranged, time_of, within_spread

APIS = ("kamping", "mpl")
NAMES = {"kamping": "KaMPIng", "mpl": "MPL"}
COLUMNS = (("c", "C"), ("thinmpi", "thinmpi"), ("kamping", "KaMPIng"), ("mpl", "MPL"),
           ("boost", "Boost.MPI"), ("mpi4py", "mpi4py"))
CONVENIENT = tuple(api for api, _ in COLUMNS if api != "c")
NOISE = 1.02  # thinmpi within 2 % of the fastest peer counts as level (docs/bench.md's target)
# The ping-pong paths whose C sends and receives the caller's buffer: thinmpi's code around the
# calls is the same few checks at every size, at most FIXED_PATH_INSTRUCTIONS a message beyond
# C's (docs/bench.md, "Instructions per call": +16 to +46.5). A gap of FIXED_PATH_GAP_US or more
# a message is over 20 times what they take at one instruction a nanosecond: not that code.
FIXED_PATHS_C = ("c/int_buffer", "c/char_buffer")
FIXED_PATH_INSTRUCTIONS, FIXED_PATH_GAP_US = 50, 1.0

# The ping-pong paths: (label, counts, {column: variant}); the C column is the C code of the path.
TINY_PATHS = (
    ("int", (1,), {"c": "c/int_buffer", "thinmpi": "thinmpi/scalar", "kamping": "kamping/int",
                   "mpl": "mpl/int", "boost": "boost/int", "mpi4py": "mpi4py/numpy"}),
    ("bounded vector<int>", (8, 64),
     {"c": "c/int_buffer", "thinmpi": "thinmpi/vector_bounded",
      "kamping": "kamping/vector_bounded", "mpl": "mpl/vector_bounded", "boost": "boost/raw",
      "mpi4py": "mpi4py/numpy"}),
    # A new vector each receive; Boost.MPI has no such form (its recv fills the caller's).
    ("vector<int> of unknown size", (8, 64),
     {"c": "c/mprobe", "thinmpi": "thinmpi/vector_alloc", "kamping": "kamping/vector",
      "mpl": "mpl/vector", "mpi4py": "mpi4py/object"}),
    # Into the caller's vector, kept from receive to receive: resized, so no allocation once
    # it is large enough (Boost.MPI's recv(source, tag, v), thinmpi's recv_reuse).
    ("vector<int> of unknown size, into the caller's", (8, 64),
     {"c": "c/mprobe", "thinmpi": "thinmpi/vector_reuse", "boost": "boost/vector"}),
    ("string of unknown length", (8, 64),
     {"c": "c/char_mprobe", "thinmpi": "thinmpi/string_alloc", "kamping": "kamping/string",
      "mpl": "mpl/string", "boost": "boost/string"}),
    ("chars of known count", (8, 64),
     {"c": "c/char_buffer", "thinmpi": "thinmpi/char_span", "kamping": "kamping/char_buffer",
      "mpl": "mpl/char_buffer"}),
)
# The size sweep's paths (every count the run has): the tiny suite's int paths over the sizes.
SWEEP_PATHS = tuple((label, None, paths) for label, _, paths in TINY_PATHS
                    if paths["c"] in ("c/int_buffer", "c/mprobe") and label != "int")
# The OSU sweep's path: MPI_CHAR of known count (osu_latency's), 1 B to 4 MiB.
OSU_PATHS = tuple((label, None, paths) for label, _, paths in TINY_PATHS
                  if label == "chars of known count")
# The serialization suite's objects (MPL has none: serial_suite.NOT_SERIALIZING): a new object
# each receive, and into the caller's object kept from receive to receive (Boost.MPI's
# recv(source, tag, x) always decodes into x; thinmpi's recv_reuse(serialized(x)); C unpacking
# into its kept payload).
SERIAL_PATHS = tuple(
    path for payload, label in (("ser_vecstr", "vector<string>"), ("ser_map", "map<int,string>"),
                                ("ser_record", "struct{string, vector<double>}"))
    for path in (
        (label, None, {api: f"{api}/{payload}" for api in ("c", "thinmpi", "kamping",
                                                           "mpi4py")}),
        (f"{label}, into the caller's", None,
         {"c": f"c/{payload}_kept", "thinmpi": f"thinmpi/{payload}_reuse",
          "boost": f"boost/{payload}"})))
# The collectives paths (2 ranks): (label, {column: variant}).
COLL_PATHS = (
    ("bcast", {"c": "c/bcast/builtin", "thinmpi": "thinmpi/bcast/vector",
               "kamping": "kamping/bcast/vector", "mpl": "mpl/bcast/layout",
               "boost": "boost/bcast/broadcast", "mpi4py": "mpi4py/bcast/buffer"}),
    ("allreduce, plus", {"c": "c/allreduce/sum", "thinmpi": "thinmpi/allreduce/plus",
                         "kamping": "kamping/allreduce/plus", "mpl": "mpl/allreduce/plus",
                         "boost": "boost/allreduce/plus", "mpi4py": "mpi4py/allreduce/buffer"}),
    ("allreduce, lambda", {"c": "c/allreduce/user_fn_noncommute",
                           "thinmpi": "thinmpi/allreduce/lambda",
                           "kamping": "kamping/allreduce/lambda", "mpl": "mpl/allreduce/lambda",
                           "boost": "boost/allreduce/lambda",
                           "mpi4py": "mpi4py/allreduce/user_op"}),
    ("allgatherv, counts by the library", {
        "c": "c/allgatherv/counts_exchanged", "thinmpi": "thinmpi/allgatherv/counts_exchanged",
        "kamping": "kamping/allgatherv/counts_exchanged",
        "mpl": "mpl/allgatherv/counts_exchanged"}),
    ("alltoallv, counts by the library", {
        "c": "c/alltoallv/counts_exchanged", "thinmpi": "thinmpi/alltoallv/counts_exchanged",
        "kamping": "kamping/alltoallv/counts_exchanged",
        "mpl": "mpl/alltoallv/counts_exchanged"}),
)
COLL_RANKS = 2


def note_missing(setup, api_filter=None):
    """Files the peers that a harness build lacks under the run's missing cells, with the reason
    its wb_build.json gives (WbPeers.cmake); only the peers that --api keeps."""
    for (mpi, compiler), manifest in setup.manifests.items():
        for api in (a for a in APIS if api_filter is None or a in api_filter):
            if api in setup.left_out.get((mpi, compiler), ()):
                continue  # its kernels did not compile: a failure already (build.py)
            if api not in manifest:
                setup.miss(mpi, compiler, api, "this build predates the peers' kernels "
                           "(rebuild the kernels)")
            elif not manifest[api]:  # a peer that does not compile is a failure (build.py)
                why = build_step.file_unbuilt(setup.failures, mpi, compiler, f"{api} kernels",
                                              manifest.get(f"{api}_missing_reason") or
                                              "not built")
                if why:
                    setup.miss(mpi, compiler, api, why)
            elif api == "kamping" and manifest.get("kamping_serial") is False:
                setup.miss(mpi, compiler, "kamping (serialization)",
                           manifest.get("kamping_serial_missing_reason") or "not built")


def _short_calls(calls):
    return calls_text(calls).replace("MPI_", "") if calls else "not audited"


def _cell_text(ratio, calls, marked=False):
    """'1.36× (1.20-1.52)† (1 Send + 1 Recv)': the median over processes, their lowest and
    highest (where there are two or more), † where the claim is within that spread, the calls."""
    if ratio is None:
        return "—"
    lowest_highest = f" ({ratio['min']:.2f}-{ratio['max']:.2f})" if ranged(ratio) else ""
    return f"{times(ratio['median'])}{lowest_highest}{'†' if marked else ''} " \
        f"({_short_calls(calls)})"


def _tiny_lookup(cells, mpi, compiler, count, suite="tiny"):
    """Variant -> cell of `suite` at (mpi, compiler or mpi4py's python, count)."""
    index = {}
    for cell in cells:
        if cell["suite"] == suite and cell["mpi"] == mpi and cell["count"] == count and \
                cell["compiler"] in (compiler, "python"):
            if cell["compiler"] == compiler or cell["variant"] not in index:
                index[cell["variant"]] = cell
    return index


def _coll_lookup(coll_cells, coll_audit, mpi, compiler, count):
    cells = {c["variant"]: c for c in coll_cells
             if c["mpi"] == mpi and c["ranks"] == COLL_RANKS and c["count"] == count and
             c["compiler"] in (compiler, "python")}
    calls = {a["variant"]: a["calls"] for a in coll_audit
             if a["mpi"] == mpi and a["ranks"] == COLL_RANKS and
             a["compiler"] in (compiler, "python")}
    return cells, calls


def _row(label, paths, cells, calls, python_cells=None):
    """One table row and the measured values behind it: {column: (ratio, calls, cell, ratio's
    spread over processes)}."""
    c_cell = cells.get(paths["c"])
    if not c_cell:
        return None, {}
    values = {}
    for api, _ in COLUMNS[1:]:
        variant = paths.get(api)
        cell = cells.get(variant) if variant else None
        lookup = cells.get
        if cell and python_cells is not None and cell["compiler"] == "python":
            lookup = python_cells.get  # mpi4py's baselines ran in its own processes
        ratio = against_spread(cell, c_cell, lookup)
        values[api] = (ratio["median"] if ratio else None, calls.get(variant), cell, ratio)
    time = time_of(c_cell)
    row = [label, f"{time:.3f} µs ({_short_calls(calls.get(paths['c']))})" if time else "—"]
    thin = values["thinmpi"][3]
    row += [_cell_text(values[api][3], values[api][1],
                       claim_within_spread(api, values[api][3], thin))
            for api, _ in COLUMNS[1:]]
    return row, values


def _trade_off(thin_calls, peer_calls):
    """What thinmpi's calls buy over the peer's, where the audit shows a known difference."""
    if "MPI_Mprobe" in thin_calls and "MPI_Probe" in peer_calls:
        return (" (MPI_Probe + MPI_Recv can receive another thread's message between the two "
                "calls; the matched probe cannot, so thinmpi keeps it while several threads "
                "may receive on one communicator)")
    return ""


def _within(calls, other):
    """Whether every call of `calls` is made at most as often in `other` (no call of its own)."""
    return all(other.get(name, 0) >= n - 1e-9 for name, n in calls.items())


def _larger_than_the_code(thin_ratio, best_ratio, c_time, fixed):
    """'the gap, 9.1 µs a message, ...' where a fixed path's gap outgrows thinmpi's code."""
    gap = (thin_ratio - best_ratio) * c_time if fixed and c_time else 0.0
    if gap < FIXED_PATH_GAP_US:
        return None
    times_the_code = FIXED_PATH_GAP_US * 1000 / FIXED_PATH_INSTRUCTIONS  # at 1 instruction a ns
    return (f"the gap, {gap:.1f} µs a message, is over {times_the_code:.0f} times what thinmpi "
            f"runs around the calls on this path (at most {FIXED_PATH_INSTRUCTIONS} "
            "instructions a message, the same at every size: docs/bench.md, Instructions per "
            "call), so it is not thinmpi's code but where the buffers lay or how the machine ran "
            "in those processes")


OWN_CODE = ("so the gap is the wrappers' own code around them; count instructions per call "
            "(--instructions) to find it")


def why_line(where, values, c_time=None, fixed=False, at=None, rechecks=None, cases=None):
    """A line saying why thinmpi is not the fastest convenient library here, or None. c_time:
    the path's C time (µs a message); fixed: the path sends and receives the caller's buffer
    (FIXED_PATHS_C). at: the row's (suite, mpi, compiler, the path's C variant), where the row
    is one of the tables': a line whose gap the run names no cause for is then appended to
    `cases` (a list, or None; unexplained_cases) and shows its re-timing where the run made one
    (`rechecks`: {_case_key: results.json peer_rechecks row}; core/recheck.py, run_peers)."""
    found = _explained(where, values, c_time, fixed)
    if not isinstance(found, tuple):
        return found
    head, calls, best = found
    case = _case(*at, values, best) if at else None
    if case and cases is not None:
        cases.append(case)
    retimed = (rechecks or {}).get(_case_key(case)) if case else None
    return _unexplained(head, calls, dict(COLUMNS)[best], retimed)


def _overlap(ratio, other):
    """Whether two re-timed spreads' ranges overlap."""
    return ratio["min"] <= other["max"] and other["min"] <= ratio["max"]


def _unexplained(head, calls, name, retimed):
    """The line of a gap the run names no cause for, with what timing it again gave: "not
    reproduced" where thinmpi is then within the noise of the peer (2 %, or their ranges over
    the new processes overlap)."""
    if not retimed:
        return f"{head}: {calls}, {OWN_CODE}."
    if not retimed.get("thinmpi_ratio"):
        return f"{head}: {calls}, {OWN_CODE} (not timed again: {retimed['why']})."
    thin, peer = retimed["thinmpi_ratio"], retimed["peer_ratio"]
    again = (f"timed again alone with C in {retimed['processes']} more processes, thinmpi "
             f"{times(thin['median'])} against {name}'s {times(peer['median'])}")
    if thin["median"] <= peer["median"] * NOISE or _overlap(thin, peer):
        return f"{head}: {calls}; not reproduced: {again}."
    return f"{head}: {calls}; {again}: {OWN_CODE}."


def _explained(where, values, c_time, fixed):
    """why_line's named causes: None (thinmpi is the fastest, or nothing to compare), the line
    of a named cause, or (head, calls, the fastest peer's api) where the run names none."""
    measured = {api: v for api, v in values.items() if v[0] is not None}
    if "thinmpi" not in measured or len(measured) < 2:
        return None
    best = min(measured, key=lambda api: measured[api][0])
    thin_ratio, thin_calls = measured["thinmpi"][:2]
    if best == "thinmpi":
        return None
    best_ratio, best_calls = measured[best][:2]
    name = dict(COLUMNS)[best]
    head = f"{where}: {name} {times(best_ratio)} against thinmpi's {times(thin_ratio)}"
    cell = measured[best][2] if len(measured[best]) > 2 else None
    cause = cell and recorded(cell.get("variant", ""), cell.get("mpi"), cell.get("bytes"))
    if cause:
        return f"{head}: {cause}."
    calls_known = thin_calls is not None and best_calls is not None
    if calls_known and _short_calls(thin_calls) != _short_calls(best_calls) and \
            not _within(thin_calls, best_calls):
        return (f"{head}. The calls differ: thinmpi {_short_calls(thin_calls)}, {name} "
                f"{_short_calls(best_calls)}; to match it thinmpi would make {name}'s calls "
                "on this path" + _trade_off(thin_calls, best_calls) + ".")
    calls = f"the same MPI calls ({_short_calls(thin_calls)})" if calls_known and \
        _short_calls(thin_calls) == _short_calls(best_calls) else \
        f"thinmpi makes no more MPI calls ({_short_calls(thin_calls)}; {name}: " \
        f"{_short_calls(best_calls)})"
    spreads = [v[3] if len(v) > 3 else None for v in (measured["thinmpi"], measured[best])]
    if thin_ratio <= best_ratio * NOISE or within_spread(*spreads):
        return f"{head}: {calls}, and the two are within the noise (2 %, or their ranges " \
            "over processes overlap)."
    larger = _larger_than_the_code(thin_ratio, best_ratio, c_time, fixed)
    if larger:
        return f"{head}: {calls}; {larger}."
    return head, calls, best


def _case(suite, mpi, compiler, c_variant, values, best):
    """A peers-table line to time again (core/recheck.py, run_peers): the suite, build and size,
    the path's C and the two variants; None where the two are not both measured against that C
    in the same processes (mpi4py's run in its own, a row whose cell chains through another
    baseline)."""
    thin, peer = values["thinmpi"][2], values[best][2]
    if not thin or not peer or peer.get("compiler") == "python" or \
            thin.get("baseline") != c_variant or peer.get("baseline") != c_variant:
        return None
    return {"suite": suite, "mpi": mpi, "compiler": compiler, "ranks": thin.get("ranks") or 2,
            "bytes": thin.get("bytes"), "c": c_variant, "thinmpi": thin["variant"],
            "peer": peer["variant"]}


def _case_key(case):
    return (case["suite"], case["mpi"], case["compiler"], case["bytes"], case["thinmpi"],
            case["peer"])


# The libraries a (MPI, compiler) group of the C++ builds has; a group without one (the Go
# harness's, OSU's) has no row: mpi4py's cells join the C++ builds' rows.
CXX_APIS = ("thinmpi", "kamping", "mpl", "boost")


def _groups(cells):
    keys = {(c["mpi"], c["compiler"]) for c in cells if c.get("api") in CXX_APIS}
    return [(m, k) for m in present([{"m": m} for m, _ in keys], "m", MPI_ORDER)
            for k in present([{"k": k} for _, k in keys], "k", COMPILER_ORDER) if (m, k) in keys]


def _size_text(suite, count, paths, cells):
    """A row's size: the count for the tiny suite and the serialization's objects, else the
    message's bytes (the sweep's ints, the OSU sweep's chars)."""
    if suite in ("tiny", "serialization"):
        return str(count)
    cell = next((c for c in cells if c["variant"] == paths["c"] and c["count"] == count), None)
    return size_label(cell["bytes"] if cell else count)


def _add_ratios(found, suite, label, mpi, compiler, values):
    """Appends to `found` (unless None) a PathRatio for each library measured in a row."""
    if found is None:
        return
    found += [PathRatio(SUITE_GROUPS[suite], label, api, cell["variant"], mpi, compiler,
                        cell.get("bytes", 0), ratio)
              for api, (ratio, _, cell, *_) in values.items() if ratio is not None]


def tiny_rows(cells, audit_rows, suite="tiny", suite_paths=TINY_PATHS, ratios=None,
              rechecks=None, cases=None):
    """(rows, why lines) of the ping-pong paths of `suite`: one row per path, count, MPI and
    compiler (a path's counts None: every count the run has for its C cell); each ratio a row
    shows is also appended to `ratios` (a list, or None) as a PathRatio; rechecks and cases as
    why_line's."""
    peers_built = [c for c in cells if c["suite"] == suite]
    rows, lines = [], []
    for mpi, compiler in _groups(peers_built):
        calls = {a["variant"]: a["calls"] for a in audit_rows
                 if a["mpi"] == mpi and a["compiler"] in (compiler, "python")}
        for label, counts, paths in suite_paths:
            mine = [c for c in peers_built if c["mpi"] == mpi and c["compiler"] == compiler]
            for count in counts or sorted({c["count"] for c in mine
                                           if c["variant"] == paths["c"]}):
                index = _tiny_lookup(cells, mpi, compiler, count, suite)
                python = _python_cells(cells, mpi, count, suite)
                size = _size_text(suite, count, paths, mine)
                where = f"{MPI_NAMES.get(mpi, mpi)} {compiler}, {label} ({size})"
                row, values = _row(f"{label} ({size})", paths, index, calls, python)
                # Beyond the tiny suite, a row only where a peer of thinmpi's ran (the suite's
                # own tables show the others).
                if row and (suite == "tiny" or any(values[api][0] is not None
                                                   for api in CONVENIENT if api != "thinmpi")):
                    rows.append([MPI_NAMES.get(mpi, mpi), compiler] + row)
                    lines.append(why_line(where, values, time_of(index.get(paths["c"])),
                                          paths["c"] in FIXED_PATHS_C,
                                          (suite, mpi, compiler, paths["c"]), rechecks, cases))
                    _add_ratios(ratios, suite, label, mpi, compiler, values)
    return rows, [line for line in lines if line]


def _python_cells(cells, mpi, count, suite="tiny"):
    return {c["variant"]: c for c in cells if c["suite"] == suite and c["mpi"] == mpi and
            c["count"] == count and c["compiler"] == "python"}


def coll_rows(collectives, count=1, ratios=None, rechecks=None, cases=None):
    """(rows, why lines) of the collectives paths at `count` ints per rank, 2 ranks; each ratio
    a row shows is also appended to `ratios` (a list, or None) as a PathRatio; rechecks and
    cases as why_line's."""
    coll_cells, coll_audit = collectives.get("cells", []), collectives.get("audit", [])
    rows, lines = [], []
    for mpi, compiler in _groups(coll_cells):
        cells, calls = _coll_lookup(coll_cells, coll_audit, mpi, compiler, count)
        for label, paths in COLL_PATHS:
            row, values = _row(label, paths, cells, calls)
            if row:
                rows.append([MPI_NAMES.get(mpi, mpi), compiler] + row)
                lines.append(why_line(f"{MPI_NAMES.get(mpi, mpi)} {compiler}, {label} "
                                      f"({count * 4} B)", values,
                                      at=("collectives", mpi, compiler, paths["c"]),
                                      rechecks=rechecks, cases=cases))
                _add_ratios(ratios, "collectives", label, mpi, compiler, values)
    return rows, [line for line in lines if line]


# The other ping-pong suites' tables: (key, title, suite, paths); rows only where a peer ran.
PING_PONG_SUITES = (
    ("peers_sweep", "Size sweep (ints): ratio against C, and the calls behind it", "sweep",
     SWEEP_PATHS),
    ("peers_osu", "OSU sweep (MPI_CHAR, known count): ratio against C, and the calls behind it",
     "osu", OSU_PATHS),
    ("peers_serialization", "Serialized objects: ratio against hand-packed C, and the calls "
     "behind it (MPL has no general serialization)", "serialization", SERIAL_PATHS),
)
HEADERS = ["MPI", "compiler", "path"] + [name for _, name in COLUMNS]
SPREAD_NOTE = ("A ratio is the median over the cell's processes (each runs C and the libraries "
               "in interleaved blocks), then its lowest-highest process (none for one process). "
               "†: the difference the cell claims is within that spread: thinmpi's range holds "
               "1.00× (C), or a peer's range overlaps thinmpi's.")
NOTE = ("Each library's cell: its time against the C code of the path (the C column, with its "
        "time), taken in the same processes, and its MPI calls per one-way message (per call "
        "and rank for collectives) from the PMPI audit. Each library is written as its own "
        "docs and examples write it (bench/kernels/<library>/: kamping_*.cpp, mpl_*.cpp, "
        "boost_*.cpp). "
        "mpi4py's allgatherv/alltoallv give the counts, so they are not in the rows where the "
        "library computes them. " + SPREAD_NOTE)


def _every_table(doc, **collect):
    """Walks every peers table of `doc` (the tiny suite's, PING_PONG_SUITES', the collectives')
    for what `collect` gathers: tiny_rows' and coll_rows' `ratios` or `cases` lists."""
    cells, audit_rows = doc.get("cells", []), doc.get("audit", [])
    tiny_rows(cells, audit_rows, **collect)
    for _, _, suite, paths in PING_PONG_SUITES:
        tiny_rows(cells, audit_rows, suite, paths, **collect)
    if "collectives" in doc:
        coll_rows(doc["collectives"], **collect)


def path_ratios(doc):
    """Every ratio the peers tables show, as PathRatios (the report's first screen)."""
    found = []
    _every_table(doc, ratios=found)
    return found


def unexplained_cases(doc):
    """The lines of the peers tables where a peer is ahead of thinmpi and the run names no cause,
    as cases for core/recheck.py's run_peers (_case), in the tables' order."""
    cases = []
    _every_table(doc, cases=cases)
    return cases


def section(doc, section_type):
    """The report's "thinmpi and its peers" section (report.py lists it)."""
    cells, audit_rows = doc.get("cells", []), doc.get("audit", [])
    rechecks = {_case_key(row): row for row in doc.get("peer_rechecks") or []}
    tiny, tiny_why = tiny_rows(cells, audit_rows, rechecks=rechecks)
    ping_pong = [(key, title, *tiny_rows(cells, audit_rows, suite, paths, rechecks=rechecks))
                 for key, title, suite, paths in PING_PONG_SUITES]
    coll, coll_why = coll_rows(doc.get("collectives", {}), rechecks=rechecks) \
        if "collectives" in doc else ([], [])
    if not tiny and not coll and not any(rows for _, _, rows, _ in ping_pong):
        return None
    tables = [Table("peers_tiny", "Ping-pong paths: ratio against C, and the calls behind it",
                    HEADERS, tiny, NOTE)]
    tables += [Table(key, title, HEADERS, rows, NOTE) for key, title, rows, _ in ping_pong]
    tables.append(Table("peers_collectives",
                        f"Collectives ({COLL_RANKS} ranks, 4 B per rank): ratio against C, and "
                        "the calls behind it", HEADERS, coll, NOTE))
    why = tiny_why + [line for _, _, _, lines in ping_pong for line in lines] + coll_why
    paragraphs = ["Where thinmpi is not the fastest convenient library:"] + \
        [f"- {line}" for line in why] if why else \
        ["thinmpi is the fastest convenient library on every path measured here."]
    return section_type("thinmpi and its peers (KaMPIng, MPL, Boost.MPI, mpi4py)", paragraphs,
                        [t for t in tables if t.rows])
