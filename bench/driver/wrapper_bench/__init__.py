"""wrapper-bench: the cost-of-convenience matrix of C MPI, Boost.MPI, mpi4py and thinmpi.

Modules by job: detect (what this machine has), build (the kernels of each preset), matrix (which
jobs to run), runner (launch them), audit (PMPI call counts and nm symbols), compare (aggregate
into cells and ratios), schema (results.json), tables/conclusions (what the report says),
charts, render_md, render_html, and cli (python3 -m wrapper_bench).
"""

SCHEMA_NAME = "wrapper-bench/results"
SCHEMA_VERSION = 1
