"""The driver's shared machinery, below every suite's room: what this machine has (detect),
building the kernels (build, session), jobs and filters (jobs), launching (runner), the PMPI
audit (audit), cells and ratios (compare), results.json (schema), the tables' common parts
(tables) and the rooms' interface (room); and what several rooms run or read: the point-to-point
jobs (p2p_jobs), the OSU sweep's sizes and --osu-dir (osu), the multi-rank harness (harness: its
builds, plans and launches; harness_cells, harness_run, harness_report) with OSU's programs
beside it (osu_programs), and the instruction half of the targets (instruction_targets). Nothing
here imports a room, and a room imports nothing of another room (bench/driver/tests/
test_rooms.py)."""
