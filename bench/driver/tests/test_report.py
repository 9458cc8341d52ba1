"""Schema, conclusions and rendering on fixture data."""

import json
import tempfile
import unittest
from unittest import mock
from pathlib import Path
from types import SimpleNamespace

from fixture_data import audit_lines, record, sweep_records, tiny_records
from wrapper_bench.core import audit, build, compare, schema
from wrapper_bench.suites.audit import path_tables
from wrapper_bench.core import harness_run
from wrapper_bench.core.jobs import Build
from wrapper_bench.core.session import Setup
from wrapper_bench.suites.p2p import charts, conclusions, partitioned, tables
from wrapper_bench.render_html import render_html
from wrapper_bench.render_md import render_md

CONTEXT = {"date": "2026-01-01", "cpu_model": "test", "cpu_count": 2, "os": "Debian",
           "mode": "quick", "mpi": {"openmpi": "Open MPI v4.1.4"}, "compilers": {},
           "boost": {}, "mpi4py": {}, "binding": {"openmpi": "core"}}


def fixture_document():
    cells = compare.aggregate(tiny_records() + sweep_records())
    counted = audit.calls_per_message(audit_lines(), 100)
    rows = [{"mpi": m, "compiler": "gcc", "variant": v, "count": 8, "round_trips": 100,
             "calls": c["calls"], "bytes_per_message": c["bytes_per_message"]}
            for m in ("openmpi", "mpich") for v, c in counted.items()]
    compare.attach_audit(cells, rows)
    missing = [{"mpi": "mpich", "compiler": "python", "api": "mpi4py", "reason": "404"}]
    failures = [{"what": "tiny/x", "mpi": "mpich", "compiler": "gcc", "error": "boom"}]
    return schema.document(dict(CONTEXT), cells, rows, [], missing, failures)


def framed_cell(mpi, size, ratio):
    return {"suite": "sweep", "mpi": mpi, "compiler": "gcc", "variant": "thinmpi/vector_framed",
            "bytes": size, "baseline": "c/int_buffer", "ratio_vs_c": {"median": ratio}}


class Targets(unittest.TestCase):
    def test_the_framed_protocol_has_a_target_per_size_range(self):
        cells = [framed_cell("openmpi", 4, 1.04), framed_cell("mpich", 4096, 1.08),
                 framed_cell("openmpi", 32768, 3.0), framed_cell("openmpi", 65536, 1.01),
                 framed_cell("mpich", 1 << 20, 1.10)]
        rows = path_tables.thinmpi_targets(cells).rows
        self.assertEqual([r[0] for r in rows], ["thinmpi/vector_framed (up to 4 KiB)",
                                                "thinmpi/vector_framed (64 KiB and up)"])
        self.assertEqual([r[2] for r in rows], ["≤ 1.05×", "≤ 1.02×"])
        self.assertEqual([r[4] for r in rows], ["1 of 2", "1 of 2"])
        self.assertIn("MPICH gcc 4096 B", rows[0][5])
        self.assertIn("MPICH gcc 1048576 B", rows[1][5])

    def test_the_framed_receive_is_also_held_to_the_same_protocol_in_c(self):
        mine = dict(framed_cell("openmpi", 4, 1.20), per_rep_ratio=[1.20, 1.32, 1.10])
        theirs = dict(framed_cell("openmpi", 4, 1.15), variant="c/framed",
                      per_rep_ratio=[1.20, 1.20, 1.00])
        table = path_tables.thinmpi_targets([mine, theirs])
        row = table.rows[-1]
        self.assertEqual(row[:3], ["thinmpi/vector_framed (the same protocol in C)", "c/framed",
                                   "≤ 1.02×"])
        self.assertEqual(row[3], "1.10×")  # per process: 1.00, 1.10, 1.10
        self.assertEqual((row[4], row[-1]), ("0 of 1", "not met"))
        self.assertEqual(table.title, "thinmpi against its targets (docs/bench.md)")


class Persistent(unittest.TestCase):
    def setUp(self):
        persistent = ("c/int_buffer", "c/persistent", "thinmpi/persistent")
        built = {"openmpi": persistent,
                 "mpich": persistent + ("c/partitioned", "thinmpi/partitioned")}
        self.cells = compare.aggregate([
            record("tiny", mpi, "gcc", variant, count, rep)
            for mpi, variants in built.items() for rep in range(3) for count in (1, 8, 64)
            for variant in variants])

    def test_c_against_the_ping_pong_before_it_and_thinmpi_against_its_c(self):
        for variant, baseline, ratio in (("c/persistent", "c/int_buffer", 1.4),
                                         ("thinmpi/persistent", "c/persistent", 1.01),
                                         ("c/partitioned", "c/persistent", 1.5),
                                         ("thinmpi/partitioned", "c/partitioned", 1.02)):
            cell = compare.find(self.cells, mpi="mpich", variant=variant, count=8)[0]
            self.assertEqual(cell["baseline"], baseline)
            self.assertAlmostEqual(cell["ratio_vs_c"]["median"], ratio)

    def test_its_table_has_a_row_per_variant_and_its_target_is_judged(self):
        table = tables.persistent_table(self.cells)
        self.assertEqual([row[2] for row in table.rows if row[0] == "OpenMPI"],
                         ["c/persistent", "thinmpi/persistent"])
        self.assertEqual([row[2] for row in table.rows if row[0] == "MPICH"],
                         ["c/persistent", "thinmpi/persistent", "c/partitioned",
                          "thinmpi/partitioned"])
        self.assertIn("(1.01×)", table.rows[1][3])
        self.assertIn("(1.02×)", table.rows[-1][3])
        self.assertIn("c/partitioned against c/persistent", table.note)
        row = next(r for r in path_tables.thinmpi_targets(self.cells).rows
                   if r[0] == "thinmpi/persistent")
        self.assertEqual((row[1], row[2], row[4], row[-1]),
                         ("c/persistent", "≤ 1.02×", "6 of 6", "met"))


class PartitionedMissing(unittest.TestCase):
    """An MPI-3.1 build (Open MPI 4.1) has no partitioned rows: a missing cell with the reason."""

    def setup_with(self, mpi, variants, thinmpi=True):
        setup = Setup()
        setup.builds.append(Build(mpi, "gcc", tuple((v, 4, 0) for v in variants)))
        setup.manifests[(mpi, "gcc")] = {"harness": f"{mpi}/wb_kernels", "thinmpi": thinmpi}
        return setup

    @staticmethod
    def info(standard):
        return lambda harness: {"mpi_standard": standard}

    def test_an_mpi_3_1_build_lists_both_rows_as_missing_with_the_reason(self):
        setup = self.setup_with("openmpi", ("c/persistent", "thinmpi/persistent"))
        partitioned.note_missing(setup, info=self.info("3.1"))
        self.assertEqual(len(setup.missing), 1)
        entry = setup.missing[0]
        self.assertEqual((entry["mpi"], entry["compiler"], entry["api"]),
                         ("openmpi", "gcc", "c/partitioned, thinmpi/partitioned"))
        self.assertIn("MPI 3.1", entry["reason"])
        self.assertIn("MPI-4", entry["reason"])

    def test_an_mpi_4_build_with_the_rows_misses_nothing(self):
        setup = self.setup_with("mpich", partitioned.VARIANTS)
        partitioned.note_missing(setup, info=self.info("4.0"))
        self.assertEqual(setup.missing, [])

    def test_an_mpi_4_build_without_them_is_to_be_rebuilt(self):
        setup = self.setup_with("mpich", ("c/persistent",))
        partitioned.note_missing(setup, info=self.info("4.0"))
        self.assertIn("rebuild", setup.missing[0]["reason"])

    def test_thinmpi_left_out_by_the_api_filter_or_the_build_is_not_listed_again(self):
        for api, thinmpi in ((("c",), True), (None, False)):
            setup = self.setup_with("openmpi", ("c/persistent",), thinmpi)
            partitioned.note_missing(setup, api, info=self.info("3.1"))
            self.assertEqual([m["api"] for m in setup.missing], ["c/partitioned"])


class Schema(unittest.TestCase):
    def test_fixture_document_is_valid(self):
        self.assertEqual(schema.validate(fixture_document()), [])

    def test_round_trips_through_json(self):
        doc = json.loads(json.dumps(fixture_document()))
        self.assertEqual(schema.validate(doc), [])

    def test_problems_are_named(self):
        doc = fixture_document()
        del doc["context"]["cpu_model"]
        doc["cells"][0]["one_way_us"] = {"median": 2, "min": 3, "max": 4}
        problems = schema.validate(doc)
        self.assertTrue(any("cpu_model" in p for p in problems))
        self.assertTrue(any("min <= median" in p for p in problems))

    def test_csv_has_one_row_per_cell(self):
        doc = fixture_document()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "results.csv"
            schema.write_csv(doc, path)
            lines = path.read_text().splitlines()
        self.assertEqual(len(lines), len(doc["cells"]) + 1)
        self.assertIn("ratio_vs_c_median", lines[0])


class Conclusions(unittest.TestCase):
    def setUp(self):
        doc = fixture_document()
        self.found = conclusions.conclusions(doc["cells"], doc["audit"])

    def test_six_in_the_articles_order(self):
        self.assertEqual([c["number"] for c in self.found], [1, 2, 3, 4, 5, 6])

    def test_verdicts_on_the_fixture(self):
        verdicts = [c["verdict"] for c in self.found]
        self.assertEqual(verdicts, [conclusions.HOLDS, conclusions.HOLDS, conclusions.HOLDS,
                                    conclusions.PARTLY, conclusions.HOLDS, conclusions.HOLDS])

    def test_audit_contradiction_is_explained_with_counts(self):
        evidence = self.found[3]["evidence"]
        self.assertIn("contradicts", evidence)
        self.assertIn("1 MPI_Mprobe", evidence)

    def test_nothing_measured(self):
        verdicts = {c["verdict"] for c in conclusions.conclusions([], [])}
        self.assertEqual(verdicts, {conclusions.UNKNOWN})


class Rendering(unittest.TestCase):
    def test_markdown_and_html(self):
        doc = fixture_document()
        with tempfile.TemporaryDirectory() as folder:
            drawn = charts.draw_all(doc["cells"], Path(folder))
            names = {name for _, name in drawn}
            self.assertTrue({"tiny_openmpi.png", "tiny_mpich.png", "sweep_mpich.png"} <= names)
            markdown = render_md(doc, drawn)
            page = render_html(doc, drawn, Path(folder))
        for heading in ("C MPI: the floor", "The container cliff", "mpi4py has two personalities",
                        "Path audit", "Cells this machine cannot fill", "What actually mattered"):
            self.assertIn(heading, markdown)
        self.assertIn("| MPICH | python | mpi4py | 404 |", markdown)
        self.assertIn("data:image/png;base64,", page)
        self.assertNotIn("http://", page.replace("http://deb", ""))
        self.assertNotIn("<script", page)


class Context(unittest.TestCase):
    def test_mpich_version_is_shortened(self):
        from wrapper_bench.report import short_version

        text = "MPICH Version:\t4.0.2\nMPICH Release date:\tThu\nMPICH Device:\tch4:ucx\n"
        self.assertEqual(short_version(text), "MPICH 4.0.2 (ch4:ucx)")
        self.assertEqual(short_version("Open MPI v4.1.4, package: Debian"),
                         "Open MPI v4.1.4, package: Debian")


# What CMake's try_compile keeps of a kernel that clang 14 rejected: the command (its -Werror is
# no error), the diagnostics, then make's own error lines.
CHECK_LOG = """Change Dir: /b/bench/thinmpi_coll_check/CMakeFiles/CMakeTmp
/usr/bin/clang++ -Wall -Wold-style-cast -Werror -std=gnu++20 -c thinmpi_coll.cpp
In file included from /repo/bench/kernels/thinmpi/thinmpi_coll.cpp:95:
/repo/bench/programs/programs.h:49:10: error: use of old-style cast [-Werror,-Wold-style-cast]
/repo/bench/programs/programs.h:56:37: error: use of old-style cast [-Werror,-Wold-style-cast]
gmake[1]: *** [CMakeFiles/cmTryCompileExec.dir/build.make:78: thinmpi_coll.cpp.o] Error 1
"""


class BuildFailures(unittest.TestCase):
    """A kernel that does not compile is a failure with its first compiler error, never a
    missing cell."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.bench = Path(self.folder.name) / "openmpi-clang" / "bench"
        self.bench.mkdir(parents=True)
        self.log = self.bench / "thinmpi_coll_check.log"
        self.log.write_text(CHECK_LOG)

    def tearDown(self):
        self.folder.cleanup()

    def find(self, reason, checked_reason=None):
        """The collectives suite's builds of a preset whose wb_coll.json gives `reason` (or,
        thinmpi built, `checked_reason` for its checked mode)."""
        manifest = {"mpi": "openmpi", "mpiexec": "mpirun", "harness": "/bin/true",
                    "boost": True, "thinmpi": checked_reason is not None,
                    "thinmpi_missing_reason": reason}
        if checked_reason is not None:
            manifest.update(thinmpi_checked=False, thinmpi_checked_missing_reason=checked_reason)
        (self.bench / "wb_coll.json").write_text(json.dumps(manifest))
        setup = SimpleNamespace(manifests={("openmpi", "clang"): {}}, failures=[])
        options = SimpleNamespace(build_prefix=self.folder.name + "/", api=("thinmpi",))
        return setup, harness_run.find_builds(setup, options)

    def test_the_first_compiler_error_not_the_flags_nor_make(self):
        self.assertEqual(build.error_lines(CHECK_LOG, 1),
                         "/repo/bench/programs/programs.h:49:10: "
                         "error: use of old-style cast [-Werror,-Wold-style-cast]")

    def test_a_rejected_kernel_is_a_failure_with_its_first_error(self):
        reason = (f"bench/kernels/thinmpi/thinmpi_coll.cpp does not compile against this tree's "
                  f"thinmpi (its collectives API is not merged yet?): see {self.log}")
        error = build.check_error(reason)
        self.assertTrue(error.startswith("bench/kernels/thinmpi/thinmpi_coll.cpp does not compile: "
                                         "/repo/bench/programs/programs.h:49:10: error: use of "
                                         "old-style cast"), error)
        self.assertNotIn("merged", error)

    def test_a_peer_whose_kernels_do_not_compile_is_a_failure_too(self):
        error = build.check_error("its kernels do not compile with this MPI and compiler: see "
                                  f"{self.log}")
        self.assertTrue(error.startswith("its kernels do not compile: /repo/bench/programs/"
                                         "programs.h:49:10: error:"), error)

    def test_other_reasons_stay_missing(self):
        for reason in ("left out of this build (WB_WITH_THINMPI=OFF)",
                       "bench/kernels/thinmpi/thinmpi_kernels.cpp is not in this tree yet"):
            failures = []
            self.assertEqual(build.file_unbuilt(failures, "mpich", "gcc", "k", reason), reason)
            self.assertEqual(failures, [])

    def test_the_collectives_suite_files_it_under_failures_not_missing(self):
        setup, found = self.find(f"bench/kernels/thinmpi/thinmpi_coll.cpp does not compile against "
                                 f"this tree's thinmpi (...): see {self.log}")
        self.assertEqual([why for build_found, why in found if build_found is None], [])
        self.assertEqual([(f["what"], f["compiler"]) for f in setup.failures],
                         [("build openmpi-clang (thinmpi collectives kernel)", "clang")])
        self.assertIn("programs.h:49:10: error: use of old-style cast", setup.failures[0]["error"])

    def test_the_checked_mode_kernel_that_does_not_compile_is_a_failure_too(self):
        setup, found = self.find("", checked_reason=(
            f"bench/kernels/thinmpi/thinmpi_coll.cpp does not compile against this tree's thinmpi "
            f"(with THINMPI_CHECKED_COLLECTIVES=1): see {self.log}"))
        self.assertEqual([why for build_found, why in found if build_found is None], [])
        self.assertEqual([f["what"] for f in setup.failures],
                         ["build openmpi-clang (thinmpi collectives kernel, checked mode)"])

    def build_with(self, outcome):
        """build_preset with `outcome(command, commands so far)` -> (ok, output) standing for
        each cmake run; returns its three results and the commands."""
        commands = []

        def run(command, log_path):
            commands.append(command)
            return outcome(command, commands)

        with mock.patch.object(build, "_run", run):
            return (*build.build_preset("/repo", "openmpi-clang", self.bench.parent), commands)

    def test_a_preset_builds_every_harness_and_keeps_each_failed_attempts_error(self):
        def outcome(command, commands):
            failed = command[1] == "--build" and "-DWB_WITH_THINMPI=OFF" not in commands[-2]
            return not failed, CHECK_LOG if failed else ""

        manifest, failures, left, commands = self.build_with(outcome)
        self.assertEqual(manifest, self.bench / "wb_build.json")
        self.assertEqual([label for label, _ in failures], ["everything"])
        self.assertIn("programs.h:49:10: error:", failures[0][1])
        self.assertEqual(left, ("thinmpi",))  # its errors name no family: thinmpi goes first
        self.assertNotIn("--target", commands[1])  # the default target: every harness

    def test_a_build_that_fails_every_attempt_leaves_every_family_out(self):
        manifest, failures, left, commands = self.build_with(
            lambda command, _: (command[1] != "--build", CHECK_LOG))
        self.assertIsNone(manifest)
        self.assertEqual([label for label, _ in failures],
                         ["everything", "without thinmpi", "without thinmpi and Boost.MPI",
                          "without thinmpi, Boost.MPI and the peers"])
        self.assertEqual(left, ("thinmpi", "boost", "kamping", "mpl"))
        self.assertIn("-DWB_WITH_PEERS=OFF", commands[-2])


if __name__ == "__main__":
    unittest.main()
