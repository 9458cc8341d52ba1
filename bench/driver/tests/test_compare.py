"""Aggregation: cells, spreads and same-process ratios from run records."""

import unittest

from fixture_data import audit_lines, record, tiny_records
from wrapper_bench.core import audit, compare


class Aggregate(unittest.TestCase):
    def setUp(self):
        self.cells = compare.aggregate(tiny_records())

    def cell(self, **wanted):
        found = compare.find(self.cells, **wanted)
        self.assertEqual(len(found), 1, wanted)
        return found[0]

    def test_one_cell_per_suite_mpi_compiler_variant_count(self):
        cell = self.cell(mpi="openmpi", compiler="gcc", variant="boost/vector", count=8)
        self.assertEqual(cell["reps"], 3)

    def test_median_min_max_across_repetitions(self):
        spread = self.cell(mpi="mpich", compiler="gcc", variant="c/int_buffer",
                           count=1)["one_way_us"]
        self.assertAlmostEqual(spread["median"], 0.26)
        self.assertAlmostEqual(spread["min"], 0.26 * 0.99)
        self.assertAlmostEqual(spread["max"], 0.26 * 1.01)

    def test_ratio_against_the_declared_baseline(self):
        ratio = self.cell(mpi="openmpi", compiler="gcc", variant="boost/vector",
                          count=1)["ratio_vs_c"]
        self.assertAlmostEqual(ratio["median"], 1.5)

    def test_c_mprobe_is_compared_with_the_known_count_receive(self):
        cell = self.cell(mpi="openmpi", compiler="gcc", variant="c/char_mprobe", count=8)
        self.assertEqual(cell["baseline"], "c/char_buffer")
        self.assertAlmostEqual(cell["ratio_vs_c"]["median"], 1.5)

    def test_ratio_only_within_one_launch(self):
        lone = [record("tiny", "openmpi", "gcc", "boost/vector", 1, 0)]
        lone[0]["job"] = "elsewhere"
        other = [record("tiny", "openmpi", "gcc", "c/int_buffer", 1, 0)]
        cells = compare.aggregate(lone + other)
        self.assertIsNone(compare.find(cells, variant="boost/vector")[0]["ratio_vs_c"])


class Audit(unittest.TestCase):
    def test_calls_per_one_way_message(self):
        counted = audit.calls_per_message(audit_lines(), 100)
        self.assertEqual(counted["boost/vector"]["calls"]["MPI_Send"], 1.0)
        self.assertEqual(counted["boost/string"]["calls"]["MPI_Alloc_mem"], 3.0)
        self.assertEqual(counted["boost/vector"]["bytes_per_message"], 32.0)

    def test_attach_audit_to_cells(self):
        cells = compare.aggregate(tiny_records())
        counted = audit.calls_per_message(audit_lines(), 100)
        rows = [{"mpi": "openmpi", "compiler": "gcc", "variant": v, **c}
                for v, c in counted.items()]
        compare.attach_audit(cells, rows)
        cell = compare.find(cells, mpi="openmpi", compiler="gcc", variant="boost/vector")[0]
        self.assertEqual(cell["calls_per_message"]["MPI_Mprobe"], 1.0)

    def test_object_file_to_variant(self):
        self.assertEqual(audit.object_variant("x/boost_vector.cpp.o"), "boost/vector")
        self.assertEqual(audit.object_variant("x/c_char_mprobe.c.o"), "c/char_mprobe")
        self.assertEqual(audit.object_variant("x/thinmpi_kernels.cpp.o"), "thinmpi/*")
        self.assertIsNone(audit.object_variant("x/c_variants.c.o"))

    def test_short_boost_names(self):
        name = ("boost::mpi::status boost::mpi::communicator::recv<boost::mpi::packed_iarchive>"
                "(int, int, boost::mpi::packed_iarchive&) const")
        self.assertEqual(audit.short_boost_name(name), "communicator::recv<packed_iarchive>")


if __name__ == "__main__":
    unittest.main()
