"""OSU's one-sided latency tests beside the rma suite: their output (canned, in the format OSU
7.4 prints), their command lines, their place among the harness's launches, their records and
the rma report's OSU and C/OSU columns."""

import stat
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from wrapper_bench.core import harness, harness_run, osu_programs
from wrapper_bench.suites.rma import rma_report, rma_suite

PUT_FLUSH = """# OSU MPI_Put Latency Test v7.4
# Window creation: MPI_Win_allocate
# Synchronization: MPI_Win_flush
# Datatype: MPI_CHAR.
# Size          Latency (us)  P50 Tail Lat(us)  P90 Tail Lat(us)  P99 Tail Lat(us)
8                       0.19              0.11              0.15              0.17
"""
ACC_FENCE = """# OSU MPI_Accumulate latency Test v7.4
# Window creation: MPI_Win_allocate
# Synchronization: MPI_Win_fence
# Datatype: MPI_INT.
# Size          Latency (us)  P50 Tail Lat(us)  P90 Tail Lat(us)  P99 Tail Lat(us)
4096                   16.89             12.11             17.68             33.83
"""
CAS_FLUSH = """# OSU MPI_Compare_and_swap latency Test v7.4
# Window creation: MPI_Win_allocate
# Synchronization: MPI_Win_flush
# Datatype: MPI_INT.
# Size          Latency (us)  P50 Tail Lat(us)  P90 Tail Lat(us)  P99 Tail Lat(us)
4                       1.97              1.85              2.07              2.25
"""
PUT_PLAIN = """# OSU MPI_Put Latency Test v7.4
# Window creation: MPI_Win_allocate
# Synchronization: MPI_Win_fence
# Datatype: MPI_CHAR.
# Size          Latency (us)
8                       1.00
"""
C_VARIANTS = ("c/put/lock_flush", "c/put/fence", "c/accumulate/fence",
              "c/fetch_and_op/lock_flush", "c/compare_and_swap/lock_flush")


def osu_build(mpi="openmpi"):
    variants = [{"variant": b.variant, "api": "osu", "op": key, "form": b.form, "baseline": None,
                 "program": f"/osu/{b.program}", "compared_with": b.compared_with,
                 "benchmark": b} for key, b in rma_suite.OSU.items()]
    return harness.CollBuild(mpi, "osu", f"mpiexec.{mpi}", [], variants)


def osu_job(key, count, iterations=1000):
    b = rma_suite.OSU[key]
    return osu_programs.OsuCollJob(osu_build(), key, f"/osu/{b.program}", count, iterations,
                                   suite="rma", benchmark=b)


def rma_jobs():
    variants = [{"variant": v, "api": "c", "program": False} for v in C_VARIANTS]
    build = harness.CollBuild("openmpi", "gcc", "mpiexec.openmpi", ["/x/wb_rma"], variants)
    return rma_suite.jobs_for(build, "quick")


class Output(unittest.TestCase):
    def test_one_sided_columns_are_the_latency_and_the_percentiles(self):
        parsed = osu_programs.parse_output(PUT_FLUSH)
        self.assertEqual((parsed["version"], parsed["datatype"]), ("v7.4", "MPI_CHAR"))
        self.assertEqual(parsed["rows"], [{"size": 8, "avg": 0.19, "min": None, "max": None,
                                           "p50": 0.11}])

    def test_without_z_only_the_latency(self):
        self.assertEqual(osu_programs.parse_output(PUT_PLAIN)["rows"],
                         [{"size": 8, "avg": 1.0, "min": None, "max": None, "p50": None}])

    def test_records_double_the_fence_average_to_the_harness_round_trip(self):
        job = osu_job("accumulate/fence", 1024)
        records = osu_programs.records_from(osu_programs.parse_output(ACC_FENCE), job, 0)
        self.assertEqual(len(records), 1)
        r = records[0]
        self.assertEqual((r["variant"], r["op"], r["form"], r["compiler"], r["bytes"]),
                         ("osu/accumulate/fence", "accumulate", "fence", "osu", 4096))
        self.assertAlmostEqual(r["us"], 33.78)
        self.assertAlmostEqual(r["osu_p50_us"], 12.11)  # acc's percentiles are not halved
        self.assertEqual(r["compared_with"], "c/accumulate/fence")

    def test_the_atomics_print_one_int_beside_the_harness_8_byte_cell(self):
        job = osu_job("compare_and_swap/lock_flush", 2)
        records = osu_programs.records_from(osu_programs.parse_output(CAS_FLUSH), job, 0)
        self.assertEqual([(r["bytes"], r["osu_size"], r["us"]) for r in records],
                         [(8, 4, 1.97)])

    def test_a_size_osu_did_not_print_gives_no_record(self):
        self.assertEqual(osu_programs.records_from(osu_programs.parse_output(PUT_FLUSH),
                                                   osu_job("put/lock_flush", 1024), 0), [])


class Commands(unittest.TestCase):
    def test_put_with_lock_and_flush_on_an_allocated_window(self):
        command = osu_programs.command(osu_job("put/lock_flush", 2, 20000))
        self.assertEqual(command[3:], ["--bind-to", "core", "/osu/osu_put_latency", "-m", "8:8",
                                       "-i", "20000", "-x", "2000", "-w", "allocate", "-s",
                                       "flush", "-z"])

    def test_accumulate_in_ints_and_the_atomics_on_a_4_kib_window(self):
        self.assertEqual(osu_programs.command(osu_job("accumulate/fence", 16))[-8:],
                         ["-x", "100", "-w", "allocate", "-s", "fence", "-T", "mpi_int", "-z"][1:])
        command = osu_programs.command(osu_job("fetch_and_op/lock_flush", 2))
        self.assertIn("/osu/osu_fop_latency", command)
        self.assertEqual(command[command.index("-m") + 1], "4096:4096")

    def test_flush_and_fence_launches_have_their_own_keys(self):
        self.assertNotEqual(osu_job("put/lock_flush", 2).key, osu_job("put/fence", 2).key)
        self.assertTrue(osu_job("put/fence", 2).key.startswith("rma/osu/openmpi/np2/"))


class Jobs(unittest.TestCase):
    def options(self, **kwargs):
        return SimpleNamespace(**{"sizes": None, "api": None, "osu_dir": ["openmpi=/osu"],
                                  **kwargs})

    def add(self, jobs, mode="quick", **kwargs):
        part = {"missing": []}
        with mock.patch.object(rma_suite, "osu_builds", return_value=[(osu_build(), None)]):
            return rma_suite.add_osu_jobs(jobs, None, self.options(**kwargs), mode, part)

    def test_each_size_follows_its_harness_launch_with_the_variants_it_runs_there(self):
        jobs = self.add(rma_jobs())
        shown = [(j.count, j.spec.variant if osu_programs.is_osu(j) else "harness") for j in jobs]
        self.assertEqual(shown[:6], [(2, "harness"), (2, "osu/put/lock_flush"),
                                     (2, "osu/put/fence"), (2, "osu/accumulate/fence"),
                                     (2, "osu/fetch_and_op/lock_flush"),
                                     (2, "osu/compare_and_swap/lock_flush")])
        atomics = [j for j in jobs if osu_programs.is_osu(j) and j.spec.op in rma_suite.ATOMIC_OPS]
        self.assertEqual([j.count for j in atomics], [2, 2])  # the first size only
        get = [j for j in jobs if osu_programs.is_osu(j) and j.spec.op == "get"]
        self.assertEqual(get, [])  # the harness runs no get here

    def test_osu_makes_the_harness_calls_per_size(self):
        jobs = [j for j in self.add(rma_jobs()) if osu_programs.is_osu(j)]
        self.assertEqual({j.count: j.iterations for j in jobs},
                         {b // 4: rma_suite.calls_at(rma_suite.CALLS["quick"], b)
                          for b in rma_suite.QUICK_RMA_BYTES})

    def test_no_osu_in_the_smoke_run_nor_without_the_osu_api(self):
        jobs = rma_jobs()
        self.assertEqual(self.add(jobs, "smoke"), jobs)
        self.assertEqual(rma_suite.osu_builds(None, self.options(api=("thinmpi",))), [])

    def test_the_one_sided_programs_are_found_and_paired_by_ldd(self):
        folder = Path(tempfile.mkdtemp()) / "mpi" / "one-sided"
        folder.mkdir(parents=True)
        for name in ("osu_put_latency", "osu_cas_latency"):
            (folder / name).write_text("#!/bin/sh\n")
            (folder / name).chmod((folder / name).stat().st_mode | stat.S_IXUSR)
        setup = SimpleNamespace(manifests={("openmpi", "gcc"): {"mpiexec": "mpirun.openmpi"},
                                           ("mpich", "gcc"): {"mpiexec": "mpiexec.mpich"}})
        options = self.options(osu_dir=[f"openmpi={folder.parent.parent}", "mpich=/nowhere"])
        with mock.patch.object(osu_programs, "linked_mpi", return_value="openmpi"):
            found = rma_suite.osu_builds(setup, options)
        self.assertEqual([v["variant"] for v in found[0][0].variants],
                         ["osu/put/lock_flush", "osu/put/fence",
                          "osu/compare_and_swap/lock_flush"])
        self.assertIn("mpich: OSU one-sided latency tests: none found", found[1][1])

    def test_the_suite_launches_osu_jobs_with_osus_launcher(self):
        part, failures = {"records": [], "audit": [], "failures": []}, []
        with mock.patch.object(osu_programs, "launch", return_value=([{"us": 1}], [], None)) as run:
            self.assertTrue(harness_run.run_job(osu_job("put/fence", 2), 2, part, failures,
                                                rma_suite.audit_rows))
        self.assertEqual(run.call_count, 2)


def c_record(variant, us, count, compiler="gcc", rep=0):
    api, op, form = variant.split("/")
    return {"variant": variant, "api": api, "op": op, "form": form, "baseline": None,
            "ranks": 2, "count": count, "bytes": 4 * count, "iterations": 1000, "blocks": 1,
            "us": us, "block_us": [us], "verified": True, "mpi": "openmpi",
            "compiler": compiler, "rep": rep, "job": f"h{compiler}{count}{rep}"}


class Report(unittest.TestCase):
    def part(self, with_osu=True):
        records = [c_record("c/put/lock_flush", 0.20, 2), c_record("c/put/lock_flush", 0.22, 2,
                                                                    "clang"),
                   c_record("c/compare_and_swap/lock_flush", 2.0, 2)]
        if with_osu:
            for rep in range(2):
                records += osu_programs.records_from(osu_programs.parse_output(PUT_FLUSH),
                                                     osu_job("put/lock_flush", 2), rep)
                records += osu_programs.records_from(osu_programs.parse_output(CAS_FLUSH),
                                                     osu_job("compare_and_swap/lock_flush", 2), rep)
        return rma_suite.recompute({"ranks": [2], "records": records, "audit": []})

    def test_osu_and_c_over_osu_beside_the_c_cell_of_every_compiler(self):
        part = self.part()
        table = rma_report.paths_table(part["cells"], [], records=part["records"])
        self.assertEqual(table.headers[4:9], ["C", "OSU", "OSU P50", "C/OSU", "C/OSU P50"])
        self.assertEqual([row[:9] for row in table.rows], [
            ["compare_and_swap/lock_flush", "8 B", "OpenMPI", "gcc", "2.000 µs", "1.970 µs",
             "1.850 µs", "1.02x", "1.08x"],
            ["put/lock_flush", "8 B", "OpenMPI", "clang", "0.220 µs", "0.190 µs", "0.110 µs",
             "1.16x", "2.00x"],
            ["put/lock_flush", "8 B", "OpenMPI", "gcc", "0.200 µs", "0.190 µs", "0.110 µs",
             "1.05x", "1.82x"]])
        self.assertIn("OSU 7.4", table.note)

    def test_the_sections_pass_the_records_for_osus_median_call(self):
        from wrapper_bench.report import Section

        table = rma_report.sections(self.part(), Section)[0].tables[1]
        self.assertEqual(table.rows[-1][6], "0.110 µs")

    def test_no_osu_columns_where_osu_did_not_run(self):
        table = rma_report.paths_table(self.part(False)["cells"], [])
        self.assertNotIn("OSU", table.headers)
        self.assertEqual(len(table.rows[0]), len(table.headers))

    def test_osu_cells_do_not_count_against_thinmpis_target(self):
        rows = rma_report.targets_table(self.part()["cells"]).rows
        self.assertEqual(rows[0][3], "no cells")


if __name__ == "__main__":
    unittest.main()
