"""The instruction half of the targets (core/instruction_targets.py) and the targets tables that
show it: the median over a target's counted cells is the median (with one cell per MPI, the mean
of the two, not the upper one, which is the worst), and the worst cell is a column of its own
that names the cell (issue 33)."""

import unittest

from wrapper_bench.core import instruction_targets
from wrapper_bench.suites.audit import path_tables
from wrapper_bench.suites.collectives import coll_report


def counted(variant, difference, mpi="openmpi", suite="tiny", count=1):
    """A row of doc["instructions"]: `difference` instructions over C per call."""
    return {"suite": suite, "mpi": mpi, "compiler": "gcc", "variant": variant,
            "baseline": "c/int_buffer", "count": count, "bytes": 4 * count, "ranks": 2,
            "instructions": 29 + difference, "c_instructions": 29.0, "difference": difference}


def timed(variant, ratio):
    """A tiny-suite cell of `variant` at `ratio` to C."""
    return {"suite": "tiny", "mpi": "openmpi", "compiler": "gcc", "variant": variant,
            "count": 1, "bytes": 4, "baseline": "c/int_buffer", "ratio_vs_c": {"median": ratio}}


class Figures(unittest.TestCase):
    def test_two_cells_give_the_mean_of_the_two_and_name_the_worst(self):
        part = {"rows": [counted("thinmpi/scalar", 2.0),
                         counted("thinmpi/scalar", 12.0, "mpich")]}
        figures = instruction_targets.target_figures(part, "thinmpi/scalar")
        self.assertEqual((figures.median, figures.worst), (7.0, 12.0))
        self.assertEqual(figures.worst_row["mpi"], "mpich")
        self.assertEqual(instruction_targets.columns(figures),
                         ["+7.0", "+12.0 (tiny, MPICH gcc, 4 B)"])

    def test_three_cells_give_the_middle_one(self):
        part = {"rows": [counted("thinmpi/scalar", 30.0, "mpich"),
                         counted("thinmpi/scalar", 1.0),
                         counted("thinmpi/scalar", 5.0, suite="sweep", count=1024)]}
        figures = instruction_targets.target_figures(part, "thinmpi/scalar")
        self.assertEqual((figures.median, figures.worst), (5.0, 30.0))
        self.assertEqual(instruction_targets.columns(figures),
                         ["+5.0", "+30.0 (tiny, MPICH gcc, 4 B)"])

    def test_no_counted_cell_gives_none(self):
        self.assertIsNone(instruction_targets.target_figures({"rows": []}, "thinmpi/scalar"))
        self.assertEqual(instruction_targets.columns(None), ["not counted", "—"])


class Tables(unittest.TestCase):
    def test_the_p2p_targets_judge_the_median_not_the_worst(self):
        # 2 on Open MPI, 12 on MPICH: the median is 7, within 10 of C; the worst is MPICH's 12
        part = {"rows": [counted("thinmpi/scalar", 2.0), counted("thinmpi/scalar", 12.0, "mpich")]}
        table = path_tables.thinmpi_targets([timed("thinmpi/scalar", 1.01)], part)
        self.assertEqual(table.headers[-3:], ["instructions over C per call (median)",
                                              "instructions over C, worst cell",
                                              "verdict (median)"])
        self.assertEqual(table.rows[0][-3:], ["+7.0", "+12.0 (tiny, MPICH gcc, 4 B)", "met"])

    def test_the_collectives_targets_judge_the_median_not_the_worst(self):
        def coll(variant, difference, mpi):
            return counted(variant, difference, mpi, suite="collectives")
        part = {"rows": [coll("thinmpi/allreduce/plus", 4.0, "openmpi"),
                         coll("thinmpi/allreduce/plus", 16.0, "mpich")]}
        table = coll_report.targets_table([], part)
        self.assertEqual(table.headers[-3:], ["instructions over C per call (median)",
                                              "instructions over C, worst cell",
                                              "verdict (median)"])
        self.assertEqual(table.rows[0][-3:],
                         ["+10.0", "+16.0 (allreduce/plus, MPICH gcc, 4 B)", "—"])
        part["rows"].append(coll("thinmpi/bcast/vector", 30.0, "openmpi"))
        cells = [{"api": "thinmpi", "op": "allreduce", "form": "plus",
                  "ratio": {"median": 1.0}}]
        (row,) = [r for r in coll_report.targets_table(cells, part).rows
                  if r[-3] == "+16.0"]
        self.assertEqual(row[-2:], ["+30.0 (bcast/vector, OpenMPI gcc, 4 B)",
                                    "not met (instructions: +16.0 over C per call, "
                                    "at most +10)"])


if __name__ == "__main__":
    unittest.main()
