"""The real OSU beside the OSU-compatible sweep: osu_latency's output, its pairing with an MPI,
its launches, and the table (fixture output in the format osu_latency prints)."""

import stat
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from fixture_data import BASELINES, OSU_5_OUTPUT, OSU_7_OUTPUT, harness_build, record
from wrapper_bench import compare, matrix, osu, tables
from wrapper_bench.matrix import Build
from wrapper_bench.runner import Launcher
from wrapper_bench.session import Setup


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
        self.assertEqual(osu.split_dirs(["mpich=/opt/osu", "/x"]), ({"mpich": "/opt/osu"},
                                                                    ["/x"]))


class Jobs(unittest.TestCase):
    def test_osu_latency_runs_only_in_the_osu_sweep(self):
        jobs = matrix.expand([harness_build(), osu_build()], matrix.Filters(), matrix.QUICK,
                             BASELINES)
        self.assertEqual({j.suite for j in jobs if j.build.runner == "osu"}, {"osu"})
        self.assertEqual(len([j for j in jobs if j.build.runner == "osu"]), 23)

    def test_each_size_runs_next_to_its_kernels(self):
        jobs = matrix.expand([harness_build(), osu_build()], matrix.Filters(suites=("osu",)),
                             matrix.QUICK, BASELINES)
        ordered = osu.interleave(jobs)
        self.assertEqual([(j.count, j.build.runner) for j in ordered[:4]],
                         [(1, "harness"), (1, "osu"), (2, "harness"), (2, "osu")])

    def test_arguments_are_one_size_with_osu_counts(self):
        job = matrix.Job("osu", osu_build(), (osu.VARIANT,), 64, matrix.QUICK["osu"])
        self.assertEqual(osu.arguments(job), ["-m", "64:64", "-i", "1000", "-x", "200"])

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
        table = tables.osu_tables(self.cells(True))[0]
        self.assertEqual(table.headers[:4], ["message size (bytes)", "OSU osu_latency (µs)",
                                             "C MPI (µs)", "C/OSU"])
        self.assertEqual(table.rows[0][:4], ["8", "0.25", "0.30", "1.20x"])

    def test_the_missing_osu_cell_is_named(self):
        table = tables.osu_tables(self.cells(False))[0]
        self.assertEqual(table.rows[0][1], "—")
        self.assertIn("OSU: not run here", table.note)


if __name__ == "__main__":
    unittest.main()
