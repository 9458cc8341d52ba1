"""The Go kernel in the driver: its jobs, its registration (and GoMPI's missing cells), and its
tables, on fixture data."""

import json
import stat
import tempfile
import unittest
from pathlib import Path

from fixture_data import BASELINES, go_build, go_records, harness_build, record
from wrapper_bench import matrix
from wrapper_bench.core import compare
from wrapper_bench.suites.go import go_session, go_tables
from wrapper_bench.suites.osu import osu_tables
from wrapper_bench.core.session import Setup
from wrapper_bench.core import p2p_jobs


def expand(builds, **filters):
    return matrix.expand(builds, matrix.Filters(**filters), matrix.QUICK, BASELINES)


class Jobs(unittest.TestCase):
    def test_tiny_jobs_run_go_beside_the_c_it_is_compared_with(self):
        jobs = expand([go_build()], suites=("tiny",))
        self.assertEqual([j.count for j in jobs], [1, 8, 64, 8, 64])
        self.assertTrue({"go/int_slice_recv", "c/probe", "go/int_slice_prealloc",
                         "c/int_buffer"} <= set(jobs[0].variants))
        self.assertEqual(set(jobs[3].variants), {"go/byte_slice_prealloc", "c/char_buffer"})

    def test_sweep_and_osu(self):
        sweep = expand([go_build()], suites=("sweep",))
        self.assertEqual(len(sweep), len(p2p_jobs.SWEEP_BYTES))
        self.assertIn("go/int_slice_recv", sweep[-1].variants)
        osu = expand([go_build()], suites=("osu",))
        self.assertEqual(osu[0].variants, ("c/char_buffer", "go/byte_slice_prealloc"))

    def test_the_compiler_filter_keeps_the_go_kernel(self):
        jobs = expand([harness_build(), go_build()], compiler=("gcc",), suites=("tiny",))
        self.assertIn("go", {j.build.compiler for j in jobs})

    def test_the_api_filter(self):
        jobs = expand([go_build()], api=("thinmpi",), suites=("tiny",))
        self.assertFalse(any(n.startswith("go/") for j in jobs for n in j.variants))


def fake_kernel(folder):
    """A wb_go_kernel stand-in that answers --list and --info as the real one does."""
    lines = [json.dumps({"variant": v, "api": v.split("/")[0], "payload": v.split("/")[1],
                         "baseline": BASELINES.get(v), "element_bytes": b, "max_count": 0})
             for v, b in (("go/int_slice_prealloc", 4), ("c/int_buffer", 4))]
    script = folder / "wb_go_kernel"
    script.write_text("#!/bin/sh\nif [ \"$1\" = --info ]; then echo '{\"go\": \"go1.19.8\"}'; "
                      "exit 0; fi\ncat <<'EOF'\n" + "\n".join(lines) + "\nEOF\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


class Registration(unittest.TestCase):
    def setUp(self):
        self.repo = Path(tempfile.mkdtemp())
        self.bench = self.repo / "build" / "bench"
        self.bench.mkdir(parents=True)
        self.setup = Setup()
        self.setup.manifests[("openmpi", "gcc")] = {
            "mpiexec": "mpirun.openmpi", "audit_library": "libwb_audit.so",
            "c_kernels_library": str(self.bench / "libwb_ckernels.so"),
            "go_build_status": str(self.bench / "wb_go_build.json")}

    def status(self, **fields):
        (self.bench / "wb_go_build.json").write_text(json.dumps(fields))

    def test_a_built_kernel_is_a_go_build_with_its_baselines(self):
        self.status(ok=True, kernel=str(fake_kernel(self.bench)), go="go1.19.8")
        go_session.add_go(self.setup, self.repo, "openmpi")
        self.assertEqual([(b.mpi, b.compiler, b.runner) for b in self.setup.builds],
                         [("openmpi", "go", "go")])
        self.assertEqual(self.setup.baselines["go/int_slice_prealloc"], "c/int_buffer")
        self.assertEqual(self.setup.launchers[("openmpi", "go")].mpiexec, "mpirun.openmpi")
        self.assertEqual(self.setup.failures, [])

    def test_the_gompi_cells_are_named_when_gompi_could_not_be_fetched(self):
        self.status(ok=True, kernel=str(fake_kernel(self.bench)), go="go1.19.8")
        gompi = self.repo / "build" / "gompi-openmpi"
        gompi.mkdir(parents=True)
        (gompi / "status.json").write_text(json.dumps(
            {"ok": False, "reason": "go could not fetch github.com/sbromberger/gompi: no such "
                                    "host"}))
        go_session.add_go(self.setup, self.repo, "openmpi")
        self.assertEqual([(m["compiler"], m["api"]) for m in self.setup.missing],
                         [("gompi", "gompi")])
        self.assertIn("could not fetch", self.setup.missing[0]["reason"])

    def test_a_kernel_that_did_not_build_is_a_failure(self):
        self.status(ok=False, reason="go vet failed: could not determine kind of name")
        go_session.add_go(self.setup, self.repo, "openmpi")
        self.assertEqual(self.setup.builds, [])
        self.assertIn("go vet failed", self.setup.failures[0]["error"])

    def test_no_go_is_a_missing_cell(self):
        self.status(ok=False, reason="go is not installed (Debian: golang-go)")
        go_session.add_go(self.setup, self.repo, "openmpi")
        self.assertEqual(self.setup.failures, [])
        self.assertIn("go is not installed", self.setup.missing[0]["reason"])


class Tables(unittest.TestCase):
    def setUp(self):
        self.cells = compare.aggregate(go_records())

    def test_go_recv_is_compared_with_the_same_calls_in_c(self):
        cell = compare.find(self.cells, mpi="openmpi", variant="go/int_slice_recv", count=1)[0]
        self.assertEqual(cell["baseline"], "c/probe")
        self.assertAlmostEqual(cell["ratio_vs_c"]["median"], 2.0)

    def test_tiny_table_with_the_cost_of_not_knowing_the_size(self):
        table = go_tables.go_tiny(self.cells)
        recv = [row for row in table.rows if row[2] == "go/int_slice_recv"]
        self.assertEqual(len(recv), 2)
        self.assertEqual(recv[0][-1], "2.40×, 2.40×, 2.40×")
        self.assertIn("(2.00×)", recv[0][3])

    def test_osu_table_in_gompi_readme_format(self):
        records = [record("osu", "mpich", "go", v, 1, rep)
                   for rep in range(3) for v in ("c/char_buffer", "go/byte_slice_prealloc")]
        table = osu_tables.go_osu_tables(compare.aggregate(records))[0]
        self.assertEqual(table.headers[:4], ["message size (bytes)", "Go cgo (µs)",
                                             "C MPI (µs)", "difference"])
        self.assertEqual(table.rows, [["1", "0.36", "0.26", "1.4x", "—", "—"]])
        self.assertIn("GoMPI: not built here", table.note)


if __name__ == "__main__":
    unittest.main()
