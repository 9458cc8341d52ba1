"""Runs the collectives suite for the driver and keeps what it gave in doc["collectives"]: the
collectives harness's plan (core/harness.py) on the builds at hand, with OSU's collective
benchmarks beside it (osu_coll.py)."""

from ...core import harness, harness_cells, harness_run, osu_programs
from . import osu_coll


def run(setup, options, mode):
    """Every collectives job of the builds at hand; returns doc["collectives"]."""
    osu_builds = []  # OSU's own collective benchmarks beside the C cells
    if options.api is None or "osu" in options.api:
        osu_builds = osu_programs.builds(
            setup, list(dict.fromkeys(m for m, _ in setup.manifests)), options.osu_dir,
            osu_coll.BENCHMARKS, "collective benchmarks")
    return recompute(harness_run.run_plan(setup, options, mode,
                                          harness_run.find_builds(setup, options),
                                          harness.PLAN, osu_builds))


def recompute(part):
    """The cells of a collectives part from its raw records (also for --render)."""
    return dict(part, cells=harness_cells.aggregate(part["records"]))
