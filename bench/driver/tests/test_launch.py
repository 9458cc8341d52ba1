"""runner.launch against a stand-in launcher (a small script that prints what a harness run
prints), and detect.json_lines: records read, failures and unverified payloads reported."""

import json
import os
import stat
import tempfile
import textwrap
import unittest
import unittest.mock
from pathlib import Path

from fixture_data import harness_build
from wrapper_bench import matrix
from wrapper_bench.core.detect import json_lines
from wrapper_bench.core.runner import Launcher, launch

# The stand-in for mpiexec: prints $FAKE_STDOUT, writes $FAKE_STDERR to stderr, writes the
# audit lines of $FAKE_AUDIT to the file named by `-genv WB_AUDIT_OUT <path>`, sleeps
# $FAKE_SLEEP seconds, and exits $FAKE_STATUS. Its arguments are saved to $FAKE_ARGS.
FAKE_MPIEXEC = textwrap.dedent("""\
    #!/usr/bin/env python3
    import json, os, sys, time
    args = sys.argv[1:]
    with open(os.environ["FAKE_ARGS"], "w") as handle:
        json.dump(args, handle)
    for i, arg in enumerate(args):
        if arg == "-genv" and args[i + 1] == "WB_AUDIT_OUT":
            with open(args[i + 2], "w") as handle:
                handle.write(os.environ.get("FAKE_AUDIT", ""))
    time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
    sys.stdout.write(os.environ.get("FAKE_STDOUT", ""))
    sys.stderr.write(os.environ.get("FAKE_STDERR", ""))
    sys.exit(int(os.environ.get("FAKE_STATUS", "0")))
    """)


def harness_line(variant, verified=True):
    return json.dumps({"variant": variant, "one_way_us": 0.3, "verified": verified})


class Launch(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        self.addCleanup(self.work.cleanup)
        script = Path(self.work.name) / "fake_mpiexec"
        script.write_text(FAKE_MPIEXEC)
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        self.args_file = Path(self.work.name) / "args.json"
        self.launcher = Launcher("mpich", str(script), ["wb_kernels"], bind=False,
                                 audit_library="/nowhere/libwb_audit.so")
        self.saved_env = dict(os.environ)
        self.addCleanup(self.restore_env)
        os.environ["FAKE_ARGS"] = str(self.args_file)

    def restore_env(self):
        os.environ.clear()
        os.environ.update(self.saved_env)

    def job(self, variants, suite="tiny"):
        return matrix.Job(suite, harness_build(), tuple(variants), 8, matrix.QUICK[suite])

    def run_fake(self, job, stdout="", stderr="", status=0, timeout=30, audit="", sleep=0):
        os.environ.update(FAKE_STDOUT=stdout, FAKE_STDERR=stderr, FAKE_STATUS=str(status),
                          FAKE_AUDIT=audit, FAKE_SLEEP=str(sleep))
        return launch(self.launcher, job, timeout)

    def test_verified_records_are_read_between_other_output(self):
        out = "\n".join(["# harness start", harness_line("c/int_buffer"), "noise {not json",
                         harness_line("c/mprobe"), ""])
        outcome = self.run_fake(self.job(["c/int_buffer", "c/mprobe"]), stdout=out)
        self.assertIsNone(outcome.error)
        self.assertEqual([r["variant"] for r in outcome.records], ["c/int_buffer", "c/mprobe"])
        args = json.loads(self.args_file.read_text())
        self.assertEqual(args[:3], ["-n", "2", "wb_kernels"])
        self.assertIn("--variants", args)
        self.assertEqual(args[args.index("--variants") + 1], "c/int_buffer,c/mprobe")

    def test_a_payload_that_did_not_verify_is_an_error_naming_it(self):
        out = "\n".join([harness_line("c/int_buffer"), harness_line("c/mprobe", verified=False)])
        outcome = self.run_fake(self.job(["c/int_buffer", "c/mprobe"]), stdout=out)
        self.assertEqual(outcome.error, "payload did not verify: c/mprobe")
        self.assertEqual(len(outcome.records), 2)  # kept, for the report to show

    def test_a_record_without_verified_counts_as_unverified(self):
        out = json.dumps({"variant": "c/int_buffer", "one_way_us": 0.3})
        outcome = self.run_fake(self.job(["c/int_buffer"]), stdout=out)
        self.assertEqual(outcome.error, "payload did not verify: c/int_buffer")

    def test_a_failing_run_reports_its_error_lines(self):
        outcome = self.run_fake(self.job(["c/int_buffer"]), stdout=harness_line("c/int_buffer"),
                                stderr="starting\nwb_kernels: MPI_Recv failed\n", status=3)
        self.assertEqual(outcome.error, "wb_kernels: MPI_Recv failed")

    def test_a_silent_failure_reports_its_status(self):
        outcome = self.run_fake(self.job(["c/int_buffer"]), status=5)
        self.assertEqual(outcome.error, "exit status 5")

    def test_missing_records_are_an_error_even_with_status_zero(self):
        outcome = self.run_fake(self.job(["c/int_buffer", "c/mprobe"]),
                                stdout=harness_line("c/int_buffer"), stderr="rank 1 error\n")
        self.assertEqual(outcome.error, "rank 1 error")

    def test_a_run_past_its_timeout_is_reported(self):
        outcome = self.run_fake(self.job(["c/int_buffer"]), sleep=5, timeout=0.5)
        self.assertTrue(outcome.error.startswith("timed out after 0 s: "), outcome.error)
        self.assertEqual(outcome.records, [])

    def test_an_audit_run_preloads_the_library_and_reads_its_lines(self):
        audit = json.dumps({"variant": "c/int_buffer", "calls": {"MPI_Send": 1}}) + "\n"
        outcome = self.run_fake(self.job(["c/int_buffer"], suite="audit"),
                                stdout=harness_line("c/int_buffer"), audit=audit)
        self.assertIsNone(outcome.error)
        self.assertEqual(outcome.audit_lines, [json.loads(audit)])
        args = json.loads(self.args_file.read_text())
        self.assertIn("LD_PRELOAD", args)
        self.assertEqual(args[args.index("LD_PRELOAD") + 1], "/nowhere/libwb_audit.so")
        path = args[args.index("WB_AUDIT_OUT") + 1]
        self.assertFalse(os.path.exists(path), "the audit file is removed once read")


class JsonLines(unittest.TestCase):
    def test_objects_one_per_line_other_lines_ignored(self):
        text = 'x\n  {"a": 1}  \n{"b": [2, 3]}\n{broken\n[1, 2]\n\n'
        self.assertEqual(json_lines(text), [{"a": 1}, {"b": [2, 3]}])

    def test_no_text(self):
        self.assertEqual(json_lines(None), [])
        self.assertEqual(json_lines(""), [])


if __name__ == "__main__":
    unittest.main()


class OpenMpiPml(unittest.TestCase):
    """The PML Open MPI picks, found once by a probe launch and named to every launch of a
    one-host run (cli.pin_openmpi_pml), never across hosts nor over the user's own choice."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.mpiexec = Path(self.dir.name) / "mpirun"
        self.mpiexec.write_text("#!/bin/sh\n[ \"$OMPI_MCA_pml_base_verbose\" = 10 ] && "
                                "echo \"[h:1] select: component ${PICK:-ob1} selected\" >&2\n"
                                "echo \"[h:1] selected ${PICK:-ob1} best priority 20\" >&2\n"
                                "exit ${STATUS:-0}\n")
        self.mpiexec.chmod(self.mpiexec.stat().st_mode | stat.S_IXUSR)
        saved = os.environ.pop("OMPI_MCA_pml", None)
        self.addCleanup(lambda: os.environ.pop("OMPI_MCA_pml", None) if saved is None
                        else os.environ.__setitem__("OMPI_MCA_pml", saved))

    def pin(self, hosts=None, env=()):
        from types import SimpleNamespace
        from wrapper_bench import cli
        from wrapper_bench.core.session import Setup
        setup = Setup()
        setup.launchers[("openmpi", "gcc")] = Launcher("openmpi", str(self.mpiexec), ["h"])
        with unittest.mock.patch.dict(os.environ, dict(env)):
            cli.pin_openmpi_pml(setup, SimpleNamespace(hosts=hosts, hostfile=None))
            return setup.context["pml"]["openmpi"], os.environ.get("OMPI_MCA_pml")

    def test_the_pick_is_read_from_the_verbose_output(self):
        from wrapper_bench.core.detect import chosen_pml
        env = dict(os.environ, PICK="ucx")
        self.assertEqual(chosen_pml([str(self.mpiexec)], env), "ucx")
        self.assertIsNone(chosen_pml([str(self.mpiexec)], dict(env, STATUS="1")))
        self.assertIsNone(chosen_pml([str(Path(self.dir.name) / "absent")], env))

    def test_one_host_names_the_pick_to_every_launch(self):
        said, pinned = self.pin()
        self.assertEqual(pinned, "ob1")
        self.assertTrue(said.startswith("ob1, its own pick"), said)

    def test_across_hosts_each_launch_picks(self):
        said, pinned = self.pin(hosts="cluster")
        self.assertIsNone(pinned)
        self.assertEqual(said, "each launch's own pick")

    def test_the_users_choice_is_kept(self):
        said, pinned = self.pin(env={"OMPI_MCA_pml": "cm"})
        self.assertEqual(pinned, "cm")
        self.assertEqual(said, "cm (OMPI_MCA_pml)")

    def test_a_probe_that_says_nothing_pins_nothing(self):
        said, pinned = self.pin(env={"STATUS": "3"})
        self.assertIsNone(pinned)
        self.assertIn("did not name one", said)
