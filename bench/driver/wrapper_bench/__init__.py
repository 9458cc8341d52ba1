"""wrapper-bench: the cost-of-convenience matrix of C MPI, thinmpi and its peers (Boost.MPI,
KaMPIng, MPL, mpi4py, Go).

Layout: core/ holds the shared machinery (detect: what this machine has; build and session: the
kernels of each preset; jobs: jobs and filters; runner: launching; audit: PMPI call counts and nm
symbols; compare: cells and ratios; schema: results.json; tables: the tables' common parts;
room: what a room tells the driver). suites/<room>/ holds one suite each (its jobs, tables and
report sections). rooms.py lists the rooms; matrix (which jobs to run), report (what the report
says, in order), render_md, render_html and cli (python3 -m wrapper_bench) only list them.
"""

from .core.schema import SCHEMA_NAME, SCHEMA_VERSION  # noqa: F401 (wrapper_bench.SCHEMA_*)
