"""Matrix expansion: which jobs the article's matrix becomes for a given set of builds."""

import ast
import unittest
from pathlib import Path

from fixture_data import BASELINES, HARNESS_VARIANTS, harness_build, mpi4py_build
from wrapper_bench import matrix
from wrapper_bench.core import jobs
from wrapper_bench.suites.serialization import serial_suite
from wrapper_bench.suites.audit import audit_jobs
from wrapper_bench.core import p2p_jobs


def expand(builds, **filters):
    return matrix.expand(builds, matrix.Filters(**filters), matrix.QUICK, BASELINES)


class TinyJobs(unittest.TestCase):
    def test_ints_and_chars_at_the_article_counts(self):
        jobs = expand([harness_build()], suites=("tiny",))
        self.assertEqual([j.count for j in jobs], [1, 8, 64, 8, 64])

    def test_scalar_variants_only_at_count_one(self):
        jobs = expand([harness_build()], suites=("tiny",))
        self.assertIn("boost/int", jobs[0].variants)
        self.assertNotIn("boost/int", jobs[1].variants)

    def test_baseline_runs_in_the_same_job(self):
        jobs = expand([harness_build()], suites=("tiny",), api=("boost",))
        for job in jobs:
            for name in job.variants:
                self.assertIn(BASELINES.get(name, name), job.variants)

    def test_mpi4py_has_no_string_tables(self):
        jobs = expand([mpi4py_build()], suites=("tiny",))
        self.assertEqual([j.count for j in jobs], [1, 8, 64])


class SweepJobs(unittest.TestCase):
    def test_sizes_and_adaptive_iterations(self):
        jobs = expand([harness_build()], suites=("sweep",))
        self.assertEqual([j.count * 4 for j in jobs], list(p2p_jobs.SWEEP_BYTES))
        self.assertEqual([j.iterations for j in jobs], [30000, 30000, 30000, 10000, 2000, 300])

    def test_full_counts_are_the_articles(self):
        self.assertEqual([p2p_jobs.sweep_iterations(30000, s) for s in p2p_jobs.SWEEP_BYTES],
                         [30000, 30000, 30000, 10000, 2000, 300])

    def test_mpi4py_objects_stop_at_4_kib(self):
        jobs = expand([mpi4py_build()], suites=("sweep",))
        with_objects = [j.count * 4 for j in jobs if "mpi4py/object" in j.variants]
        self.assertEqual(max(with_objects), 4096)

    def test_size_filter(self):
        jobs = expand([harness_build()], suites=("sweep",), sweep_bytes=(4, 4096))
        self.assertEqual([j.count for j in jobs], [1, 1024])


class OtherSuites(unittest.TestCase):
    def test_osu_runs_c_chars_from_1_byte_to_4_mib(self):
        jobs = matrix.expand([harness_build()], matrix.Filters(suites=("osu",)), matrix.FULL,
                             BASELINES)
        self.assertEqual(len(jobs), 23)
        jobs = expand([harness_build()], suites=("osu",))  # quick: every other power of two
        self.assertEqual([j.count for j in jobs], [4**k for k in range(12)])
        self.assertEqual((jobs[0].count, jobs[-1].count), (1, 4 << 20))
        self.assertEqual(jobs[0].variants, ("c/char_buffer",))

    def test_audit_scalars_at_one_others_at_eight(self):
        jobs = expand([harness_build()], suites=("audit",))
        self.assertEqual([(j.count, "boost/int" in j.variants) for j in jobs],
                         [(1, True), (8, False)])

    def test_audit_framed_variants_again_past_the_frame(self):
        variants = HARNESS_VARIANTS + (("c/framed", 4, 0), ("thinmpi/vector_framed", 4, 0),
                                       ("thinmpi/string_framed", 1, 0))
        jobs = expand([matrix.Build("openmpi", "gcc", variants)], suites=("audit",))
        self.assertEqual([j.count for j in jobs], [1, 8, audit_jobs.FRAMED_AUDIT_COUNT])
        self.assertEqual(jobs[-1].variants,
                         ("c/framed", "thinmpi/vector_framed", "thinmpi/string_framed"))


class Filters(unittest.TestCase):
    def test_mpi_and_compiler_filters(self):
        builds = [harness_build("openmpi", "gcc"), harness_build("mpich", "clang"),
                  mpi4py_build("mpich")]
        jobs = expand(builds, mpi=("mpich",), compiler=("clang",), suites=("tiny",))
        self.assertEqual({(j.build.mpi, j.build.compiler) for j in jobs},
                         {("mpich", "clang"), ("mpich", "python")})

    def test_api_filter_keeps_c(self):
        jobs = expand([harness_build()], api=("boost",), suites=("tiny",))
        names = {n for j in jobs for n in j.variants}
        self.assertTrue({"boost/vector", "c/int_buffer"} <= names)


class Modules(unittest.TestCase):
    def imported(self, module):
        """The wrapper_bench modules that `module` imports, at any depth of its code."""
        tree = ast.parse(Path(module.__file__).read_text())
        return {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} \
            | {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               and not node.module for alias in node.names}

    def test_the_serialization_suite_builds_on_jobs_not_on_the_matrix(self):
        self.assertNotIn("matrix", self.imported(serial_suite))
        self.assertIn("core.jobs", self.imported(serial_suite))
        self.assertNotIn("matrix", self.imported(jobs))
        self.assertIs(matrix.Job, jobs.Job)


if __name__ == "__main__":
    unittest.main()
