"""Which jobs to run: every room's jobs, expanded over the builds and filters at hand.

A job is one launch of two ranks running several variants in interleaved blocks (or one audit).
Its records become cells: one per (suite, mpi, compiler, variant, count). The matrix only lists
the rooms (rooms.py); each room says which jobs its suites add.
"""

from . import rooms
from .core import jobs as _jobs
from .core.jobs import APIS, Build, Counts, Job  # noqa: F401 (matrix.Build etc., as before)

SUITES = rooms.SUITES
# The round trips of each suite (the article's with --full, quick by default, smoke).
FULL, QUICK, SMOKE = ({suite: counts for room in rooms.ROOMS
                       for suite, counts in room.counts.get(mode, {}).items()}
                      for mode in ("full", "quick", "smoke"))
SUITE_JOBS = {suite: room.jobs for room in rooms.ROOMS if room.jobs for suite in room.suites}
# The build runners a room owns (the real osu_latency): such a build runs only its room's suites.
OWNED_RUNNERS = {runner: room.suites for room in rooms.ROOMS for runner in room.runners}


def Filters(mpi=None, compiler=None, api=None, sweep_bytes=None, suites=SUITES):  # noqa: N802
    """The driver's filters (core.jobs.Filters), every room's suites unless told."""
    return _jobs.Filters(mpi, compiler, api, sweep_bytes, suites)


def expand(builds, filters, counts_by_suite, baselines):
    """Every job of the matrix, suite by suite, build by build (suites without matrix jobs, such
    as those that launch themselves or run across hosts, add none here)."""
    jobs = []
    for suite in filters.suites:
        suite_jobs = SUITE_JOBS.get(suite)
        for build in builds if suite_jobs else ():
            if suite not in OWNED_RUNNERS.get(build.runner, (suite,)):
                continue
            if filters.keeps_build(build):
                jobs.extend(suite_jobs(suite, build, counts_by_suite.get(suite), filters,
                                       baselines))
    return jobs


def all_jobs(setup, filters, counts_by_suite):
    """The run's jobs: the matrix's, in the order the rooms arrange them, then the jobs that
    rooms make from the whole setup (the suites across hosts)."""
    jobs = expand(setup.builds, filters, counts_by_suite, setup.baselines)
    for room in rooms.ROOMS:
        jobs = room.arrange(jobs) if room.arrange else jobs
    for room in rooms.ROOMS:
        jobs += room.setup_jobs(setup, filters, counts_by_suite) if room.setup_jobs else []
    return jobs


def launch_for(build, default):
    """The launch function of a build: its owning room's, else `default`."""
    return next((room.runners[build.runner] for room in rooms.ROOMS
                 if build.runner in room.runners), default)
