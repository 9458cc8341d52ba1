"""What a suite's room tells the driver: the one interface that the matrix, the CLI and the
report read, so that they only list the rooms (rooms.py) and never name a suite's modules.

A room (wrapper_bench/suites/<room>/) holds one suite's jobs, its tables and its report
sections; every hook is optional, and a room leaves out what its suite does not have.
"""

from dataclasses import dataclass, field
from typing import Callable


def _nothing(*_args, **_kwargs):
    return None


@dataclass(frozen=True)
class Room:
    """One suite's room, as the driver sees it.

    suites: the --suites names it answers.
    counts: {mode: {suite: Counts}} of its matrix-launched suites ("full", "quick", "smoke").
    jobs(suite, build, counts, filters, baselines): its jobs of one build (the matrix's launches).
    arrange(jobs): the whole matrix's jobs in the order it wants them launched.
    prepare(setup, options, presets, repo): builds, launchers and missing cells it adds.
    setup_jobs(setup, filters, counts_by_suite): jobs it makes from the whole setup (after the
        matrix's).
    run(setup, options, mode, filters): {document key: part} of the launches it makes itself.
    recompute(old): {document key: part} again, from an earlier results document.
    retime(doc, mode): ({document key: part}, launches) of what it times again after every suite
        and the re-timing of the cells below C (the peers table's unexplained lines).
    draw(doc, out_dir): [(title, png file name)] of its charts.
    sections(doc, charts, section_type): {section name: a Section or a list of them};
        report.py lists the names in the report's order.
    runners: {build runner: launch(launcher, job, timeout)} of the builds it owns; a build whose
        runner a room owns runs only that room's suites.
    digest(doc, records): adds what it reads from every launch's records to the document.
    annotate(tables, cells): notes it adds under the article's tables.
    headline(doc): lines it adds to the report's first screen (the machine's mode).
    ratios(doc): [core.path_ratios.PathRatio] of the ratios against C its tables show, one per
        cell, for the first screen's chart of every library per path.
    add_options(parser), check_options(options, suites_given, known): its command-line options,
        and the error sentence (or None) of a bad combination; `known`: every room's suites.
    start(options, setup, repo): what it starts for the run (a handle with close(), or None).
    launcher_key(job): the key of setup.launchers that launches a job of its own (None: the
        build's, (mpi, compiler)).
    quick_left_out: what the quick (default) run leaves out of its suites and how to run it,
        one sentence each (the report's "where the time went" lists them).
    """

    name: str
    suites: tuple = ()
    counts: dict = field(default_factory=dict)
    jobs: Callable = None
    arrange: Callable = None
    prepare: Callable = _nothing
    setup_jobs: Callable = None
    run: Callable = None
    recompute: Callable = None
    retime: Callable = None
    draw: Callable = None
    sections: Callable = None
    runners: dict = field(default_factory=dict)
    digest: Callable = None
    annotate: Callable = None
    headline: Callable = None
    ratios: Callable = None
    add_options: Callable = _nothing
    check_options: Callable = _nothing
    start: Callable = _nothing
    launcher_key: Callable = _nothing
    quick_left_out: tuple = ()
