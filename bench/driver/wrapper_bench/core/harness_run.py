"""Running a suite on the multi-rank harness (the collectives, neighbors and rma suites): the
builds at hand (each preset's harness and the mpi4py kernels), every job's repetitions, launches
sized to fit on oversubscribed ranks, and a suite's whole plan with OSU's programs beside it."""

import dataclasses
import sys
import time
from pathlib import Path

from . import build as build_step
from . import harness, harness_cells, osu_programs, recheck


def find_builds(setup, options):
    """The collectives harnesses of the presets the driver registered; [(build or None, why)]."""
    found = []
    for (mpi, compiler), manifest in setup.manifests.items():
        coll = harness.read_manifest(Path(options.build_prefix + f"{mpi}-{compiler}"))
        if not coll:
            found.append((None, f"{mpi}-{compiler}: no wb_coll.json (rebuild the kernels)"))
            continue
        found.append((harness.harness_build(mpi, compiler, coll), None))
        why = None if coll.get("thinmpi") else build_step.file_unbuilt(
            setup.failures, mpi, compiler, "thinmpi collectives kernel",
            coll["thinmpi_missing_reason"])
        if why:
            found.append((None, f"{mpi}-{compiler}: thinmpi: {why}"))
        why = None if not coll.get("thinmpi") or coll.get("thinmpi_checked", True) else \
            build_step.file_unbuilt(setup.failures, mpi, compiler,
                                    "thinmpi collectives kernel, checked mode",
                                    coll.get("thinmpi_checked_missing_reason"))
        if why:
            found.append((None, f"{mpi}-{compiler}: thinmpi-checked: {why}"))
        if not coll.get("boost"):
            found.append((None, f"{mpi}-{compiler}: Boost.MPI: not in this build"))
    if options.api is None or "mpi4py" in options.api:
        found += _mpi4py_builds(setup, options)
    return found


def harness_builds(setup, options, manifest_name, kernel_name, mpi4py_kernel):
    """The builds of a suite that runs on the multi-rank harness with a manifest of its own
    (the neighbors and rma suites): each registered preset's harness, why its thinmpi kernel
    (named `kernel_name` in the reasons) is missing, and the mpi4py kernels;
    [(build or None, why)]."""
    found = []
    for mpi, compiler in setup.manifests:
        manifest = harness.read_manifest(Path(options.build_prefix + f"{mpi}-{compiler}"),
                                         manifest_name)
        if not manifest:
            found.append((None, f"{mpi}-{compiler}: no {manifest_name} (rebuild the kernels)"))
            continue
        found.append((harness.harness_build(mpi, compiler, manifest), None))
        why = None if manifest.get("thinmpi") else build_step.file_unbuilt(
            setup.failures, mpi, compiler, kernel_name, manifest["thinmpi_missing_reason"])
        if why:
            found.append((None, f"{mpi}-{compiler}: thinmpi: {why}"))
    if options.api is None or "mpi4py" in options.api:
        found += _mpi4py_builds(setup, options, manifest_name, mpi4py_kernel)
    return found


def _mpi4py_builds(setup, options, manifest_name="wb_coll.json",
                   kernel=harness.MPI4PY_KERNEL):
    """The mpi4py collectives kernel (or `kernel`) of each MPI whose mpi4py the point-to-point
    setup found (Debian's links Open MPI only), with the C baselines of that MPI's first preset;
    the reason for each MPI without one."""
    found = []
    for mpi in dict.fromkeys(m for m, _ in setup.manifests):
        launcher = setup.launchers.get((mpi, "python"))
        if launcher is None:
            reasons = [m["reason"] for m in setup.missing
                       if (m["mpi"], m["compiler"], m["api"]) == (mpi, "python", "mpi4py")]
            found.append((None, f"{mpi}: mpi4py: " + (reasons[0] if reasons else "not found")))
            continue
        compiler = sorted(k for m, k in setup.manifests if m == mpi)[0]
        coll = harness.read_manifest(Path(options.build_prefix + f"{mpi}-{compiler}"),
                                     manifest_name) or {}
        build = harness.mpi4py_build(mpi, launcher.program[0], launcher.env, coll, kernel) \
            if coll else None
        found.append((build, None) if build else
                     (None, f"{mpi}: mpi4py: the {mpi}-{compiler} libwb_ckernels has no C "
                      f"baselines for {Path(kernel).name} (rebuild the kernels)"))
    return found


def run_job(job, reps, part, failures, audit_rows=None, osu_reps=0):
    """All repetitions of one job into `part`; stops at the first failure, which also goes to
    the run's `failures` (so --strict and the report's failure table see it). An audit launch's
    lines become rows through `audit_rows` (the collectives' own by default; the rma suite
    counts per rank)."""
    audit_rows = audit_rows or harness_cells.audit_rows
    launch = osu_programs.launch if osu_programs.is_osu(job) else harness.launch
    if osu_programs.is_osu(job) and osu_reps:
        reps = osu_reps
    started, timed = time.monotonic(), []
    for rep in range(1 if job.audit else reps):
        records, audit_lines, error = launch(job, rep)
        if error:
            part["failures"].append({"what": job.key, "error": error})
            failures.append({"what": job.key, "mpi": job.build.mpi,
                             "compiler": job.build.compiler, "error": error})
            return False
        if job.audit:
            part["audit"] += audit_rows(job, audit_lines)
        else:
            part["records"] += records
            timed += records
    if timed and not osu_programs.is_osu(job):
        _register_recheck(job, timed, (time.monotonic() - started) / reps)
    return True


def _ratios(job, records):
    """{recheck cell key: ratio spread} of a job's records."""
    return {recheck.cell_key(job.suite, c["mpi"], c["compiler"], c["ranks"], c["variant"],
                             c["bytes"]): c["ratio"]
            for c in harness_cells.aggregate(records) if c["ratio"]}


def _register_recheck(job, records, seconds_per_process):
    """Lets core/recheck.py launch the job again in other processes."""
    def relaunch(processes, part=job):
        again = recheck.launched(lambda rep: harness.launch(part, rep), processes)
        return _ratios(part, again) if again is not None else {}

    def alone(processes, variants):
        return relaunch(processes, dataclasses.replace(job, variants=tuple(variants)))
    recheck.register((job.key, tuple(job.variants)), _ratios(job, records), seconds_per_process,
                     relaunch, alone, len(job.variants))


def _probe(build, ranks, variant):
    """µs per call of the probe collective on `ranks` ranks of `build`, or None."""
    records, _, error = harness.launch(harness.probe_job(build, ranks, variant), 0, timeout=120)
    return None if error or not records else records[0]["us"]


def fit_oversubscribed(jobs, part, probe_variant=harness.PROBE_VARIANT):
    """Sizes the timed launches on oversubscribed ranks by a probe of each build and rank count,
    so that none outlasts its timeout; says so in part["notes"]."""
    probed, fitted, noted = {}, [], set()
    for job in jobs:
        if job.ranks <= 2 or job.audit or harness.is_program_job(job):
            fitted.append(job)
            continue
        key = (job.build.mpi, job.build.compiler, job.ranks)
        if key not in probed:
            probed[key] = _probe(job.build, job.ranks, probe_variant)
        smaller = harness.fit_to_budget(job, probed[key]) if probed[key] else job
        if smaller is not job and key not in noted:
            noted.add(key)
            part["notes"].append(
                f"{job.build.mpi}-{job.build.compiler}, {job.ranks} ranks: a 4 B "
                f"{probe_variant} took {probed[key] / 1000:.1f} ms on these "
                f"oversubscribed ranks, so the {job.iterations} calls per variant of the "
                f"{job.count * 4} B launch would take about "
                f"{harness.launch_seconds(job, probed[key]):.0f} s; launches were cut to "
                f"fit {harness.LAUNCH_BUDGET_S} s (at least {harness.MIN_CALLS} calls "
                "per variant; the records keep the counts)")
        fitted.append(smaller)
    return fitted


def _choose_ranks(part, options, mode):
    """The rank counts to time (--ranks, else those within the cores; --full: all), kept in
    part["ranks"]; those left out go to part["left_out"] with the reason."""
    ranks, left_out = harness.rank_counts(getattr(options, "ranks", None), mode,
                                          harness.usable_cores())
    part.update(ranks=list(ranks), left_out=[{"ranks": r, "launches": 0, "why": why}
                                             for r, why in left_out])
    return ranks


def _count_left_out(left_out, build, mode, options, plan):
    """Adds to each left-out rank count the timed launches of `build` it would have had."""
    for entry in left_out:
        entry["launches"] += sum(not job.audit for job in harness.jobs_for(
            build, mode, plan.sizes_for(mode, options.sizes), options.api, plan,
            (entry["ranks"],)))


def run_plan(setup, options, mode, builds, plan, osu_builds=()):
    """Every job of one suite of the collectives harness (`plan`) on `builds` ([(build or None,
    why)]), and OSU's programs of `osu_builds` beside them; returns the suite's part of the
    document, before its cells are computed."""
    part = {"ranks": list(harness.RANKS), "records": [], "audit": [], "failures": [],
            "missing": [], "notes": []}
    ranks = _choose_ranks(part, options, mode)
    jobs = []
    for build, why in builds:
        if build is None:
            part["missing"].append(why)
        elif options.compiler is None or build.compiler in (*options.compiler, "python"):
            jobs += harness.jobs_for(build, mode, plan.sizes_for(mode, options.sizes),
                                     options.api, plan, ranks)
            _count_left_out(part["left_out"], build, mode, options, plan)
    jobs = fit_oversubscribed(jobs, part, plan.probe_variant)
    jobs = osu_programs.add_jobs(jobs, osu_builds, mode, plan.sizes_for(mode, options.sizes), part)
    reps, osu_reps = harness.COUNTS[mode].reps, harness.COUNTS[mode].osu_reps
    for number, job in enumerate(jobs, 1):
        ok = run_job(job, reps, part, setup.failures, osu_reps=osu_reps)
        print(f"[{plan.suite} {number}/{len(jobs)}] {'' if ok else 'FAILED '}{job.key}",
              file=sys.stderr)
    return part
