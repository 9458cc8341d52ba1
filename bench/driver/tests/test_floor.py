"""The physical floor: process floors, the slow mode, and absolute times from fast processes."""

import unittest

from fixture_data import record, tiny_records, with_floors
from wrapper_bench import compare, floor, floor_report, tables


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
        table = tables.c_floor(cells)
        floor_report.annotate([table], cells)
        self.assertIn("0.210 µs to 0.450 µs", table.note)
        self.assertIn("2 of 2 cells had a process in the slow mode; 2 of them take their "
                      "absolute time from their fast-mode processes", table.note)

    def test_floor_table_counts_slow_processes(self):
        table = floor_report.floor_table(floor.summary(slow_rep_records()))
        self.assertEqual(table.rows, [["OpenMPI", "gcc", "3", "0.210 µs", "0.210 µs",
                                       "0.450 µs", "1"]])
        self.assertIn("1 of 3 processes", table.note)


if __name__ == "__main__":
    unittest.main()
