"""The article's six conclusions ("What Actually Mattered"), restated with this machine's
figures, each marked holds / does not hold here, and contradicted by the path audit where the
call counts say the article's explanation is not what happens on this machine."""

import statistics

from ...core.compare import find, median_of
from ...core.tables import MPI_NAMES, present

HOLDS, FAILS, PARTLY, UNKNOWN = "holds", "does not hold here", "partly holds", "not measured here"


def _conclusion(number, claim, verdict, evidence):
    return {"number": number, "claim": claim, "verdict": verdict, "evidence": evidence}


def _floor(cells, mpi, count, compiler="gcc"):
    return median_of(cells, suite="tiny", mpi=mpi, compiler=compiler, variant="c/int_buffer",
                     count=count)


def mpi_sets_floor(cells):
    """1: the C floor differs between MPI implementations."""
    mpis = present(find(cells, suite="tiny", variant="c/int_buffer"), "mpi", ("openmpi",
                                                                             "mpich"))
    claim = "MPI implementation set the floor."
    if len(mpis) < 2:
        return _conclusion(1, claim, UNKNOWN, "Only one MPI implementation was measured.")
    floors = {n: [_floor(cells, m, n) for m in mpis] for n in (1, 8, 64)}
    spreads = {n: max(v) / min(v) - 1 for n, v in floors.items() if all(v)}
    figures = "; ".join(f"{n} int(s): " + ", ".join(f"{MPI_NAMES[m]} {v:.3f} µs" for m, v in
                                                      zip(mpis, floors[n])) for n in spreads)
    verdict = HOLDS if spreads and max(spreads.values()) > 0.05 else FAILS
    return _conclusion(1, claim, verdict, f"C floor (gcc): {figures}; the implementations "
                       f"differ by up to {100 * max(spreads.values(), default=0):.0f}%.")


def compiler_barely_matters(cells):
    """2: GCC and Clang give the same times, cell by cell."""
    claim = "Compiler barely mattered."
    gaps = []
    for cell in find(cells, suite="tiny", compiler="gcc"):
        twin = find(cells, suite="tiny", compiler="clang", mpi=cell["mpi"],
                    variant=cell["variant"], count=cell["count"])
        if twin and cell["api"] in ("c", "boost", "thinmpi"):
            gap = twin[0]["one_way_us"]["median"] / cell["one_way_us"]["median"] - 1
            gaps.append((abs(gap), gap, cell))
    if not gaps:
        return _conclusion(2, claim, UNKNOWN, "GCC and Clang were not both measured.")
    _, gap, worst = max(gaps, key=lambda g: g[0])
    typical = statistics.median(g[0] for g in gaps)
    noise = process_noise(cells)
    verdict = HOLDS if typical <= max(0.05, noise) else FAILS
    return _conclusion(2, claim, verdict, f"Clang vs GCC over {len(gaps)} tiny cells: median "
                       f"gap {100 * typical:.1f}% (the median process-to-process spread of a "
                       f"cell is {100 * noise:.1f}%), largest {100 * gap:+.1f}% "
                       f"({worst['variant']}[{worst['count']}], {MPI_NAMES[worst['mpi']]}).")


def process_noise(cells):
    """The median over cells of (slowest process / fastest process - 1): this machine's noise."""
    spreads = [c["one_way_us"]["max"] / c["one_way_us"]["min"] - 1 for c in cells
               if c["reps"] > 1 and c["one_way_us"]["min"] > 0]
    return statistics.median(spreads) if spreads else 0.0


def boost_scalar_close(cells):
    """3: boost/int costs what c/int_buffer costs."""
    claim = "Boost.MPI scalar sends were close to C MPI (2-6% overhead)."
    scalar = [c for c in find(cells, suite="tiny", variant="boost/int") if c["ratio_vs_c"]]
    if not scalar:
        return _conclusion(3, claim, UNKNOWN, "No Boost.MPI cells were measured.")
    ratios = [c["ratio_vs_c"]["median"] for c in scalar]
    verdict = HOLDS if max(ratios) <= 1.10 else FAILS
    figures = ", ".join(f"{MPI_NAMES[c['mpi']]} {c['compiler']} {r:.2f}×"
                        for c, r in zip(scalar, ratios))
    return _conclusion(3, claim, verdict, f"boost/int against c/int_buffer: {figures}.")


def _audit_calls(audit_rows, variant):
    """The calls per message of `variant` on each MPI (gcc build preferred)."""
    rows = {}
    for row in find(audit_rows, variant=variant):
        if row["mpi"] not in rows or row["compiler"] == "gcc":
            rows[row["mpi"]] = row["calls"]
    return rows


def _vector_explanation(audit_rows):
    """What the audit says of the article's 'size message, then data' for send(vector)."""
    calls = _audit_calls(audit_rows, "boost/vector")
    if not calls:
        return None, "The path audit did not run for boost/vector."
    size_message = any(c.get("MPI_Send", 0) > 1.5 for c in calls.values())
    if size_message:
        return True, "The audit confirms a size message: " + "; ".join(
            f"{MPI_NAMES[m]}: {c.get('MPI_Send', 0):g} MPI_Send per message"
            for m, c in calls.items())
    counts = "; ".join(f"{MPI_NAMES[m]}: " + ", ".join(f"{n:g} {k}" for k, n in c.items()
                                                         if n >= 0.05) for m, c in calls.items())
    return False, ("The path audit contradicts the article's explanation: there is no size "
                   f"message on this Boost. Per one-way message: {counts}. send(vector) is one "
                   "MPI_Send; the receiver, not knowing the length, pays a matched probe "
                   "(MPI_Mprobe + MPI_Get_count + MPI_Mrecv) - the same path as c/mprobe.")


def containers_cost(cells, audit_rows):
    """4: vector and string cost more, and why (from the audit)."""
    claim = ("Container convenience introduced fixed cost: std::vector<int> sends shape plus "
             "data; std::string goes through the packed archive path.")
    vectors = [c for c in find(cells, suite="tiny", variant="boost/vector", count=1)
               if c["ratio_vs_c"]]
    if not vectors:
        return _conclusion(4, claim, UNKNOWN, "No Boost.MPI vector cells were measured.")
    ratios = ", ".join(f"{MPI_NAMES[c['mpi']]} {c['compiler']} {c['ratio_vs_c']['median']:.2f}×"
                       for c in vectors)
    mprobe = [c["ratio_vs_c"]["median"] for c in find(cells, suite="tiny", variant="c/mprobe",
                                                      count=1) if c["ratio_vs_c"]]
    strings = _audit_calls(audit_rows, "boost/string")
    string_text = "; ".join(f"{MPI_NAMES[m]}: " + ", ".join(
        f"{n:g} {k}" for k, n in c.items() if n >= 0.05) for m, c in strings.items())
    confirmed, explanation = _vector_explanation(audit_rows)
    costly = statistics.median(c["ratio_vs_c"]["median"] for c in vectors) > 1.05
    verdict = HOLDS if costly and confirmed else PARTLY if costly else FAILS
    evidence = (f"boost/vector[1] against c/int_buffer: {ratios}. C's own unknown-size receive "
                f"(c/mprobe[1]) costs {', '.join(f'{r:.2f}×' for r in mprobe) or 'n/a'}. "
                f"{explanation} boost/string per message: {string_text or 'not audited'}.")
    return _conclusion(4, claim, verdict, evidence)


def mpi4py_two_worlds(cells):
    """5: mpi4py objects cost far more than NumPy buffers."""
    claim = "mpi4py buffer mode and object mode are different worlds."
    rows = []
    for cell in find(cells, suite="tiny", variant="mpi4py/object", count=64):
        numpy = median_of(cells, suite="tiny", mpi=cell["mpi"], compiler="python",
                          variant="mpi4py/numpy", count=64)
        if numpy:
            rows.append((cell, cell["one_way_us"]["median"] / numpy))
    if not rows:
        return _conclusion(5, claim, UNKNOWN, "mpi4py was not measured.")
    verdict = HOLDS if all(r > 1.5 for _, r in rows) else FAILS
    figures = "; ".join(f"{MPI_NAMES[c['mpi']]}: object {c['one_way_us']['median']:.2f} µs = "
                        f"{r:.1f}× the NumPy buffer, {c['ratio_vs_c']['median']:.1f}× C"
                        for c, r in rows if c["ratio_vs_c"])
    return _conclusion(5, claim, verdict, f"64 ints: {figures}.")


def big_buffers_converge(cells):
    """6: at 1 MiB the wrappers' ratios come close to 1."""
    claim = "The larger the buffer, the less the wrapper mattered."
    pairs = []
    for variant in ("boost/vector", "mpi4py/numpy"):
        for cell in find(cells, suite="sweep", variant=variant, bytes=1048576):
            small = find(cells, suite="sweep", variant=variant, bytes=4, mpi=cell["mpi"],
                         compiler=cell["compiler"])
            if small and small[0]["ratio_vs_c"] and cell["ratio_vs_c"]:
                pairs.append((cell, small[0]["ratio_vs_c"]["median"],
                              cell["ratio_vs_c"]["median"]))
    if not pairs:
        return _conclusion(6, claim, UNKNOWN, "The size sweep did not reach 1 MiB.")
    small_gap = statistics.median(abs(small - 1) for _, small, _ in pairs)
    big_gap = statistics.median(abs(big - 1) for _, _, big in pairs)
    verdict = HOLDS if big_gap < small_gap or big_gap <= 0.05 else FAILS
    figures = "; ".join(f"{c['variant']} {MPI_NAMES[c['mpi']]} {c['compiler']}: {s:.2f}× at "
                        f"4 B, {b:.2f}× at 1 MiB" for c, s, b in pairs)
    return _conclusion(6, claim, verdict, f"Median distance from C: {100 * small_gap:.0f}% at "
                       f"4 B, {100 * big_gap:.0f}% at 1 MiB. {figures}.")


def conclusions(cells, audit_rows):
    """The six conclusions, in the article's order."""
    return [mpi_sets_floor(cells), compiler_barely_matters(cells), boost_scalar_close(cells),
            containers_cost(cells, audit_rows), mpi4py_two_worlds(cells),
            big_buffers_converge(cells)]


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
