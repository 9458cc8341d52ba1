"""The driver's shared machinery, below every suite's room: what this machine has (detect),
building the kernels (build, session), jobs and filters (jobs), launching (runner), the PMPI
audit (audit), cells and ratios (compare), results.json (schema), the tables' common parts
(tables) and the rooms' interface (room). Nothing here imports a room."""
