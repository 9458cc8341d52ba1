"""The real OSU beside the OSU-compatible sweep: osu_latency's output, its pairing with an MPI,
its launches, and the table (fixture output in the format osu_latency prints); and OSU's
collective benchmarks beside the collectives suite (output in the format osu_allgather prints)."""

import stat
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from fixture_data import BASELINES, OSU_5_OUTPUT, OSU_7_OUTPUT, harness_build, record
from wrapper_bench import matrix
from wrapper_bench.core import compare, runner, tables
from wrapper_bench.core import osu as core_osu
from wrapper_bench.core import harness, harness_cells, harness_run, osu_programs
from wrapper_bench.suites.collectives import coll_report, osu_coll
from wrapper_bench.suites.osu import osu
from wrapper_bench.matrix import Build
from wrapper_bench.core.runner import Launcher
from wrapper_bench.core.session import Setup
from wrapper_bench.suites.osu import osu_tables


def osu_build(mpi="openmpi"):
    return Build(mpi, "osu", ((osu.VARIANT, 1, 0),), runner="osu")


def executable(path, text):
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


class Parse(unittest.TestCase):
    def test_osu_7_output(self):
        self.assertEqual(osu.parse_output(OSU_7_OUTPUT),
                         ("v7.4", [(1, 0.21), (2, 0.22), (4, 0.21)]))

    def test_osu_5_output(self):
        version, rows = osu.parse_output(OSU_5_OUTPUT)
        self.assertEqual(version, "v5.9")
        self.assertEqual(rows[-1], (1048576, 96.35))

    def test_nothing_parsed_from_an_error(self):
        self.assertEqual(osu.parse_output("This test requires exactly two processes\n"),
                         (None, []))

    def test_records_keep_only_the_jobs_size(self):
        job = matrix.Job("osu", osu_build(), (osu.VARIANT,), 2, matrix.QUICK["osu"])
        records = osu.records_from(osu.parse_output(OSU_7_OUTPUT)[1], job, "v7.4")
        self.assertEqual([(r["count"], r["one_way_us"]) for r in records], [(2, 0.22)])
        self.assertEqual(records[0]["variant"], "osu/osu_latency")


class Pairing(unittest.TestCase):
    def setUp(self):
        self.folder = Path(tempfile.mkdtemp())
        pt2pt = self.folder / "libexec" / "osu-micro-benchmarks" / "mpi" / "pt2pt"
        pt2pt.mkdir(parents=True)
        self.binary = executable(pt2pt / "osu_latency", "#!/bin/sh\n")

    def test_not_packaged_is_the_reason_without_osu(self):
        setup = Setup()
        with mock.patch.object(osu.shutil, "which", return_value=None):
            osu.add_osu(setup, ["openmpi", "mpich"], None)
        self.assertEqual([m["mpi"] for m in setup.missing], ["openmpi", "mpich"])
        self.assertIn("not packaged in Debian", setup.missing[0]["reason"])
        self.assertEqual(setup.builds, [])

    def test_an_osu_dir_is_searched_and_paired_by_ldd(self):
        setup = Setup()
        with mock.patch.object(osu, "linked_mpi", return_value="mpich"):
            osu.add_osu(setup, ["openmpi", "mpich"], [str(self.folder)])
        self.assertEqual([b.mpi for b in setup.builds], ["mpich"])
        launcher = setup.launchers[("mpich", "osu")]
        self.assertEqual((launcher.mpiexec, launcher.program), ("mpiexec.mpich",
                                                               [str(self.binary)]))
        self.assertIn("links mpich", setup.missing[0]["reason"])

    def test_mpi_named_dirs(self):
        self.assertEqual(core_osu.split_dirs(["mpich=/opt/osu", "/x"]),
                         ({"mpich": "/opt/osu"}, ["/x"]))


class Jobs(unittest.TestCase):
    def test_osu_latency_runs_only_in_the_osu_sweep(self):
        jobs = matrix.expand([harness_build(), osu_build()], matrix.Filters(), matrix.QUICK,
                             BASELINES)
        self.assertEqual({j.suite for j in jobs if j.build.runner == "osu"}, {"osu"})
        self.assertEqual(len([j for j in jobs if j.build.runner == "osu"]), 12)  # powers of 4
        jobs = matrix.expand([harness_build(), osu_build()], matrix.Filters(), matrix.FULL,
                             BASELINES)
        self.assertEqual(len([j for j in jobs if j.build.runner == "osu"]), 23)

    def test_each_size_runs_next_to_its_kernels(self):
        jobs = matrix.expand([harness_build(), osu_build()], matrix.Filters(suites=("osu",)),
                             matrix.QUICK, BASELINES)
        ordered = osu.interleave(jobs)
        self.assertEqual([(j.count, j.build.runner) for j in ordered[:4]],
                         [(1, "harness"), (1, "osu"), (4, "harness"), (4, "osu")])

    def test_arguments_are_one_size_with_osu_counts(self):
        job = matrix.Job("osu", osu_build(), (osu.VARIANT,), 64, matrix.QUICK["osu"])
        self.assertEqual(osu.arguments(job), ["-m", "64:64", "-i", "1000", "-x", "200"])

    def test_the_quick_run_makes_fewer_round_trips_from_1_mib_as_osu_and_the_kernels(self):
        def sizes(mode):
            jobs = matrix.expand([harness_build(), osu_build()],
                                 matrix.Filters(suites=("osu",)), mode, BASELINES)
            return {(j.build.runner, j.count): j for j in jobs}
        quick, full = sizes(matrix.QUICK), sizes(matrix.FULL)
        for kind in ("harness", "osu"):
            self.assertEqual([quick[(kind, n)].iterations for n in (262144, 1048576, 4194304)],
                             [1000, 200, 200])
            self.assertEqual(full[(kind, 4194304)].iterations, 1000)
        self.assertEqual(osu.arguments(quick[("osu", 4194304)]),
                         ["-m", "4194304:4194304", "-i", "200", "-x", "20"])
        self.assertIn("--warmup", args := runner.job_arguments(quick[("harness", 4194304)]))
        self.assertEqual(args[args.index("--warmup") + 1], "20")
        self.assertEqual(osu.arguments(full[("osu", 4194304)])[-1], "200")

    def test_launch_reads_the_output_of_the_launched_binary(self):
        folder = Path(tempfile.mkdtemp())
        fake_osu = executable(folder / "osu_latency",
                              "#!/bin/sh\necho '# OSU MPI Latency Test v7.4'\n"
                              "echo '# Size          Latency (us)'\necho \"$2\" | "
                              "sed 's/:.*//; s/$/                       0.25/'\n")
        mpiexec = executable(folder / "mpiexec", "#!/bin/sh\nwhile [ \"$1\" != \"" +
                             str(fake_osu) + "\" ]; do shift; done\nexec \"$@\"\n")
        launcher = Launcher("openmpi", str(mpiexec), [str(fake_osu)])
        job = matrix.Job("osu", osu_build(), (osu.VARIANT,), 8, matrix.QUICK["osu"])
        outcome = osu.launch(launcher, job, 30)
        self.assertIsNone(outcome.error)
        self.assertEqual([(r["count"], r["one_way_us"], r["osu_version"])
                          for r in outcome.records], [(8, 0.25, "v7.4")])

    def test_a_failing_osu_is_an_error(self):
        folder = Path(tempfile.mkdtemp())
        failing = executable(folder / "mpiexec", "#!/bin/sh\necho 'no ranks' >&2\nexit 1\n")
        job = matrix.Job("osu", osu_build(), (osu.VARIANT,), 8, matrix.QUICK["osu"])
        outcome = osu.launch(Launcher("mpich", str(failing), ["osu_latency"]), job, 30)
        self.assertEqual(outcome.error, "no ranks")


class Table(unittest.TestCase):
    def cells(self, with_osu):
        records = [record("osu", "openmpi", "gcc", "c/char_buffer", 8, rep) for rep in range(3)]
        if with_osu:
            job = matrix.Job("osu", osu_build(), (osu.VARIANT,), 8, matrix.QUICK["osu"])
            for rep in range(3):
                for r in osu.records_from([(8, 0.25)], job, "v7.4"):
                    r.update(suite="osu", mpi="openmpi", compiler="osu", job=job.key, rep=rep)
                    records.append(r)
        return compare.aggregate(records)

    def test_osu_c_and_c_over_osu_side_by_side(self):
        table = osu_tables.osu_tables(self.cells(True))[0]
        self.assertEqual(table.headers[:4], ["message size (bytes)", "OSU osu_latency (µs)",
                                             "C MPI (µs)", "C/OSU"])
        self.assertEqual(table.rows[0][:4], ["8", "0.25", "0.30", "1.20x"])

    def test_the_missing_osu_cell_is_named(self):
        table = osu_tables.osu_tables(self.cells(False))[0]
        self.assertEqual(table.rows[0][1], "—")
        self.assertIn("OSU: not run here", table.note)


OSU_ALLGATHER_FULL = """
# OSU MPI Allgather Latency Test v7.4
# Datatype: MPI_INT.
# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations  P50 Tail Lat(us)  P90 Tail Lat(us)  P99 Tail Lat(us)
4096                    3.71              3.52              3.90        1000              2.94              3.29              5.47
8192                    5.02              4.96              5.08        1000              4.90              5.10              9.00
"""  # noqa: E501 (OSU's own line)
OSU_BCAST_PLAIN = """# OSU MPI Broadcast Latency Test v7.3
# Datatype: MPI_CHAR.
# Size       Avg Latency(us)
4                       0.56
"""
HARNESS_C = [{"variant": v} for v in ("c/allreduce/sum", "c/allgather/builtin",
                                      "c/reduce_scatter_block/sum")]


def osu_coll_build(mpi="openmpi"):
    variants = [{"variant": f"osu/{op}/{name}", "api": "osu", "op": op, "form": name,
                 "baseline": None, "program": f"/osu/{name}", "compared_with": c_variant,
                 "benchmark": osu_coll.BENCHMARKS[op]}
                for op, (name, c_variant) in osu_coll.OPS.items()]
    return harness.CollBuild(mpi, "osu", f"mpiexec.{mpi}", [], variants)


def allgather_job():
    """OSU's osu_allgather at 4 KiB per rank, 1,000 calls."""
    return osu_programs.OsuCollJob(osu_coll_build(), "allgather", "/osu/osu_allgather", 1024,
                                   1000, benchmark=osu_coll.BENCHMARKS["allgather"])


def harness_job(mpi, count, compiler="gcc", ranks=2):
    build = harness.CollBuild(mpi, compiler, f"mpiexec.{mpi}", ["/x/wb_coll"], HARNESS_C)
    return harness.CollJob(build, ranks, count, tuple(v["variant"] for v in HARNESS_C), 1000, 20)


class CollectiveOutput(unittest.TestCase):
    def test_full_output_gives_average_minimum_and_maximum(self):
        parsed = osu_programs.parse_output(OSU_ALLGATHER_FULL)
        self.assertEqual((parsed["version"], parsed["datatype"]), ("v7.4", "MPI_INT"))
        self.assertEqual(parsed["rows"][1], {"size": 8192, "avg": 5.02, "min": 4.96,
                                             "max": 5.08, "p50": 4.90})

    def test_plain_output_has_only_the_average(self):
        parsed = osu_programs.parse_output(OSU_BCAST_PLAIN)
        self.assertEqual((parsed["version"], parsed["rows"]), ("v7.3", [
            {"size": 4, "avg": 0.56, "min": None, "max": None, "p50": None}]))

    def test_an_error_parses_to_nothing(self):
        self.assertEqual(osu_programs.parse_output("This test requires at least two processes\n"),
                         {"version": None, "datatype": None, "rows": []})

    def test_records_take_the_slowest_rank_as_the_harness_does(self):
        job = allgather_job()
        records = osu_programs.records_from(osu_programs.parse_output(OSU_ALLGATHER_FULL), job, 1)
        self.assertEqual(len(records), 1)
        self.assertEqual((records[0]["us"], records[0]["osu_avg_us"], records[0]["osu_p50_us"],
                          records[0]["bytes"]), (3.90, 3.71, 2.94, 4096))
        self.assertEqual((records[0]["variant"], records[0]["compiler"], records[0]["rep"]),
                         ("osu/allgather/osu_allgather", "osu", 1))

    def test_reduce_scatter_block_runs_at_the_whole_buffer(self):
        self.assertEqual(osu_coll.osu_size("reduce_scatter_block", 4096, 2), 8192)
        self.assertEqual(osu_coll.osu_size("allgather", 4096, 2), 4096)


class CollectiveJobs(unittest.TestCase):
    def test_command_is_one_size_in_ints_with_the_harness_counts(self):
        job = osu_programs.OsuCollJob(osu_coll_build("mpich"), "reduce_scatter_block",
                                      "/osu/osu_reduce_scatter_block", 1024, 200,
                                      benchmark=osu_coll.BENCHMARKS["reduce_scatter_block"])
        command = osu_programs.command(job)
        self.assertEqual(command[:3], ["mpiexec.mpich", "-n", "2"])
        self.assertEqual(command[-11:], ["/osu/osu_reduce_scatter_block", "-m", "8192:8192",
                                         "-i", "200", "-x", "20", "-T", "mpi_int", "-f", "-z"])

    def test_only_collectives_the_harness_runs_at_every_size(self):
        jobs = osu_programs.jobs_for(osu_coll_build(), "quick", (4, 1048576),
                                     {v["variant"] for v in HARNESS_C})
        self.assertEqual([(j.op, j.count, j.iterations) for j in jobs],
                         [("allreduce", 1, 5000), ("allgather", 1, 5000),  # as the harness's
                          ("reduce_scatter_block", 1, 5000), ("allreduce", 262144, 40),
                          ("allgather", 262144, 40), ("reduce_scatter_block", 262144, 40)])

    def test_each_size_follows_the_gcc_harness_launch_of_its_mpi(self):
        harness_jobs = [harness_job("openmpi", 1, "clang"), harness_job("openmpi", 1),
                        harness_job("openmpi", 1024), harness_job("openmpi", 1, ranks=4)]
        osu_jobs = osu_programs.jobs_for(osu_coll_build(), "quick", (4, 4096), {"c/allreduce/sum"})
        ordered = osu_programs.interleave(harness_jobs, osu_jobs)
        self.assertEqual([(j.build.compiler, j.count) for j in ordered[:5]],
                         [("clang", 1), ("gcc", 1), ("osu", 1), ("gcc", 1024), ("osu", 1024)])

    def test_smoke_runs_no_osu_and_a_missing_mpi_is_named(self):
        part = {"missing": []}
        self.assertEqual(osu_programs.add_jobs([], [(None, "mpich: none")], "smoke", (4,), part),
                         [])
        osu_programs.add_jobs([harness_job("openmpi", 1)], [(None, "mpich: none")], "quick", (4,),
                              part)
        self.assertEqual(part["missing"], ["mpich: none"])

    def test_programs_are_found_under_the_dir_and_paired_by_ldd(self):
        folder = Path(tempfile.mkdtemp())
        blocking = folder / "collective" / "blocking"
        blocking.mkdir(parents=True)
        executable(blocking / "osu_allreduce", "#!/bin/sh\n")
        setup = Setup()
        with mock.patch.object(osu_programs, "linked_mpi", return_value="mpich"):
            found = osu_programs.builds(setup, ["openmpi", "mpich"],
                                        [f"mpich={folder}", "openmpi=/nowhere"],
                                        osu_coll.BENCHMARKS, "collective benchmarks")
        self.assertIsNone(found[0][0])
        self.assertIn("openmpi: OSU collective benchmarks: none found", found[0][1])
        self.assertEqual([v["variant"] for v in found[1][0].variants],
                         ["osu/allreduce/osu_allreduce"])

    def test_the_suite_launches_osu_jobs_with_osus_launcher(self):
        job = allgather_job()
        part, failures = {"records": [], "audit": [], "failures": []}, []
        with mock.patch.object(osu_programs, "launch", return_value=([{"us": 1}], [], None)) as run:
            self.assertTrue(harness_run.run_job(job, 2, part, failures))
        self.assertEqual(run.call_count, 2)
        self.assertEqual(part["records"], [{"us": 1}, {"us": 1}])


class CollectiveTable(unittest.TestCase):
    def part(self):
        osu_job = allgather_job()
        records = []
        for rep in range(2):
            records += osu_programs.records_from(osu_programs.parse_output(OSU_ALLGATHER_FULL),
                                                 osu_job, rep)
            records.append({"variant": "c/allgather/builtin", "api": "c", "op": "allgather",
                            "form": "builtin", "baseline": None, "ranks": 2, "count": 1024,
                            "bytes": 4096, "iterations": 1000, "blocks": 2, "us": 4.0,
                            "block_us": [4.29, 4.29], "verified": True, "mpi": "openmpi",
                            "compiler": "gcc", "rep": rep, "job": "h"})
        return {"ranks": [2], "records": records, "audit": [],
                "cells": harness_cells.aggregate(records)}

    def test_osu_max_avg_and_c_over_osu(self):
        table = osu_coll.table(self.part())
        self.assertEqual(table.rows, [["allgather", "OpenMPI", "4 KiB", "3.90", "3.71", "2.94",
                                       "4.29", "1.10x", "1.46x"]])

    def test_the_section_appears_only_when_osu_ran(self):
        from wrapper_bench.report import Section

        titles = [s.title for s in coll_report.sections(self.part(), [], Section)]
        self.assertIn("Collectives: OSU's benchmarks beside the C cells", titles)
        part = self.part()
        part["cells"] = [c for c in part["cells"] if c["compiler"] != "osu"]
        self.assertIsNone(osu_coll.table(part))


if __name__ == "__main__":
    unittest.main()


class SetupBuildsWhatTheSuitesLaunch(unittest.TestCase):
    """bench/setup/build-osu.sh makes only the OSU programs in its list: each program a suite
    launches must be in it, or that suite's OSU column goes missing."""

    def test_the_list_holds_every_program_named(self):
        from wrapper_bench.suites.rma import rma_suite
        script = (Path(__file__).resolve().parents[2] / "setup" / "build-osu.sh").read_text()
        listed = set(script.split('programs="', 1)[1].split('"', 1)[0].split())
        named = {osu.VARIANT.split("/")[1]}
        named |= {program for program, _ in osu_coll.OPS.values()}
        named |= {benchmark.program for benchmark in rma_suite.OSU.values()}
        self.assertEqual(len(named), 13)
        self.assertEqual(named - listed, set())
        self.assertEqual(listed - named, set(), "built but never launched")
