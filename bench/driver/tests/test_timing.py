"""Where the time went: the clock's rows (core/timing.py), the setup before the driver, the
report's table, and which compilers the default run counts under callgrind."""

import argparse
import unittest

from wrapper_bench import rooms
from wrapper_bench.core.timing import SETUP_FOUND_ENV, SETUP_STARTED_ENV, Clock
from wrapper_bench.suites import timing
from wrapper_bench.core import harness, harness_run, osu_programs
from wrapper_bench.suites.instructions import ROOM as INSTRUCTIONS
from wrapper_bench.suites.instructions import counted_compilers


class ClockRows(unittest.TestCase):
    def test_a_phase_that_runs_again_adds_its_time_and_launches(self):
        clock = Clock()
        clock.add("suite", "tiny", 1.25, 3)
        clock.add("suite", "sweep", 2.0, 3)
        clock.add("suite", "tiny", 0.5, 2)
        self.assertEqual([(r["what"], r["seconds"], r["launches"])
                          for r in clock.part(3.75)["rows"]],
                         [("tiny", 1.8, 5), ("sweep", 2.0, 3)])

    def test_a_timed_body_becomes_a_row(self):
        clock = Clock()
        with clock.phase("build", "openmpi-gcc kernels"):
            pass
        self.assertEqual(clock.rows[0]["phase"], "build")
        self.assertGreaterEqual(clock.rows[0]["seconds"], 0.0)

    def test_the_setup_comes_first_when_bench_sh_said_when_it_started(self):
        clock = Clock()
        clock.add("suite", "tiny", 10.0)
        clock.add_setup(1000.0, {SETUP_STARTED_ENV: "880"})
        self.assertEqual(clock.rows[0]["phase"], "setup")
        self.assertEqual(clock.rows[0]["seconds"], 120.0)
        self.assertNotIn("installed", clock.rows[0]["what"])
        clock_alone = Clock()
        clock_alone.add_setup(1000.0, {})
        clock_alone.add_setup(1000.0, {SETUP_STARTED_ENV: "soon"})
        self.assertEqual(clock_alone.rows, [])

    def test_the_setup_row_names_what_an_earlier_run_had_installed(self):
        clock = Clock()
        clock.add_setup(1000.0, {SETUP_STARTED_ENV: "996", SETUP_FOUND_ENV:
                                 "boost-mpi-mpich,osu-openmpi"})
        self.assertEqual(clock.rows[0]["seconds"], 4.0)
        self.assertIn("found installed by an earlier run: boost-mpi-mpich, osu-openmpi",
                      clock.rows[0]["what"])

    def test_the_table_has_a_share_per_phase_and_the_total(self):
        clock = Clock()
        clock.add("build", "openmpi-gcc kernels", 30.0)
        clock.add("suite", "tiny", 90.0, 12)
        table = timing.table(clock.part(120.0))
        self.assertEqual(table.rows[0], ["build", "openmpi-gcc kernels", "30", "", "25 %"])
        self.assertEqual(table.rows[1], ["suite", "tiny", "90", "12", "75 %"])
        self.assertEqual(table.rows[-1][0], "total")
        self.assertEqual(timing.table(None).rows, [])


class CountedCompilers(unittest.TestCase):
    def options(self, *argv):
        parser = argparse.ArgumentParser()
        parser.add_argument("--instructions", action="store_true")
        INSTRUCTIONS.add_options(parser)
        return parser.parse_args(list(argv))

    def test_the_default_run_counts_the_gcc_builds(self):
        self.assertEqual(counted_compilers(self.options(), "quick"), ("gcc",))

    def test_full_and_instructions_count_every_compiler(self):
        self.assertIsNone(counted_compilers(self.options(), "full"))
        self.assertIsNone(counted_compilers(self.options("--instructions"), "quick"))

    def test_a_choice_wins_and_no_instructions_counts_nothing(self):
        self.assertEqual(counted_compilers(self.options("--instruction-compilers", "clang"),
                                           "full"), ("clang",))
        self.assertEqual(counted_compilers(self.options("--no-instructions"), "quick"), ())

    def test_the_smoke_run_counts_only_when_asked(self):
        self.assertEqual(counted_compilers(self.options(), "smoke"), ())
        self.assertIsNone(counted_compilers(self.options("--instructions"), "smoke"))


class QuickRun(unittest.TestCase):
    def test_the_quick_collectives_leave_out_32_and_256_bytes(self):
        plan = harness.PLAN
        self.assertEqual(plan.sizes_for("quick"), (4, 4096, 65536, 1048576))
        self.assertEqual(plan.sizes_for("full"), harness.COLL_BYTES)
        self.assertEqual(plan.sizes_for("quick", (32,)), (32,))

    def test_the_quick_run_starts_each_osu_program_once_per_size(self):
        launched = []
        job = osu_programs.OsuCollJob.__new__(osu_programs.OsuCollJob)
        original = osu_programs.launch
        osu_programs.launch = lambda job, rep: launched.append(rep) or ([], [], None)
        try:
            part = {"records": [], "audit": [], "failures": []}
            job.audit = False
            harness_run.run_job(job, 2, part, [], osu_reps=harness.COUNTS["quick"].osu_reps)
            self.assertEqual(launched, [0])
            harness_run.run_job(job, 3, part, [], osu_reps=harness.COUNTS["full"].osu_reps)
            self.assertEqual(launched, [0, 0, 1, 2])
        finally:
            osu_programs.launch = original

    def test_what_the_quick_run_leaves_out_is_listed(self):
        left_out = [line for room in rooms.ROOMS for line in room.quick_left_out]
        self.assertTrue(any(line.startswith("rma: 1 MiB") for line in left_out))
        lines = timing.left_out_lines({"rows": [], "left_out_quick": left_out})
        self.assertIn("--full", lines[0])
        self.assertEqual(timing.left_out_lines({"rows": []}), [])


if __name__ == "__main__":
    unittest.main()
