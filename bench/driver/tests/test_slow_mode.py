"""The slow-mode detector against this VM's two modes, with process floors and C 1-int one-way
times recorded in real runs (issue 33, item 4): a process is slow when its floor or its C
one-way time says so, whether or not the rest of its run is slow too."""

import unittest

from fixture_data import record
from wrapper_bench.core import compare, schema, slow_mode
from wrapper_bench.render_html import render_html
from wrapper_bench.render_md import render_md
from wrapper_bench.suites.floor import floor, floor_report


def process(mpi, compiler, count, rep, floor_us, c_us=None, job=None):
    """One process of the tiny suite: its c/int_buffer record at `count` ints, each of its 20
    blocks at `c_us` (the process's low decile, what the harness reports for it), and its
    floor before and after its variants."""
    r = record("tiny", mpi, compiler, "c/int_buffer", count, rep)
    if c_us is not None:
        r["block_one_way_us"] = [c_us] * 20
    r["floor_before_us"] = r["floor_after_us"] = floor_us
    r["job"] = job or f"tiny/{mpi}-{compiler}/n{count}"
    return r


def run(rows):
    """Records of (mpi, compiler, count, floor µs, C µs at that count or None), one process a
    row, numbered per job."""
    reps, records = {}, []
    for mpi, compiler, count, floor_us, c_us in rows:
        job = f"tiny/{mpi}-{compiler}/n{count}"
        reps[job] = reps.get(job, -1) + 1
        records.append(process(mpi, compiler, count, reps[job], floor_us,
                               c_us if count == 1 else None, job))
    return records


# Run 20261203-201426 (quick, tiny suite, gcc + Go + mpi4py, both MPIs; 0 of 69 processes slow
# by any rule): the fast mode. Its 1-int processes with their floors and C 1-int one-way times
# (low decile of the blocks), and some of its 8- and 64-int processes' floors.
FAST_RUN = [("openmpi", "gcc", 1, 0.028, 0.131), ("openmpi", "gcc", 1, 0.025, 0.131),
            ("openmpi", "gcc", 1, 0.029, 0.130), ("openmpi", "go", 1, 0.028, 0.127),
            ("openmpi", "go", 1, 0.031, 0.131), ("openmpi", "go", 1, 0.029, 0.129),
            ("openmpi", "python", 1, 0.035, 0.190), ("openmpi", "python", 1, 0.028, 0.156),
            ("openmpi", "python", 1, 0.031, 0.165), ("mpich", "gcc", 1, 0.026, 0.176),
            ("mpich", "gcc", 1, 0.026, 0.167), ("mpich", "gcc", 1, 0.026, 0.165),
            ("mpich", "go", 1, 0.029, 0.206), ("mpich", "go", 1, 0.030, 0.202),
            ("mpich", "go", 1, 0.027, 0.178), ("openmpi", "gcc", 8, 0.030, None),
            ("openmpi", "go", 64, 0.036, None), ("openmpi", "python", 8, 0.036, None),
            ("mpich", "gcc", 64, 0.028, None), ("mpich", "go", 8, 0.026, None)]

# Run 20261203-161817 (quick, tiny suite, gcc, both MPIs): its 9 slow-mode processes, as a run
# would be that ran wholly in the slow mode: floors 0.141-0.156 µs (its fast ones had
# 0.025-0.034 µs), C 1-int one-way 0.370-0.371 µs (its fast MPICH ones: 0.108-0.188 µs).
SLOW_RUN = [("openmpi", "gcc", 1, 0.154, 0.370), ("openmpi", "gcc", 1, 0.147, 0.370),
            ("openmpi", "gcc", 1, 0.152, 0.371), ("openmpi", "gcc", 64, 0.151, None),
            ("openmpi", "gcc", 8, 0.141, None), ("openmpi", "gcc", 8, 0.151, None),
            ("openmpi", "gcc", 8, 0.150, None), ("mpich", "gcc", 64, 0.150, None),
            ("mpich", "gcc", 64, 0.156, None)]

# The reported case (issue 33): a run whose C 1-int one-way was 0.43 µs on Open MPI and 0.57 µs
# on MPICH, the slow mode (docs/bench.md: the make bench of 2026-12-02 at 70856ca), while the
# floors did not rise. That run's per-process records were not kept: its one-way times are the
# documented ones, its floors the fast-mode floors of run 20261203-201426 above.
REPORTED_RUN = [("openmpi", "gcc", 1, 0.028, 0.43), ("openmpi", "gcc", 1, 0.025, 0.43),
                ("openmpi", "gcc", 1, 0.029, 0.43), ("mpich", "gcc", 1, 0.026, 0.57),
                ("mpich", "gcc", 1, 0.026, 0.57), ("mpich", "gcc", 1, 0.026, 0.57)]


class BothModes(unittest.TestCase):
    def test_a_fast_run_is_fast(self):
        mode = slow_mode.machine_mode(run(FAST_RUN))
        self.assertEqual((mode["mode"], mode["slow"], mode["processes"]), ("fast", 0, 20))
        self.assertEqual(floor.summary(run(FAST_RUN))["slow"], [])

    def test_a_run_wholly_in_the_slow_mode_is_slow(self):
        mode = slow_mode.machine_mode(run(SLOW_RUN))
        self.assertEqual((mode["mode"], mode["slow"], mode["processes"]), ("slow", 9, 9))

    def test_the_reported_case_low_floors_slow_mpi_is_slow(self):
        mode = slow_mode.machine_mode(run(REPORTED_RUN))
        self.assertEqual((mode["mode"], mode["slow"]), ("slow", 6))
        slow = floor.summary(run(REPORTED_RUN))["slow"]
        self.assertEqual(len(slow), 6)

    def test_a_mixed_run_flags_only_its_slow_processes(self):
        records = run(FAST_RUN + SLOW_RUN[:3])  # reps 3-5 of tiny/openmpi-gcc/n1
        slow = floor.summary(records)["slow"]
        self.assertEqual([(s["job"], s["rep"]) for s in slow],
                         [("tiny/openmpi-gcc/n1", rep) for rep in (3, 4, 5)])

    def test_the_thresholds_lie_between_the_recorded_modes(self):
        fast, slow = slow_mode.FAST_MODE, slow_mode.SLOW_MODE
        self.assertLess(fast["floor_us"][1], slow_mode.SLOW_FLOOR_US)
        self.assertLess(slow_mode.SLOW_FLOOR_US, slow["floor_us"][0])
        self.assertLess(fast["c_one_way_us"][1], slow_mode.SLOW_C_ONE_WAY_US)
        self.assertLess(slow_mode.SLOW_C_ONE_WAY_US, slow["c_one_way_us"][0])

    def test_why_each_process_is_slow(self):
        reasons = {s["c_one_way_us"]: s["reasons"] for s in floor.summary(
            run(SLOW_RUN[:1] + REPORTED_RUN[3:4]))["slow"]}
        self.assertEqual(reasons, {0.370: ["floor", "c_one_way"], 0.57: ["c_one_way"]})

    def test_another_machine_keeps_the_per_run_rule(self):
        # Floors below this VM's slow-mode floor, one process at 3x the others.
        records = run([("openmpi", "gcc", 8, f, None) for f in (0.010,) * 9 + (0.030,)])
        self.assertEqual(slow_mode.machine_mode(records)["slow"], 1)


MIXED_RUN = FAST_RUN + SLOW_RUN  # Open MPI: 7 slow of 19; MPICH: 2 slow of 10


class FirstScreen(unittest.TestCase):
    def test_each_mpi_says_its_mode(self):
        lines = floor_report.mode_lines(floor.summary(run(MIXED_RUN)))
        self.assertEqual(lines[:2], [
            "Machine mode, OpenMPI: slow mode in 7 of 19 processes (C 1-int one-way 0.370 µs, "
            "floor 0.151 µs); the fast mode in 12 (C 1-int one-way 0.131 µs, floor 0.029 µs).",
            "Machine mode, MPICH: slow mode in 2 of 10 processes (floor 0.153 µs, C 1-int "
            "one-way not timed); the fast mode in 8 (C 1-int one-way 0.177 µs, floor 0.026 µs)."])
        self.assertTrue(lines[2].startswith("Machine mode: a process ran in the slow mode when "
                                            "it had a floor above 0.052 µs"))
        self.assertEqual(floor_report.mode_lines(floor.summary(run(FAST_RUN)))[0],
                         "Machine mode, OpenMPI: fast mode (C 1-int one-way 0.131 µs, floor "
                         "0.029 µs; all 12 processes).")
        self.assertEqual(floor_report.mode_lines(floor.summary(run(REPORTED_RUN)))[1],
                         "Machine mode, MPICH: slow mode (C 1-int one-way 0.570 µs, floor "
                         "0.026 µs; all 3 processes).")

    def test_the_report_begins_with_them(self):
        records = run(MIXED_RUN)
        cells = floor.apply(compare.aggregate(records), records)
        doc = schema.document({"date": "2026-12-03", "cpu_model": "test", "cpu_count": 2,
                               "os": "Debian", "mode": "quick", "mpi": {}, "compilers": {},
                               "boost": {}, "mpi4py": {}, "binding": {}}, cells, [], [], [], [])
        doc["floor"] = floor.summary(records)
        markdown = render_md(doc, [])
        first_section = markdown.index("\n## ")
        for mpi in ("MPICH: slow mode in 2 of 10", "OpenMPI: slow mode in 7 of 19"):
            self.assertLess(markdown.index(f"- Machine mode, {mpi} processes"), first_section)
        self.assertIn("<li>Machine mode, OpenMPI: slow mode in 7 of 19 processes",
                      render_html(doc, [], None).split("<h2>")[0])

    def test_no_floor_no_mode(self):
        self.assertEqual(floor_report.mode_lines(None),
                         ["Machine mode: not judged (no process of the matrix measured its "
                          "floor)."])


if __name__ == "__main__":
    unittest.main()
