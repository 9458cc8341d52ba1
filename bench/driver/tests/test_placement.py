"""Where the timed launches' buffers lie: with WB_ALIGN=1 every timed launch preloads
libwb_align.so into its ranks, no audit launch does; without it none does (core/placement.py;
docs/bench.md, "Where the buffers lie")."""

import os
import unittest
from pathlib import Path
from tempfile import TemporaryDirectory
from types import SimpleNamespace
from unittest import mock

from fixture_data import harness_build
from wrapper_bench import matrix, report
from wrapper_bench.core import harness, placement, runner
from wrapper_bench.suites.io import io_suite as ios
from wrapper_bench.suites.node import node_suite as ns


class Placement(unittest.TestCase):
    def setUp(self):
        folder = TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = Path(folder.name)
        for name in ("libwb_audit.so", "libwb_align.so", "wb_node", "wb_coll"):
            (self.folder / name).write_text("")
        self.audit = str(self.folder / "libwb_audit.so")
        switch = mock.patch.dict(os.environ, {"WB_ALIGN": "1"})
        switch.start()
        self.addCleanup(switch.stop)
        self.align = f"LD_PRELOAD={self.folder / 'libwb_align.so'}"

    def test_the_library_is_found_beside_a_build_and_can_be_turned_off(self):
        self.assertEqual(placement.rank_env(self.audit),
                         {"LD_PRELOAD": str(self.folder / "libwb_align.so")})
        self.assertEqual(placement.rank_env("/x/libwb_audit.so"), {})  # an older build
        self.assertEqual(placement.rank_env(""), {})
        for off in ({"WB_ALIGN": "0"}, {"WB_ALIGN": ""}):
            with mock.patch.dict(os.environ, off):
                self.assertEqual(placement.rank_env(self.audit), {})
                self.assertEqual(placement.description(self.audit), "glibc's malloc")

    def test_launches_inside_aligned_get_it_without_the_switch_and_are_counted(self):
        with mock.patch.dict(os.environ, {"WB_ALIGN": "0"}):
            with placement.aligned() as handed:
                self.assertEqual(placement.rank_env(self.audit),
                                 {"LD_PRELOAD": str(self.folder / "libwb_align.so")})
                self.assertEqual(placement.rank_env("/x/libwb_audit.so"), {})
                self.assertEqual(handed(), 1)
            self.assertEqual(placement.rank_env(self.audit), {})
            with placement.aligned() as handed:
                self.assertEqual(handed(), 0)

    def test_off_by_default(self):
        with mock.patch.dict(os.environ):
            del os.environ["WB_ALIGN"]
            self.assertEqual(placement.rank_env(self.audit), {})
            self.assertNotIn(self.align, harness.command(harness.CollJob(
                harness.CollBuild("openmpi", "gcc", "mpiexec.openmpi", ["/x/wb_coll"], [],
                                  self.audit), 2, 1, ("c/x",), 100, 20)))

    def test_the_report_says_where_the_buffers_lay(self):
        aligned = placement.description(self.audit)
        self.assertIn("page-aligned", aligned)
        self.assertIn("no libwb_align.so", placement.description("/x/libwb_audit.so"))
        self.assertIn("WB_ALIGN=1", aligned)
        lines = report.context_lines({"mpi": {"openmpi": "Open MPI v4.1.4"},
                                      "binding": {"openmpi": "core"},
                                      "placement": {"openmpi": aligned}})
        self.assertIn(f"(binding: core; buffers: {aligned}).", lines[2])

    def test_the_harness_preloads_it_into_timed_launches_not_audits(self):
        build = harness.CollBuild("openmpi", "gcc", "mpiexec.openmpi", [self.folder / "wb_coll"],
                                  [{"variant": "c/allreduce/sum", "api": "c",
                                    "program": False}], self.audit)
        timed, audit = harness.CollJob(build, 2, 1, ("c/allreduce/sum",), 100, 20), \
            harness.CollJob(build, 2, 8, ("c/allreduce/sum",), 20, 1, True)
        self.assertIn(self.align, harness.command(timed))
        line = harness.command(audit, "/tmp/a.jsonl")
        self.assertNotIn(self.align, line)
        self.assertIn(f"LD_PRELOAD={self.audit}", line)
        mpich = harness.CollJob(harness.CollBuild("mpich", "gcc", "mpiexec.mpich", ["/x/wb_coll"],
                                                  [], self.audit), 2, 1, ("c/x",), 100, 20)
        line = harness.command(mpich)
        self.assertEqual(line[line.index("-genv"):line.index("-genv") + 3],
                         ["-genv", "LD_PRELOAD", str(self.folder / "libwb_align.so")])

    def test_the_node_and_io_suites_preload_it(self):
        node = ns.NodeBuild("openmpi", "gcc", "mpirun.openmpi", str(self.folder / "wb_node"),
                            ns.LATENCY)
        self.assertIn(self.align, ns.command(ns.jobs_for(node, "quick")[0]))
        io_build = ios.IoBuild("openmpi", "gcc", "mpirun.openmpi", ("/x/wb_io",),
                               ("c/write_at", "thinmpi/write_at"), self.audit)
        jobs = ios.jobs_for(io_build, "quick", ["tmpfs"])
        self.assertIn(self.align, ios.command(jobs[0], "/d"))
        self.assertNotIn(self.align, ios.command(jobs[-1], "/d", "/tmp/a.jsonl"))

    def test_the_point_to_point_launches_preload_it_and_the_audit_does_not(self):
        launcher = runner.Launcher("openmpi", "mpirun.openmpi", ["wb_kernels"],
                                   audit_library=self.audit)
        build = harness_build()
        lines = []

        def run(command, **_):
            lines.append(command)
            return SimpleNamespace(returncode=0, stdout="", stderr="")
        with mock.patch.object(runner.subprocess, "run", run):
            runner.launch(launcher, matrix.Job("tiny", build, ("c/int_buffer",), 8,
                                               matrix.QUICK["tiny"]), 10)
            runner.launch(launcher, matrix.Job("audit", build, ("c/mprobe",), 8,
                                               matrix.QUICK["audit"]), 10)
        self.assertIn(self.align, lines[0])
        self.assertNotIn(self.align, lines[1])
        self.assertIn(f"LD_PRELOAD={self.audit}", lines[1])


if __name__ == "__main__":
    unittest.main()
