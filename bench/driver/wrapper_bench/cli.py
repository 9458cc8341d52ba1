"""python3 -m wrapper_bench [--full] [--mpi ..] [--compiler ..] [--api ..] [--sizes ..]

Builds the kernels of every preset this machine has, runs the matrix (quick by default, the
article's counts with --full), and writes bench-results/<timestamp>/ (results.json, results.csv,
report.md, report.html, PNG charts) with a `latest` link next to it.
"""

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from . import below_c, first_screen_chart, matrix, rooms
from .core import audit, compare, detect, placement, recheck, schema
from .core.timing import Clock
from .core.runner import ROOT_ENV, Progress, estimated_seconds, launch
from .core.jobs import with_baselines
from .core.session import Setup, add_harness, add_mpi4py
from .render_html import render_html
from .render_md import render_md

REPO = Path(__file__).resolve().parents[3]
KERNEL = REPO / "bench" / "kernels" / "mpi4py" / "mpi4py_kernel.py"
SMOKE_SIZES = (4, 4096)


def _list(text):
    return tuple(part for part in text.split(",") if part) if text else None


def _pairs(values):
    """['mpich=/opt/x'] -> {'mpich': '/opt/x'}."""
    return dict(value.split("=", 1) for value in values or [])


def parse(argv):
    """The driver's options (see docs/bench.md)."""
    parser = argparse.ArgumentParser(prog="wrapper_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the article's round-trip counts")
    parser.add_argument("--smoke", action="store_true", help="a tiny matrix, seconds long")
    parser.add_argument("--mpi", type=_list, help="openmpi,mpich")
    parser.add_argument("--compiler", type=_list, help="gcc,clang")
    parser.add_argument("--api", type=_list, help=",".join(matrix.APIS) + " (C always runs)")
    parser.add_argument("--sizes", type=lambda t: tuple(int(s) for s in t.split(",")),
                        help="sweep sizes in bytes (default 4,32,256,4096,65536,1048576)")
    parser.add_argument("--suites", type=_list, default=matrix.SUITES, help=",".join(matrix.SUITES))
    parser.add_argument("--out", default=str(REPO / "bench-results"))
    parser.add_argument("--build-prefix", default=str(REPO / "build" / "bench-"))
    parser.add_argument("--no-build", action="store_true", help="use the builds already there")
    parser.add_argument("--python-for", action="append", metavar="MPI=PYTHON",
                        help="an interpreter whose mpi4py links MPI (checked with ldd)")
    parser.add_argument("--boost-for", action="append", metavar="MPI=LIBRARY",
                        help="a libboost_mpi built against MPI (checked with ldd)")
    parser.add_argument("--osu-dir", action="append", metavar="[MPI=]DIR",
                        help="OSU micro-benchmarks whose osu_latency runs beside the OSU sweep "
                        "(default: osu_latency on PATH)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions and allocations per call under callgrind "
                        "(tiny, sweep, collectives) on every compiler's builds (the default "
                        "run counts the gcc builds; the smoke run none)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a cell failed")
    parser.add_argument("--ranks", type=lambda t: tuple(int(r) for r in t.split(",")),
                        help="rank counts of the collectives and neighbors suites, e.g. 2,4 "
                        "(default: those within the machine's cores; --full: 2,4)")
    parser.add_argument("--render", metavar="DIR",
                        help="only recompute and rewrite the reports of a results folder")
    for room in rooms.ROOMS:
        room.add_options(parser)
    options = parser.parse_args(argv)
    for room in rooms.ROOMS:
        problem = room.check_options(options, options.suites is not matrix.SUITES, matrix.SUITES)
        if problem:
            parser.error(problem)
    options.python_for, options.boost_for = _pairs(options.python_for), _pairs(options.boost_for)
    if options.smoke and options.sizes is None:
        options.sizes = SMOKE_SIZES
    return options


def prepare(options, clock):
    """Builds the presets, finds the mpi4py interpreters that the filters keep, then lets every
    room add its own builds (Go, OSU) and missing cells (the peers); `clock` times each."""
    setup = Setup()
    presets = [(m, k) for m, k in detect.installed_presets()
               if (options.mpi is None or m in options.mpi)
               and (options.compiler is None or k in options.compiler)]
    for mpi, compiler in presets:
        print(f"wrapper-bench: building {mpi}-{compiler}", file=sys.stderr)
        with clock.phase("build", f"{mpi}-{compiler} kernels"
                         + (" (--no-build: found)" if options.no_build else "")):
            add_harness(setup, REPO, mpi, compiler, options)
    if options.api is None or "mpi4py" in options.api:
        for mpi in dict.fromkeys(m for m, _ in presets):
            interpreters = [(p, None) for m, p in options.python_for.items() if m == mpi]
            with clock.phase("build", "mpi4py interpreters (found)"):
                add_mpi4py(setup, REPO, mpi, interpreters + [("/usr/bin/python3", None)],
                           KERNEL)
    for room in rooms.ROOMS:
        with clock.phase("build", f"the {room.name} room's setup"):
            room.prepare(setup, options, presets, REPO)
    clock.rows = [r for r in clock.rows if r["seconds"] >= 0.5 or "kernels" in r["what"]]
    return setup


def check_bindings(setup):
    """Binds ranks to cores wherever the launcher can; records it, and where the timed
    launches' buffers lie, in the context."""
    for launcher in setup.launchers.values():
        key = launcher.mpi
        if key not in setup.context["binding"]:
            env = dict(os.environ, **ROOT_ENV)
            bound = detect.check_binding(launcher.mpi, launcher.mpiexec, env)
            setup.context["binding"][key] = "core" if bound else "none (the launcher refused)"
        launcher.bind = setup.context["binding"][key] == "core"
        if launcher.audit_library:
            setup.context.setdefault("placement", {}).setdefault(
                key, placement.description(launcher.audit_library))


def pin_openmpi_pml(setup, options):
    """Every Open MPI launch asks each PML whether it has a network before taking the one it
    takes anyway on one machine (0.2 s of a 0.45 s launch here, hundreds of launches a run): on
    a one-host run the PML Open MPI picks on its own is found once, by a short 2-rank launch of
    the harness with pml_base_verbose, and named to every launch (OMPI_MCA_pml), which selects
    the same PML without the asking. Not across hosts (each host's pick is its own), nor where
    the user named a PML; recorded in the context either way."""
    launcher = next((l for (mpi, kind), l in setup.launchers.items()
                     if mpi == "openmpi" and kind in detect.COMPILERS), None)
    if launcher is None:
        return
    if "OMPI_MCA_pml" in os.environ:
        setup.context["pml"] = {"openmpi": f"{os.environ['OMPI_MCA_pml']} (OMPI_MCA_pml)"}
        return
    if options.hosts or options.hostfile:
        setup.context["pml"] = {"openmpi": "each launch's own pick"}
        return
    probe = launcher.command(["--variants", "c/int_buffer", "--count", "1", "--iterations",
                              "10", "--warmup", "1", "--blocks", "1"])
    picked = detect.chosen_pml(probe, dict(os.environ, **ROOT_ENV))
    if picked:
        os.environ["OMPI_MCA_pml"] = picked
    setup.context["pml"] = {"openmpi": f"{picked}, its own pick, found once and named to every "
                            "launch" if picked else "each launch's own pick (the probe launch "
                            "did not name one)"}


def run_job(launcher, job):
    """All repetitions of a job; stops at the first failing one."""
    outcomes = []
    timeout = (60 + 10 * estimated_seconds(job) / max(1, job.counts.reps)) * \
        launcher.timeout_factor
    launch_one = matrix.launch_for(job.build, launch)
    for rep in range(job.counts.reps):
        outcome = launch_one(launcher, job, timeout)
        for record in outcome.records:
            record.update(suite=job.suite, mpi=job.build.mpi, compiler=job.build.compiler,
                          job=job.key, rep=rep)
        outcomes.append(outcome)
        if outcome.error:
            break
    return outcomes


def split_job(job, baselines):
    """A failed job's variants one by one (each with its baseline), so one failure stays one."""
    return [matrix.Job(job.suite, job.build, with_baselines((name,), baselines),
                       job.count, job.counts, job.iterations)
            for name in job.variants if not name.startswith("c/")] + \
        [matrix.Job(job.suite, job.build, (name,), job.count, job.counts, job.iterations)
         for name in job.variants if name.startswith("c/")]


class Collector:
    """What the launches gave: timed records, audit rows, and failures."""

    def __init__(self, setup):
        self.setup, self.records, self.audit_rows = setup, [], []

    def add(self, job, outcomes):
        """Keeps a job's results; returns False when it failed."""
        for outcome in outcomes:
            if outcome.error:
                self.setup.failures.append({"what": job.key, "mpi": job.build.mpi,
                                            "compiler": job.build.compiler,
                                            "error": outcome.error})
                return False
        if job.suite == "audit":
            self._add_audit(job, outcomes[0])
        else:
            self.records += [r for o in outcomes for r in o.records]
        return True

    def _add_audit(self, job, outcome):
        per_label = audit.calls_per_message(outcome.audit_lines, job.iterations)
        for label, counted in sorted(per_label.items()):
            self.audit_rows.append({"mpi": job.build.mpi, "compiler": job.build.compiler,
                                    "variant": label, "count": job.count,
                                    "round_trips": job.iterations, "calls": counted["calls"],
                                    "bytes_per_message": counted["bytes_per_message"]})


def launcher_key(job):
    """setup.launchers' key for a job: a room's own launcher (across hosts), else its build's."""
    return next((key for room in rooms.ROOMS if (key := room.launcher_key(job))),
                (job.build.mpi, job.build.compiler))


def ratios_of(records):
    """{recheck cell key: ratio spread} of a job's timed records."""
    return {recheck.cell_key(c["suite"], c["mpi"], c["compiler"], 2, c["variant"], c["bytes"]):
            c["ratio_vs_c"] for c in compare.aggregate(records) if c["ratio_vs_c"]}


def register_recheck(launcher, job, outcomes, seconds):
    """Lets core/recheck.py launch a timed job again: its cells' keys, its seconds per
    process, and the relaunch (the same job in other processes). Jobs on a room's own launcher
    (across hosts) are not: their hosts are gone by then."""
    if job.suite == "audit" or any(room.launcher_key(job) for room in rooms.ROOMS):
        return
    records = [r for o in outcomes for r in o.records]

    def relaunch(processes, variants=None):
        part = replace(job, counts=replace(job.counts, reps=processes),
                       variants=tuple(variants or job.variants))
        again = run_job(launcher, part)
        if any(o.error for o in again):
            return {}
        return ratios_of([r for o in again for r in o.records])
    recheck.register(job.key, ratios_of(records), seconds / max(1, len(outcomes)), relaunch,
                     relaunch, len(job.variants))


def run_all(jobs, setup, clock):
    """Runs every job, splitting a failed one into its variants so the others still count;
    `clock` gets each suite's seconds and launches."""
    collector, progress = Collector(setup), Progress(jobs)
    for job in jobs:
        launcher = setup.launchers[launcher_key(job)]
        started = time.monotonic()
        outcomes = run_job(launcher, job)
        ok = collector.add(job, outcomes)
        launches = len(outcomes)
        if ok:
            register_recheck(launcher, job, outcomes, time.monotonic() - started)
        elif len(job.variants) > 1:
            setup.failures.pop()
            for part in split_job(job, setup.baselines):
                part_started = time.monotonic()
                part_outcomes = run_job(launcher, part)
                launches += len(part_outcomes)
                if collector.add(part, part_outcomes):
                    register_recheck(launcher, part, part_outcomes,
                                     time.monotonic() - part_started)
        clock.add("suite", job.suite, time.monotonic() - started, launches)
        progress.step(job, failed=not ok)
    progress.close()
    return collector


def new_results_dir(out_root):
    """bench-results/<timestamp>/, with the `latest` link moved to it."""
    out_dir = Path(out_root) / datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir.mkdir(parents=True, exist_ok=True)
    latest = Path(out_root) / "latest"
    if latest.is_symlink() or latest.exists():
        latest.unlink()
    latest.symlink_to(out_dir.name)
    return out_dir


def write_outputs(doc, records, out_dir):
    """results.json, results.csv, runs.jsonl (every launch's raw records), the charts and both
    reports, into out_dir; returns the schema problems of the document."""
    drawing = time.monotonic()
    drawn = [chart for room in rooms.ROOMS if room.draw for chart in room.draw(doc, out_dir)]
    drawn += first_screen_chart.draw(doc, out_dir)
    if doc.get("timings") and not any(r["phase"] == "report" for r in doc["timings"]["rows"]):
        seconds = round(time.monotonic() - drawing, 1)
        doc["timings"]["rows"].append({"phase": "report", "what": "the charts", "seconds": seconds,
                                       "launches": None})
        doc["timings"]["total_seconds"] = round(doc["timings"]["total_seconds"] + seconds, 1)
    doc["below_c"] = below_c.part(doc)  # every wrapper cell below 0.95x C, with its cause
    (out_dir / "results.json").write_text(json.dumps(doc, indent=1))
    (out_dir / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    schema.write_csv(doc, out_dir / "results.csv")
    (out_dir / "report.md").write_text(render_md(doc, drawn))
    (out_dir / "report.html").write_text(render_html(doc, drawn, out_dir))
    return schema.validate(doc)


def make_document(context, records, audit_rows, symbols, missing, failures):
    """The results document from raw records and what the run found."""
    cells = compare.attach_audit(compare.aggregate(records), audit_rows)
    doc = schema.document(context, cells, audit_rows, symbols, missing, failures)
    for room in rooms.ROOMS:
        if room.digest:
            room.digest(doc, records)
    return doc


def render_again(folder):
    """Recomputes the cells and rewrites the reports of a results folder from its runs.jsonl."""
    folder = Path(folder)
    old = json.loads((folder / "results.json").read_text())
    records = detect.json_lines((folder / "runs.jsonl").read_text())
    doc = make_document(old["context"], records, old["audit"], old["symbols"], old["missing"],
                        old["failures"])
    for room in rooms.ROOMS:
        doc.update(room.recompute(old) if room.recompute else {})
    doc["rechecks"] = old.get("rechecks", [])
    problems = write_outputs(doc, records, folder)
    print(f"wrapper-bench: rewrote {folder / 'report.md'}", file=sys.stderr)
    return 1 if problems else 0


def main(argv):
    """Builds, runs and reports; returns the exit status."""
    options = parse(argv)
    if options.render:
        return render_again(options.render)
    counts = matrix.SMOKE if options.smoke else matrix.FULL if options.full else matrix.QUICK
    started, clock = time.monotonic(), Clock()
    clock.add_setup(time.time())
    setup = prepare(options, clock)
    check_bindings(setup)
    pin_openmpi_pml(setup, options)
    load_at_start = os.getloadavg()[0]  # after the builds, which load the machine themselves
    filters = matrix.Filters(options.mpi, options.compiler, options.api, options.sizes,
                             options.suites)
    started_by_rooms = [room.start(options, setup, REPO) for room in rooms.ROOMS]
    try:
        jobs = matrix.all_jobs(setup, filters, counts)
        print(f"wrapper-bench: {len(jobs)} jobs", file=sys.stderr)
        collector = run_all(jobs, setup, clock)
    finally:
        for handle in started_by_rooms:
            if handle:
                handle.close()
    symbols = [row for (mpi, compiler), manifest in setup.manifests.items()
               for row in audit.symbol_rows(manifest, mpi, compiler)] + setup.symbols
    context = dict(detect.machine_context(), **setup.context,
                   mode="smoke" if options.smoke else "full" if options.full else "quick",
                   command="python3 -m wrapper_bench " + " ".join(argv),
                   load_average={"start": round(load_at_start, 2),
                                 "end": round(os.getloadavg()[0], 2)})
    doc = make_document(context, collector.records, collector.audit_rows, symbols,
                        setup.missing, setup.failures)
    for room in rooms.ROOMS:  # the suites that launch their own jobs
        if room.run:
            room_started = time.monotonic()
            part = room.run(setup, options, context["mode"], filters)
            if part:
                clock.add("suite", room.name, time.monotonic() - room_started)
            doc.update(part)
    rechecking = time.monotonic()  # the cells below C without a named cause, timed again
    doc["rechecks"], launches = recheck.run(
        [c for c in below_c.part(doc)["cells"] if not c["named"]], context["mode"],
        threshold=below_c.THRESHOLD)
    clock.add("suite", "re-timed cells below C", time.monotonic() - rechecking, launches)
    for room in rooms.ROOMS:  # what the rooms time again (the peers table's lines)
        if room.retime:
            rechecking = time.monotonic()
            part, launches = room.retime(doc, context["mode"])
            doc.update(part)
            clock.add("suite", f"re-timed {room.name} lines", time.monotonic() - rechecking,
                      launches)
    setup_row = clock.rows[0] if clock.rows and clock.rows[0]["phase"] == "setup" else None
    doc["timings"] = clock.part(time.monotonic() - started
                                + (setup_row["seconds"] if setup_row else 0))
    if context["mode"] == "quick":
        doc["timings"]["left_out_quick"] = [line for room in rooms.ROOMS
                                            for line in room.quick_left_out]
    out_dir = new_results_dir(options.out)
    problems = write_outputs(doc, collector.records, out_dir)
    print(f"wrapper-bench: {len(doc['cells'])} cells, {len(setup.missing)} missing, "
          f"{len(setup.failures)} failed, {time.monotonic() - started:.0f} s; "
          f"report: {out_dir / 'report.md'}", file=sys.stderr)
    for problem in problems:
        print(f"wrapper-bench: schema: {problem}", file=sys.stderr)
    return 1 if problems or (options.strict and setup.failures) else 0
