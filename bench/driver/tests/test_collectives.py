"""The collectives suite on fixture data: jobs, launch commands, cells, audit rows, report."""

import json
import sys
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

from wrapper_bench.core import harness, harness_cells, harness_report, harness_run
from wrapper_bench.suites.collectives import coll_report, coll_suite
from wrapper_bench.suites.neighbors import neighbor_suite
from wrapper_bench.report import Section
from wrapper_bench.core.runner import Launcher

sys.path.insert(0, str(harness.MPI4PY_KERNEL.parent))
import mpi4py_coll  # noqa: E402  (bench/kernels: --list and the checks need no mpi4py)

VARIANTS = [{"variant": "c/allreduce/sum", "api": "c", "program": False},
            {"variant": "thinmpi/allreduce/plus", "api": "thinmpi", "program": False},
            {"variant": "boost/allreduce/plus", "api": "boost", "program": False},
            {"variant": "c/sample_sort/program", "api": "c", "program": True}]


def build(mpi="openmpi"):
    return harness.CollBuild(mpi, "gcc", f"mpiexec.{mpi}", ["/x/wb_coll"], VARIANTS,
                             "/x/libwb_audit.so")


def record(variant, blocks, rep=0, job="j", ranks=2, count=1, baseline="c/allreduce/sum"):
    api, op, form = variant.split("/")
    return {"variant": variant, "api": api, "op": op, "form": form,
            "baseline": None if api == "c" else baseline, "ranks": ranks, "count": count,
            "bytes": 4 * count, "iterations": 100, "blocks": len(blocks), "us": sum(blocks) /
            len(blocks), "block_us": blocks, "verified": True, "mpi": "openmpi",
            "compiler": "gcc", "rep": rep, "job": job}


def fixture_records():
    """Two processes; thinmpi is 1.01x C in both, Boost 2x in the first and 4x in the second."""
    return [record("c/allreduce/sum", [10.0, 2.0, 9.0], 0, "a"),
            record("thinmpi/allreduce/plus", [2.02, 8.0, 7.0], 0, "a"),
            record("boost/allreduce/plus", [4.0, 5.0, 6.0], 0, "a"),
            record("c/allreduce/sum", [3.0, 3.0], 1, "a"),
            record("thinmpi/allreduce/plus", [3.03, 3.03], 1, "a"),
            record("boost/allreduce/plus", [12.0, 12.0], 1, "a")]


class Jobs(unittest.TestCase):
    def test_every_rank_count_and_size_then_programs_then_an_audit(self):
        jobs = harness.jobs_for(build(), "quick", sizes=(4, 1048576))
        timed = [(j.ranks, j.count) for j in jobs if not j.audit and
                 "c/allreduce/sum" in j.variants]
        self.assertEqual(timed, [(2, 1), (2, 262144), (4, 1), (4, 262144)])
        programs = [j for j in jobs if j.variants == ("c/sample_sort/program",)]
        self.assertEqual([j.count for j in programs], [4096, 65536, 4096, 65536])
        self.assertEqual([j.ranks for j in jobs if j.audit], [2, 4])

    def test_smoke_runs_one_size_and_small_programs(self):
        jobs = harness.jobs_for(build(), "smoke")
        self.assertEqual([j.count for j in jobs if not j.audit],
                         [1, harness.SMOKE_PROGRAM_COUNT])

    def test_api_filter_keeps_c(self):
        jobs = harness.jobs_for(build(), "smoke", sizes=(4,), api_filter=("boost",))
        self.assertEqual(jobs[0].variants, ("c/allreduce/sum", "boost/allreduce/plus"))

    def test_fewer_calls_for_big_messages_and_oversubscribed_ranks(self):
        self.assertEqual(harness.iterations_at(1000, 4096, 2), 1000)
        self.assertEqual(harness.iterations_at(1000, 1048576, 2), 40)
        self.assertEqual(harness.iterations_at(1000, 1048576, 4), 20)

    def test_five_times_the_calls_up_to_64_bytes_for_the_collectives(self):
        # Blocks of 50 calls of a microsecond spread 2x, and the low decile of 20 moved the
        # 4 B ratios by 10 % with the variants' order in the process: 250 calls a block there.
        self.assertEqual(harness.PLAN.calls(1000, 4, 2), 5000)
        self.assertEqual(harness.PLAN.calls(1000, 64, 2), 5000)
        self.assertEqual(harness.PLAN.calls(1000, 256, 2), 1000)
        self.assertEqual(harness.PLAN.calls(1000, 4, 4), 2500)
        quick = [j for j in harness.jobs_for(build(), "quick") if not j.audit and j.ranks == 2]
        self.assertEqual({j.count: j.iterations for j in quick if j.count in (1, 1024)},
                         {1: 5000, 1024: 1000})
        self.assertEqual([j.blocks for j in quick if j.count == 1], [20])

    def test_the_neighbors_keep_the_base_calls_at_4_bytes(self):
        # Their 4 B calls take several microseconds; 5x the calls did not narrow their ratios.
        jobs = harness.jobs_for(build(), "quick", plan=neighbor_suite.PLAN)
        self.assertEqual({j.count: j.iterations for j in jobs if not j.audit and j.ranks == 2
                          and not harness.is_program_job(j) and j.count in (1, 64)},
                         {1: 1000, 64: 1000})


class Commands(unittest.TestCase):
    def test_two_ranks_bind_four_oversubscribe_on_openmpi(self):
        two = harness.CollJob(build(), 2, 1, ("c/allreduce/sum",), 100, 10)
        four = harness.CollJob(build(), 4, 1, ("c/allreduce/sum",), 100, 10)
        self.assertIn("--bind-to", harness.command(two))
        self.assertIn("--oversubscribe", harness.command(four))
        self.assertNotIn("--bind-to", harness.command(four))

    def test_audit_preloads_the_counter_with_the_mpis_own_flag(self):
        job = harness.CollJob(build("mpich"), 2, 8, ("c/allreduce/sum",), 20, 1, True)
        line = harness.command(job, "/tmp/a.jsonl")
        self.assertIn("-genv", line)
        self.assertEqual(line[line.index("--audit") + 1], "20")


class Cells(unittest.TestCase):
    def test_low_decile_of_blocks(self):
        self.assertEqual(harness_cells.process_value({"block_us": [5.0, 1.0, 3.0], "us": 3}), 1.0)
        self.assertEqual(harness_cells.process_value({"us": 3.0}), 3.0)

    def test_ratios_are_taken_inside_each_process(self):
        cells = {c["variant"]: c for c in harness_cells.aggregate(fixture_records())}
        self.assertAlmostEqual(cells["thinmpi/allreduce/plus"]["ratio"]["median"], 1.01)
        self.assertEqual(cells["boost/allreduce/plus"]["ratio"]["min"], 2.0)
        self.assertEqual(cells["boost/allreduce/plus"]["ratio"]["max"], 4.0)
        self.assertIsNone(cells["c/allreduce/sum"]["ratio"])
        self.assertEqual(cells["c/allreduce/sum"]["reps"], 2)

    def test_audit_rows_are_per_call_and_rank(self):
        job = harness.CollJob(build(), 2, 8, ("boost/allreduce/lambda",), 20, 1, True)
        lines = [{"label": "boost/allreduce/lambda", "rank": r,
                  "calls": {"MPI_Allreduce": 20, "MPI_Op_create": 20}} for r in (0, 1)]
        (row,) = harness_cells.audit_rows(job, lines)
        self.assertEqual(row["calls"], {"MPI_Allreduce": 1.0, "MPI_Op_create": 1.0})
        self.assertEqual(row["ranks"], 2)


class Report(unittest.TestCase):
    def part(self):
        return coll_suite.recompute({"ranks": [2, 4], "records": fixture_records(),
                                     "audit": [], "failures": [], "missing": ["x: y"]})

    def test_targets_count_the_cells_within(self):
        table = coll_report.targets_table(self.part()["cells"])
        self.assertEqual(table.rows[0][2:5], ["1.010x", "1 of 1", "1.01x"])
        self.assertEqual(table.rows[1][3], "no cells")

    def test_targets_judge_the_instructions_over_c_too(self):
        def counted(variant, difference, count=1):
            return {"suite": "collectives", "mpi": "openmpi", "compiler": "gcc",
                    "variant": variant, "baseline": "c/x/y", "bytes": 4 * count,
                    "difference": difference}
        part = {"rows": [counted("thinmpi/allreduce/plus", 4.0),
                         counted("thinmpi/allreduce/plus", 4.0, 1024),
                         counted("thinmpi/allgatherv/counts_layout", 9.0),
                         counted("thinmpi/allgatherv/counts_given", 60.0),
                         counted("thinmpi/allgatherv/counts_exchanged_uninit", 30.0),
                         {"suite": "tiny", "variant": "thinmpi/int/scalar", "difference": 99.0},
                         {"suite": "collectives", "variant": "c/allreduce/sum"}]}
        table = coll_report.targets_table(self.part()["cells"], part)
        self.assertEqual(table.headers[-3:], ["instructions over C per call (median)",
                                              "instructions over C, worst cell",
                                              "verdict (median)"])
        given, _, uninit = table.rows[:3]
        # the counts-given group: 4, 4, 9, 60 -> median 6.5 (within 10), worst 60
        self.assertEqual(given[-3:], ["+6.5", "+60.0 (allgatherv/counts_given, OpenMPI gcc, 4 B)",
                                      "met"])
        # no timed cell, counted: the figures, no verdict
        self.assertEqual(uninit[-3:], ["+30.0", "+30.0 (allgatherv/counts_exchanged_uninit, "
                                       "OpenMPI gcc, 4 B)", "—"])
        part["rows"][0]["difference"] = part["rows"][1]["difference"] = 11.0
        table = coll_report.targets_table(self.part()["cells"], part)
        self.assertEqual(table.rows[0][-1],  # 9, 11, 11, 60: 11
                         "not met (instructions: +11.0 over C per call, at most +10)")
        self.assertEqual(coll_report.targets_table(self.part()["cells"]).rows[0][-3:],
                         ["not counted", "—", "met"])

    def test_ratio_table_has_a_row_per_variant_build_and_rank_count(self):
        table = harness_report.ratio_table(self.part()["cells"], ("boost",), "k", "t")
        self.assertEqual(table.rows, [["boost/allreduce/plus", "c/allreduce/sum", "OpenMPI",
                                       "gcc", "2", "3.00x"]])

    def test_mpi4py_rows_sit_beside_boost(self):
        records = fixture_records() + [
            dict(record("mpi4py/allreduce/object", [30.0, 30.0], 1, "a"), compiler="python")]
        cells = harness_cells.aggregate(records)
        table = harness_report.ratio_table(cells, ("boost", "mpi4py"), "k", "t")
        self.assertEqual(table.rows[-1], ["mpi4py/allreduce/object", "c/allreduce/sum",
                                          "OpenMPI", "python", "2", "10.00x"])

    def test_sections_and_chart(self):
        with tempfile.TemporaryDirectory() as folder:
            drawn = coll_report.draw(self.part()["cells"], Path(folder))
            self.assertEqual([name for _, name in drawn], ["collectives_openmpi.png"])
            self.assertTrue((Path(folder) / "collectives_openmpi.png").exists())
        sections = coll_report.sections(self.part(), drawn, Section)
        self.assertEqual(len(sections), 3)
        self.assertIn("Missing: x: y", sections[0].paragraphs)

    def test_the_peers_sorts_sit_beside_ours_with_their_calls(self):
        sort = "c/sample_sort/program"
        records = [record(sort, [100.0, 100.0], 0, "s", count=4096),
                   record("kamping/sample_sort/example", [110.0, 110.0], 0, "s", count=4096,
                          baseline=sort),
                   record("mpl/sample_sort/example", [150.0, 150.0], 0, "s", count=4096,
                          baseline=sort)]
        audit = [{"mpi": "openmpi", "compiler": "gcc", "ranks": 2, "variant": sort,
                  "calls": {"MPI_Allgather": 1.0, "MPI_Alltoall": 1.0, "MPI_Alltoallv": 1.0}}]
        part = coll_suite.recompute({"ranks": [2], "records": records, "audit": audit,
                                     "failures": [], "missing": []})
        table = coll_report.sorters_table(part["cells"], part["audit"])
        self.assertEqual([row[0].split(" (")[0] for row in table.rows],
                         ["ours, C", "KaMPIng's, KaMPIng", "MPL's, MPL"])
        self.assertEqual(table.rows[0][4:], ["4096", "100", "1 (C)",
                                             "1 Allgather, 1 Alltoall, 1 Alltoallv"])
        self.assertEqual(table.rows[1][6], "1.10x (1.10-1.10)")
        self.assertEqual(table.rows[2][7], "not audited")
        titles = [s.title for s in coll_report.sections(part, [], Section)]
        self.assertIn("Collectives: the peers' own sample sorts beside ours", titles)

    def test_no_sorters_table_without_a_peers_sort(self):
        self.assertIsNone(coll_report.sorters_table(self.part()["cells"], []))


class Mpi4pyKernel(unittest.TestCase):
    """bench/kernels/mpi4py/mpi4py_coll.py, the parts that need no MPI."""

    def test_expected_results_follow_wb_coll_check(self):
        value = mpi4py_coll.value
        self.assertEqual(mpi4py_coll.expected("alltoall", 1, 2, 2),
                         [value(0, 2), value(0, 3), value(1, 2), value(1, 3)])
        self.assertEqual(mpi4py_coll.expected("reduce_scatter_block", 1, 2, 1),
                         [value(0, 1) + value(1, 1)])
        self.assertEqual(mpi4py_coll.expected("scan", 0, 4, 1), [value(0, 0)])

    def test_the_object_user_op_adds_lists_element_wise(self):
        self.assertEqual(mpi4py_coll.add_ints([1, 2], [10, 20]), [11, 22])

    def test_every_mpi4py_variant_names_a_c_baseline(self):
        for name, variant in mpi4py_coll.PYTHON_VARIANTS.items():
            self.assertTrue(name.startswith("mpi4py/") and variant.baseline.startswith("c/"))


def mpi4py_manifest(library="/x/libwb_ckernels.so"):
    return {"mpiexec": "mpirun.openmpi", "audit_library": "/x/libwb_audit.so",
            "c_kernels_library": library}


class Mpi4pyBuilds(unittest.TestCase):
    def test_c_baselines_come_first_once_each(self):
        listed = [{"variant": "mpi4py/allreduce/buffer", "api": "mpi4py",
                   "baseline": "c/allreduce/sum"},
                  {"variant": "mpi4py/allreduce/object", "api": "mpi4py",
                   "baseline": "c/allreduce/sum"}]
        names = [v["variant"] for v in harness.with_c_baselines(listed)]
        self.assertEqual(names, ["c/allreduce/sum", "mpi4py/allreduce/buffer",
                                 "mpi4py/allreduce/object"])

    def test_the_kernel_runs_with_the_c_kernels_of_the_preset(self):
        built = harness.mpi4py_build("openmpi", sys.executable, {"PYTHONPATH": "/p"},
                                     mpi4py_manifest())
        self.assertEqual(built.compiler, "python")
        self.assertEqual(built.program[-2:], ["--c-kernels", "/x/libwb_ckernels.so"])
        self.assertEqual(built.env, {"PYTHONPATH": "/p"})
        job = harness.jobs_for(built, "smoke")[0]
        self.assertEqual(job.variants[0], "c/bcast/builtin")
        self.assertIn("mpi4py/allreduce/object", job.variants)
        self.assertIn("c/allreduce/user_fn", job.variants)
        self.assertIsNone(harness.mpi4py_build("openmpi", sys.executable, {},
                                               mpi4py_manifest(None)))

    def test_an_mpi_without_mpi4py_is_missing_with_the_p2p_reason(self):
        with tempfile.TemporaryDirectory() as folder:
            for preset in ("openmpi-gcc", "mpich-gcc"):
                (Path(folder) / preset / "bench").mkdir(parents=True)
                (Path(folder) / preset / "bench" / "wb_coll.json").write_text(
                    json.dumps(mpi4py_manifest()))
            setup = SimpleNamespace(
                manifests={("openmpi", "gcc"): {}, ("mpich", "gcc"): {}},
                launchers={("openmpi", "python"): Launcher(
                    "openmpi", "mpirun.openmpi", [sys.executable, "k.py"])},
                missing=[{"mpi": "mpich", "compiler": "python", "api": "mpi4py",
                          "reason": "Debian's mpi4py links Open MPI"}])
            options = SimpleNamespace(build_prefix=folder + "/", api=None)
            found = harness_run._mpi4py_builds(setup, options)
        self.assertEqual(found[0][0].mpi, "openmpi")
        self.assertEqual(found[1], (None, "mpich: mpi4py: Debian's mpi4py links Open MPI"))


class Oversubscribed(unittest.TestCase):
    def jobs(self):
        """A harness with wb_coll's 26 collective variants and its programs, on MPICH."""
        many = [{"variant": f"c/op{k}/form", "api": "c", "program": False} for k in range(26)]
        coll_build = harness.CollBuild("mpich", "gcc", "mpiexec.mpich", ["/x/wb_coll"],
                                       many + VARIANTS[-1:], "/x/libwb_audit.so")
        return harness.jobs_for(coll_build, "quick", sizes=(4,))

    def test_a_slow_probe_cuts_the_calls_of_4_rank_launches_only(self):
        timed = [j for j in self.jobs() if not j.audit]
        four = next(j for j in timed if j.ranks == 4 and not harness.is_program_job(j))
        self.assertGreater(harness.launch_seconds(four, 19000.0), 500)
        cut = harness.fit_to_budget(four, 19000.0)
        self.assertLessEqual(harness.launch_seconds(cut, 19000.0),
                             harness.LAUNCH_BUDGET_S)
        self.assertGreaterEqual(cut.iterations, harness.MIN_CALLS)
        self.assertIs(harness.fit_to_budget(four, 100.0), four)

    def test_the_report_says_why_and_by_how_much(self):
        part = {"notes": []}
        original = harness_run._probe
        harness_run._probe = lambda build, ranks, variant: 19000.0
        try:
            fitted = harness_run.fit_oversubscribed(self.jobs(), part)
        finally:
            harness_run._probe = original
        by_ranks = {(j.ranks, j.audit, harness.is_program_job(j)): j for j in fitted}
        self.assertEqual(by_ranks[(2, False, False)].iterations,  # not cut
                         harness.PLAN.calls(1000, 4, 2))
        self.assertLess(by_ranks[(4, False, False)].iterations, 500)
        self.assertEqual(len(part["notes"]), 1)
        self.assertIn("19.0 ms", part["notes"][0])


CHECKED = "thinmpi-checked/allgatherv/counts_given"


def checked_records():
    """One process: C 10 us, thinmpi 10.2 us, the checked call 15.3 us (1.5x thinmpi, 1.53x C),
    and the unchecked call of another form that the checked one must not be compared with."""
    base = "c/allgatherv/counts_given"
    return [record(base, [10.0]),
            record("thinmpi/allgatherv/counts_given", [10.2], baseline=base),
            record("thinmpi/allgatherv/counts_exchanged", [1.0], baseline=base),
            record(CHECKED, [15.3], baseline=base)]


def checked_audit():
    calls = {"thinmpi/allgatherv/counts_given": {"MPI_Allgatherv": 1.0},
             CHECKED: {"MPI_Allgatherv": 1.0, "MPI_Allreduce": 1.0, "MPI_Comm_rank": 1.0}}
    return [{"mpi": "openmpi", "compiler": "gcc", "ranks": 2, "variant": name, "calls": counted}
            for name, counted in calls.items()]


class CheckedMode(unittest.TestCase):
    def test_the_checked_call_is_compared_with_c_and_with_the_unchecked_call(self):
        cells = {c["variant"]: c for c in harness_cells.aggregate(checked_records())}
        checked = cells[CHECKED]
        self.assertAlmostEqual(checked["ratio"]["median"], 1.53)
        self.assertEqual(checked["unchecked"], "thinmpi/allgatherv/counts_given")
        self.assertAlmostEqual(checked["ratio_vs_unchecked"]["median"], 1.5)
        self.assertNotIn("ratio_vs_unchecked", cells["thinmpi/allgatherv/counts_given"])

    def test_only_checked_variants_have_an_unchecked_call(self):
        self.assertEqual(harness.unchecked_of(CHECKED), "thinmpi/allgatherv/counts_given")
        self.assertIsNone(harness.unchecked_of("thinmpi/allgatherv/counts_given"))
        self.assertIsNone(harness.unchecked_of("c/bcast/builtin"))

    def test_api_thinmpi_keeps_the_checked_variants(self):
        coll_build = harness.CollBuild(
            "openmpi", "gcc", "mpiexec.openmpi", ["/x/wb_coll"],
            VARIANTS + [{"variant": CHECKED, "api": "thinmpi-checked", "program": False}])
        (job,) = [j for j in harness.jobs_for(coll_build, "smoke", api_filter=("thinmpi",))
                  if not j.audit and not harness.is_program_job(j)]
        self.assertEqual(job.variants, ("c/allreduce/sum", "thinmpi/allreduce/plus", CHECKED))

    def test_the_table_shows_the_ratio_per_size_and_the_calls_added(self):
        cells = harness_cells.aggregate(checked_records())
        table = coll_report.checked_table(cells, checked_audit())
        self.assertEqual(table.headers, ["call", "MPI", "compiler", "ranks", "4 B",
                                         "calls added"])
        self.assertEqual(table.rows, [["allgatherv/counts_given", "OpenMPI", "gcc", "2",
                                       "1.50x", "+1 MPI_Allreduce, +1 MPI_Comm_rank"]])
        self.assertEqual(coll_report.checked_table(cells, []).rows[0][-1], "")

    def test_the_section_follows_the_thinmpi_section_when_checked_cells_ran(self):
        part = coll_suite.recompute({"ranks": [2], "records": checked_records(),
                                     "audit": checked_audit(), "failures": [], "missing": []})
        sections = coll_report.sections(part, [], Section)
        self.assertEqual(sections[1].title, "Checked mode: cost of agreeing on arguments")
        self.assertEqual(sections[1].tables[1].rows[0][:2], [CHECKED, "c/allgatherv/counts_given"])
        plain = coll_suite.recompute({"ranks": [2], "records": fixture_records(), "audit": [],
                                      "failures": [], "missing": []})
        self.assertNotIn("Checked mode: cost of agreeing on arguments",
                         [s.title for s in coll_report.sections(plain, [], Section)])


class RanksLeftOut(unittest.TestCase):
    def test_on_2_cores_the_4_rank_cells_are_left_out_with_the_reason(self):
        ranks, left_out = harness.rank_counts(None, "quick", 2)
        self.assertEqual(ranks, (2,))
        ((four, why),) = left_out
        self.assertEqual(four, 4)
        self.assertIn("4 ranks on 2 cores", why)
        self.assertIn("--ranks 2,4", why)

    def test_asked_for_full_or_enough_cores_run_them_all(self):
        self.assertEqual(harness.rank_counts((2, 4), "quick", 2), ((2, 4), []))
        self.assertEqual(harness.rank_counts(None, "full", 2), ((2, 4), []))
        self.assertEqual(harness.rank_counts(None, "quick", 4), ((2, 4), []))
        self.assertEqual(harness.rank_counts(None, "smoke", 1), ((2,), []))

    def test_left_out_ranks_keep_their_audit_only(self):
        jobs = harness.jobs_for(build(), "quick", sizes=(4, 4096), ranks=(2,))
        self.assertEqual({j.ranks for j in jobs if not j.audit}, {2})
        self.assertEqual([j.ranks for j in jobs if j.audit], [2, 4])

    def test_the_plan_counts_the_launches_left_out_and_the_report_says_so(self):
        original = harness_run.run_job
        harness_run.run_job = lambda job, reps, part, failures, audit_rows=None, osu_reps=0: True
        try:
            options = SimpleNamespace(sizes=(4, 4096), api=None, compiler=None, ranks=None)
            setup = SimpleNamespace(failures=[])
            original_cores = harness.usable_cores
            harness.usable_cores = lambda: 2
            part = harness_run.run_plan(setup, options, "quick", [(build(), None)],
                                        harness.PLAN)
        finally:
            harness_run.run_job = original
            harness.usable_cores = original_cores
        self.assertEqual(part["ranks"], [2])
        self.assertEqual([(e["ranks"], e["launches"]) for e in part["left_out"]],
                         [(4, 2 + len(harness.PROGRAM_COUNTS))])
        (line,) = harness_report.left_out_lines(part)
        self.assertTrue(line.startswith("Left out: the 4-rank timed cells (4 launches): 4 "
                                        "ranks on 2 cores"))
        sections = coll_report.sections(coll_suite.recompute(part), [], Section)
        self.assertIn(line, sections[0].paragraphs)


if __name__ == "__main__":
    unittest.main()
