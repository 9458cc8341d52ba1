"""Launch command lines: the right launcher flags for each MPI, and the job's arguments."""

import unittest

from fixture_data import BASELINES, harness_build
from wrapper_bench import matrix
from wrapper_bench.cli import split_job
from wrapper_bench.core.runner import Launcher, job_arguments


class Commands(unittest.TestCase):
    def test_openmpi_passes_variables_with_x_and_binds(self):
        launcher = Launcher("openmpi", "mpirun.openmpi", ["wb_kernels"])
        command = launcher.command(["--count", "1"], {"LD_PRELOAD": "a.so"})
        self.assertEqual(command, ["mpirun.openmpi", "-n", "2", "--bind-to", "core", "-x",
                                   "LD_PRELOAD=a.so", "wb_kernels", "--count", "1"])

    def test_mpich_uses_genv_and_can_skip_binding(self):
        launcher = Launcher("mpich", "mpiexec.mpich", ["wb_kernels"], bind=False)
        command = launcher.command([], {"WB_AUDIT_OUT": "/tmp/x"})
        self.assertEqual(command, ["mpiexec.mpich", "-n", "2", "-genv", "WB_AUDIT_OUT",
                                   "/tmp/x", "wb_kernels"])

    def test_timed_and_audit_arguments(self):
        build = harness_build()
        timed = matrix.Job("tiny", build, ("c/int_buffer",), 8, matrix.QUICK["tiny"])
        self.assertEqual(job_arguments(timed), ["--variants", "c/int_buffer", "--count", "8",
                                                "--warmup", "2000", "--iterations", "20000",
                                                "--blocks", "20"])
        audited = matrix.Job("audit", build, ("c/mprobe",), 8, matrix.QUICK["audit"])
        self.assertEqual(job_arguments(audited)[-2:], ["--audit", "100"])

    def test_a_failed_job_splits_into_variants_with_their_baselines(self):
        job = matrix.Job("tiny", harness_build(), ("c/int_buffer", "boost/raw", "boost/vector"),
                         8, matrix.QUICK["tiny"])
        parts = [p.variants for p in split_job(job, BASELINES)]
        self.assertEqual(parts, [("c/int_buffer", "boost/raw"), ("c/int_buffer", "boost/vector"),
                                 ("c/int_buffer",)])


if __name__ == "__main__":
    unittest.main()
