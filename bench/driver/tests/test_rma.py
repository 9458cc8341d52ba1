"""The rma suite on fixture data: its jobs, the per-rank audit, the report's tables, and the
mpi4py kernel's variants (listed without mpi4py)."""

import sys
import unittest
from types import SimpleNamespace

from wrapper_bench import cli, matrix
from wrapper_bench.core import harness
from wrapper_bench.suites.rma import rma_report, rma_suite
from wrapper_bench.report import Section

sys.path.insert(0, str(rma_suite.MPI4PY_KERNEL.parent))
import mpi4py_rma  # noqa: E402  (bench/kernels: the variant table needs no mpi4py)

VARIANTS = [{"variant": "c/put/lock_flush", "api": "c", "program": False},
            {"variant": "thinmpi/put/lock_flush", "api": "thinmpi", "program": False},
            {"variant": "c/fetch_and_op/lock_flush", "api": "c", "program": False},
            {"variant": "thinmpi/fetch_and_op/lock_flush", "api": "thinmpi", "program": False},
            {"variant": "c/rma_counter/program", "api": "c", "program": True},
            {"variant": "thinmpi/rma_counter/program", "api": "thinmpi", "program": True}]


def build():
    return harness.CollBuild("openmpi", "gcc", "mpiexec.openmpi", ["/x/wb_rma"], VARIANTS,
                             "/x/libwb_audit.so")


def record(variant, blocks, job="j", count=2, compiler="gcc", baseline=None):
    api, op, form = variant.split("/")
    return {"variant": variant, "api": api, "op": op, "form": form, "baseline": baseline,
            "ranks": 2, "count": count, "bytes": 4 * count, "iterations": 1000,
            "blocks": len(blocks), "us": sum(blocks) / len(blocks), "block_us": blocks,
            "verified": True, "mpi": "openmpi", "compiler": compiler, "rep": 0, "job": job}


def fixture_part():
    """One process: thinmpi's put 1.01x C, mpi4py's 4x its in-process C; the counter program
    1.05x; the audit finds thinmpi's put making C's calls, its counter one MPI_Allgather more."""
    records = [record("c/put/lock_flush", [0.20]),
               record("thinmpi/put/lock_flush", [0.202], baseline="c/put/lock_flush"),
               record("c/put/lock_flush", [0.25], job="py", compiler="python"),
               record("mpi4py/put/lock_flush", [1.0], job="py", compiler="python",
                      baseline="c/put/lock_flush"),
               record("c/rma_counter/program", [1000.0], job="p", count=1),
               record("thinmpi/rma_counter/program", [1050.0], job="p", count=1,
                      baseline="c/rma_counter/program")]
    lines = [{"label": "c/put/lock_flush", "rank": 0,
              "calls": {"MPI_Put": 20, "MPI_Win_flush": 20}},
             {"label": "thinmpi/put/lock_flush", "rank": 0,
              "calls": {"MPI_Put": 20, "MPI_Win_flush": 20}},
             {"label": "thinmpi/put/lock_flush", "rank": 1, "calls": {}},
             {"label": "c/rma_counter/program", "rank": 0, "calls": {"MPI_Allgather": 20}},
             {"label": "thinmpi/rma_counter/program", "rank": 0,
              "calls": {"MPI_Allgather": 40}}]
    job = harness.CollJob(build(), 2, 2, ("c/put/lock_flush",), 20, 1, True, "rma")
    part = {"ranks": [2], "records": records, "audit": rma_suite.audit_rows(job, lines),
            "failures": [], "missing": ["mpich: mpi4py: not found"], "notes": []}
    return rma_suite.recompute(part)


class Jobs(unittest.TestCase):
    def test_one_launch_per_size_the_atomics_in_the_first_then_programs_then_an_audit(self):
        jobs = rma_suite.jobs_for(build(), "quick")
        self.assertTrue(all(j.ranks == 2 and j.key.startswith("rma/") for j in jobs))
        timed = [j for j in jobs if not j.audit and j.count > 1]
        self.assertEqual([j.count for j in timed], [b // 4 for b in rma_suite.QUICK_RMA_BYTES])
        full = [j for j in rma_suite.jobs_for(build(), "full") if not j.audit and j.count > 1]
        self.assertEqual([j.count for j in full], [b // 4 for b in rma_suite.RMA_BYTES])
        self.assertIn("c/fetch_and_op/lock_flush", timed[0].variants)
        self.assertTrue(all("c/fetch_and_op/lock_flush" not in j.variants for j in timed[1:]))
        self.assertTrue(all("c/rma_counter/program" not in j.variants for j in timed))
        programs, audit = jobs[-2], jobs[-1]
        self.assertEqual(programs.variants, ("c/rma_counter/program",
                                             "thinmpi/rma_counter/program"))
        self.assertTrue(audit.audit)
        self.assertEqual(len(audit.variants), len(VARIANTS))

    def test_fewer_calls_for_large_operations_never_below_the_minimum(self):
        self.assertEqual(rma_suite.calls_at(20000, 8), 20000)
        self.assertEqual(rma_suite.calls_at(20000, 65536), 1250)
        self.assertEqual(rma_suite.calls_at(20000, 1048576), rma_suite.MIN_CALLS)

    def test_the_bandwidth_forms_run_apart_with_fewer_calls_from_64_kib(self):
        forms = [{"variant": f"{api}/accumulate/{form}", "api": api, "program": False}
                 for api in ("c", "thinmpi") for form in ("lock_flush", "bandwidth")]
        jobs = rma_suite.jobs_for(harness.CollBuild("mpich", "gcc", "mpiexec.mpich",
                                                    ["/x/wb_rma"], forms), "quick")
        timed = [(j.count, j.variants, j.iterations, j.key.rsplit("/", 1)[1])
                 for j in jobs if not j.audit]
        both = ("c/accumulate/lock_flush", "c/accumulate/bandwidth",
                "thinmpi/accumulate/lock_flush", "thinmpi/accumulate/bandwidth")
        self.assertEqual(timed, [
            (2, both, 5000, "n2"), (1024, both, 5000, "n1024"),
            (16384, ("c/accumulate/lock_flush", "thinmpi/accumulate/lock_flush"), 312, "n16384"),
            (16384, ("c/accumulate/bandwidth", "thinmpi/accumulate/bandwidth"),
             rma_suite.MIN_CALLS, "bandwidth")])
        self.assertEqual(len(jobs[-1].variants), 4)  # the audit has every one
        python = harness.CollBuild("mpich", "python", "mpiexec", ["python3"], forms)
        self.assertEqual([len(j.variants) for j in rma_suite.jobs_for(python, "quick")
                          if not j.audit], [4, 4, 4])  # its calls are the minimum already

    def test_the_mpi4py_kernel_makes_a_tenth_of_the_calls(self):
        python = harness.CollBuild("openmpi", "python", "mpiexec", ["python3"], VARIANTS)
        self.assertEqual(rma_suite.jobs_for(python, "quick")[0].iterations,
                         rma_suite.CALLS["quick"] // rma_suite.PYTHON_SHARE)

    def test_smoke_is_one_size_the_programs_and_the_audit(self):
        jobs = rma_suite.jobs_for(build(), "smoke", sizes=(4, 4096))
        self.assertEqual([(j.count, j.audit) for j in jobs], [(1, False), (1, False), (2, True)])
        self.assertEqual(jobs[1].iterations, rma_suite.PROGRAM_CALLS["smoke"])

    def test_api_filter_keeps_the_c_baselines(self):
        jobs = rma_suite.jobs_for(build(), "quick", api_filter=("mpi4py",))
        self.assertTrue(all(name.startswith("c/") for j in jobs for name in j.variants))

    def test_the_suite_is_in_the_default_matrix_and_the_cli(self):
        self.assertIn("rma", matrix.SUITES)
        self.assertNotIn("rma", matrix.SUITE_JOBS)
        self.assertIn("rma", cli.parse([]).suites)
        self.assertEqual(list(cli.parse(["--suites", "rma"]).suites), ["rma"])

    def test_builds_come_from_wb_rma_json_with_the_reason_when_missing(self):
        setup = SimpleNamespace(manifests={("openmpi", "gcc"): {}}, launchers={}, missing=[])
        options = SimpleNamespace(build_prefix="/nonexistent/", api=("thinmpi",))
        found = rma_suite.find_builds(setup, options)
        self.assertEqual(found, [(None, "openmpi-gcc: no wb_rma.json (rebuild the kernels)")])


class Cells(unittest.TestCase):
    def test_ratios_are_taken_inside_each_process(self):
        cells = {(c["variant"], c["compiler"]): c for c in fixture_part()["cells"]}
        self.assertAlmostEqual(cells[("thinmpi/put/lock_flush", "gcc")]["ratio"]["median"], 1.01)
        self.assertAlmostEqual(cells[("mpi4py/put/lock_flush", "python")]["ratio"]["median"],
                               4.0)

    def test_the_audit_is_per_call_and_per_rank(self):
        audit = fixture_part()["audit"]
        rows = {(r["variant"], r["rank"]): r["calls"] for r in audit}
        self.assertEqual(rows[("thinmpi/put/lock_flush", 0)],
                         {"MPI_Put": 1.0, "MPI_Win_flush": 1.0})
        self.assertNotIn(("thinmpi/put/lock_flush", 1), rows)  # no call on the target


class Report(unittest.TestCase):
    def test_paths_table_puts_c_thinmpi_and_mpi4py_side_by_side_with_the_calls(self):
        part = fixture_part()
        table = rma_report.paths_table(part["cells"], part["audit"])
        self.assertEqual(table.rows, [["put/lock_flush", "8 B", "OpenMPI", "gcc", "0.200 µs",
                                       "1.01x", "4.00x", "1 MPI_Put, 1 MPI_Win_flush",
                                       "same"]])

    def test_programs_table_names_calls_that_differ(self):
        part = fixture_part()
        table = rma_report.paths_table(part["cells"], part["audit"], programs=True)
        self.assertEqual(table.rows[0][:6], ["rma_counter/program", "—", "OpenMPI", "gcc",
                                             "1.00 ms", "1.05x"])
        self.assertEqual(table.rows[0][-1], "2 MPI_Allgather")

    def test_targets_split_operations_from_programs(self):
        rows = rma_report.targets_table(fixture_part()["cells"]).rows
        self.assertEqual(rows[0][2:4], ["1.010x", "1 of 1"])
        self.assertEqual(rows[1][2:], ["1.050x", "0 of 1", "1.05x"])

    def test_sections_name_what_is_missing(self):
        sections = rma_report.sections(fixture_part(), Section)
        self.assertEqual(len(sections), 2)
        self.assertIn("Missing: mpich: mpi4py: not found", sections[0].paragraphs)


class Mpi4pyKernel(unittest.TestCase):
    def test_every_python_variant_has_the_c_variant_of_its_path_as_baseline(self):
        for name, variant in mpi4py_rma.PYTHON_VARIANTS.items():
            self.assertEqual(variant.baseline, "c/" + name.split("/", 1)[1])
        self.assertIn("mpi4py/compare_and_swap/lock_flush", mpi4py_rma.PYTHON_VARIANTS)
        self.assertTrue(mpi4py_rma.PYTHON_VARIANTS["mpi4py/put/fence"].fence)


if __name__ == "__main__":
    unittest.main()
