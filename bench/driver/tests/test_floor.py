"""The physical floor: process floors, the slow mode, and absolute times from fast processes."""

import unittest

from fixture_data import record, tiny_records, with_floors
from wrapper_bench.core import compare, tables
from wrapper_bench.suites.floor import floor, floor_report
from wrapper_bench.suites.p2p import tables as p2p_tables


def c_cell(records):
    cells = floor.apply(compare.aggregate(records), records)
    return compare.find(cells, mpi="openmpi", compiler="gcc", variant="c/int_buffer", count=1)[0]


def slow_rep_records():
    """c/int_buffer and boost/raw over three processes; process 2 ran in the slow mode: its
    blocks take twice as long and its floor after the variants is twice the others'."""
    records = [record("tiny", "openmpi", "gcc", v, 1, rep) for rep in range(3)
               for v in ("c/int_buffer", "boost/raw")]
    for r in records:
        if r["rep"] == 2:
            r["block_one_way_us"] = [2 * t for t in r["block_one_way_us"]]
    return with_floors(records, {0: (0.20, 0.21), 1: (0.21, 0.20), 2: (0.20, 0.45)})


class ProcessFloor(unittest.TestCase):
    def test_the_larger_of_before_and_after(self):
        self.assertEqual(floor.process_floor({"floor_before_us": 0.2, "floor_after_us": 0.3}),
                         0.3)

    def test_none_without_a_measurement(self):
        self.assertIsNone(floor.process_floor({"floor_before_us": None}))
        self.assertIsNone(floor.process_floor({}))

    def test_slow_mode_is_far_above_the_runs_best(self):
        summary = floor.summary(slow_rep_records())
        self.assertAlmostEqual(summary["best_us"], 0.21)
        self.assertEqual([(s["rep"], s["floor_us"]) for s in summary["slow"]], [(2, 0.45)])
        self.assertEqual(summary["processes"], 3)
        self.assertEqual(summary["by_build"]["openmpi/gcc"], [0.21, 0.21, 0.45])

    def test_no_floor_no_summary(self):
        self.assertIsNone(floor.summary(tiny_records()))


class AbsoluteTimes(unittest.TestCase):
    def test_a_cell_takes_its_time_from_its_fast_processes(self):
        cell = c_cell(slow_rep_records())
        self.assertEqual(cell["one_way_from"], "fast-mode processes")
        self.assertEqual(cell["slow_reps"], 1)
        self.assertAlmostEqual(cell["one_way_us"]["max"], 0.30)
        self.assertAlmostEqual(cell["one_way_us_all"]["max"], 2 * 0.30 * 1.01)

    def test_ratios_keep_every_process(self):
        records = slow_rep_records()
        cells = floor.apply(compare.aggregate(records), records)
        raw = compare.find(cells, variant="boost/raw")[0]
        self.assertEqual(len(raw["per_rep_ratio"]), 3)

    def test_too_few_fast_processes_keep_all(self):
        records = [r for r in slow_rep_records() if r["rep"] != 0]
        cell = c_cell(records)
        self.assertEqual(cell["one_way_from"], "all processes")
        self.assertNotIn("one_way_us_all", cell)

    def test_records_without_floors_change_nothing(self):
        cell = c_cell(tiny_records())
        self.assertIsNone(cell["floor_us"])
        self.assertEqual(cell["one_way_from"], "all processes")


class Report(unittest.TestCase):
    def test_the_floor_is_noted_beside_absolute_tables(self):
        records = slow_rep_records()
        cells = floor.apply(compare.aggregate(records), records)
        table = p2p_tables.c_floor(cells)
        floor_report.annotate([table], cells)
        self.assertIn("0.210 µs to 0.450 µs", table.note)
        self.assertIn("2 of 2 cells had a process in the slow mode; 2 of them take their "
                      "absolute time from their fast-mode processes", table.note)

    def test_floor_table_counts_slow_processes(self):
        table = floor_report.floor_table(floor.summary(slow_rep_records()))
        self.assertEqual(table.rows, [["OpenMPI", "gcc", "3", "0.210 µs", "0.210 µs",
                                       "0.450 µs", "1"]])

    def test_the_slow_mode_is_one_line_its_processes_stay_in_the_json(self):
        summary = floor.summary(both_modes_records())
        line = floor_report.slow_line(summary)
        self.assertEqual(line, "Slow mode: 6 of 26 processes had a floor above 0.090 µs (2× "
                         "the run's fast floor, its 10th-percentile process floor, 0.045 µs); "
                         "the floors ran from 0.028 µs (best) over 0.059 µs (median) to "
                         "0.135 µs. Each slow-mode process is listed in results.json "
                         "(floor.slow).")
        self.assertEqual(len(summary["slow"]), 6)
        self.assertEqual(floor_report.slow_line(None), "No process measured its floor.")


# Process floors (µs) measured on this kind of machine (2 vCPUs). The fast mode (C one int
# one-way 0.15-0.31 µs): a lone lucky 0.028, most between 0.04 and 0.08, median near 0.058 (a
# full make bench from a fresh clone). The slow mode (0.4-0.7 µs): a sample of the 0.066 to
# 0.139 that processes of the same harness measured under load.
FAST_FLOORS = (0.028, 0.044, 0.045, 0.048, 0.05, 0.052, 0.054, 0.055, 0.056, 0.057, 0.058,
               0.058, 0.059, 0.06, 0.062, 0.064, 0.066, 0.07, 0.074, 0.08)
SLOW_FLOORS = (0.079, 0.085, 0.086, 0.096, 0.101, 0.102, 0.106, 0.111, 0.121, 0.126, 0.128,
               0.135)


def mode_records(floors, first_rep=0):
    """One c/int_buffer process per floor (before and after alike)."""
    records = [record("tiny", "openmpi", "gcc", "c/int_buffer", 1, first_rep + i)
               for i in range(len(floors))]
    return with_floors(records, {first_rep + i: (f, f) for i, f in enumerate(floors)})


def both_modes_records():
    """Most processes in the fast mode, the last few in the slow one."""
    return mode_records(FAST_FLOORS + SLOW_FLOORS[6:])


class Threshold(unittest.TestCase):
    def test_twice_the_fast_floor_separates_the_modes_of_a_mixed_run(self):
        summary = floor.summary(both_modes_records())
        self.assertAlmostEqual(summary["fast_floor_us"], 0.045)
        self.assertAlmostEqual(summary["threshold_us"], 0.09)
        self.assertEqual(sorted(s["floor_us"] for s in summary["slow"]), list(SLOW_FLOORS[6:]))

    def test_a_lone_lucky_process_does_not_make_the_fast_mode_slow(self):
        summary = floor.summary(mode_records(FAST_FLOORS))
        self.assertAlmostEqual(summary["best_us"], 0.028)
        self.assertEqual(summary["slow"], [])  # 1.5x the best (0.042) marked 19 of these 20

    def test_a_run_wholly_in_the_slow_mode_is_one_mode(self):
        summary = floor.summary(mode_records(SLOW_FLOORS))
        self.assertEqual(summary["slow"], [])
        self.assertAlmostEqual(summary["highest_us"], 0.135)


if __name__ == "__main__":
    unittest.main()
