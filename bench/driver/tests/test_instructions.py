"""Instruction counts from callgrind: parsing dumps, the outside-MPI figure, allocations, the
per-call difference of two windows, and the report's tables."""

import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from wrapper_bench.suites.audit import path_tables
from wrapper_bench.suites.instructions import instructions
from wrapper_bench.core.jobs import Build
from wrapper_bench.core.tables import Table

EXE = "/work/build/bench/wb_kernels"
LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6"
LIBMPI = "/usr/lib/x86_64-linux-gnu/libmpi.so.40.30.4"
PML = "/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_pml_ob1.so"


def dump(rank, variant, calls, loop, into_mpi, polling, mallocs=0, callback=0, count=1):
    """A callgrind dump (uncompressed names, as the driver asks) of a harness window: the loop's
    own `loop` instructions, a call into MPI_Recv costing `into_mpi` (inside which MPI polls
    `polling` times, allocates once through libc and calls a user function back), and `mallocs`
    calls to operator new, which calls malloc."""
    new_cost = 30 * mallocs
    total = loop + into_mpi + new_cost
    lines = ["# callgrind format", "version: 1", "creator: callgrind-3.19.0", "pid: 4242",
             "cmd:  wb_kernels --instructions 20", "part: 1", "", "desc: I1 cache: ",
             f"desc: Trigger: Client Request: wb rank={rank} variant={variant} count={count} "
             f"calls={calls}",
             "", "positions: line", "events: Ir", f"summary: {total}", "",
             f"ob={EXE}", "fl=kernels.cpp", "fn=round_trips", f"12 {loop}",
             f"cob={LIBMPI}", "cfn=PMPI_Recv", f"calls={calls} 0", f"13 {into_mpi}"]
    if mallocs:
        lines += [f"cob={LIBC}", "cfn=operator new(unsigned long)", f"calls={mallocs} 0",
                  f"14 {new_cost}"]
    lines += ["", f"ob={LIBMPI}", "fn=PMPI_Recv", f"0 {into_mpi - polling - 40 - callback}",
              f"cob={PML}", "cfn=mca_pml_ob1_recv", "calls=1 0", f"0 {polling}",
              f"cob={LIBC}", "cfn=malloc", "calls=1 0", "0 40"]
    if callback:
        lines += [f"cob={EXE}", "cfn=user_sum", "calls=1 0", f"0 {callback}"]
    lines += ["", f"ob={PML}", "fn=mca_pml_ob1_recv", f"0 {polling}", "", f"ob={LIBC}",
              "fn=malloc", f"0 {40 + 10 * mallocs}"]
    if mallocs:
        lines += ["fn=operator new(unsigned long)", f"0 {20 * mallocs}", "cfn=malloc",
                  f"calls={mallocs} 0", f"0 {10 * mallocs}"]
    if callback:
        lines += [f"ob={EXE}", "fn=user_sum", f"0 {callback}"]
    return "\n".join(lines + ["", f"totals: {total}", ""])


class ParseTest(unittest.TestCase):
    def test_the_label_and_totals_are_read(self):
        profile = instructions.parse_profile(dump(1, "thinmpi/scalar", 20, 1200, 50000, 48000,
                                                  count=8))
        self.assertEqual((profile.rank, profile.variant, profile.count, profile.calls),
                         (1, "thinmpi/scalar", 8, 20))
        self.assertEqual(profile.total, 51200)

    def test_what_runs_inside_mpi_is_left_out(self):
        profile = instructions.parse_profile(dump(0, "c/int_buffer", 20, 580, 90000, 88000))
        self.assertEqual(profile.outside_mpi, 580)

    def test_a_user_function_that_mpi_calls_back_is_the_programs(self):
        profile = instructions.parse_profile(dump(0, "thinmpi/allreduce/lambda", 20, 500, 9000,
                                                 3000, callback=120))
        self.assertEqual(profile.outside_mpi, 500 + 120)

    def test_allocations_count_operator_new_once_and_not_mpis_own(self):
        profile = instructions.parse_profile(dump(0, "thinmpi/vector_alloc", 20, 900, 9000, 100,
                                                 mallocs=20))
        self.assertEqual(profile.allocations, 20)
        self.assertEqual(profile.outside_mpi, 900 + 30 * 20)

    def test_compressed_names_are_resolved(self):
        text = "\n".join(["desc: Trigger: Client Request: wb rank=0 variant=c/x count=1 calls=5",
                          "positions: line", "events: Ir", f"ob=(1) {EXE}", "fn=(1) loop",
                          "1 100", f"cob=(2) {LIBMPI}", "cfn=(2) PMPI_Send", "calls=5 0",
                          "2 70", "fn=(3) other", "+1 3", "cob=(2)", "cfn=(2)", "calls=1 0",
                          "* 7", "totals: 180"])
        profile = instructions.parse_profile(text)
        self.assertEqual(profile.outside_mpi, 180 - 70 - 7)

    def test_a_dump_that_is_not_a_window_is_skipped(self):
        self.assertIsNone(instructions.parse_profile("positions: line\nevents: Ir\ntotals: 5\n"))


class PerCallTest(unittest.TestCase):
    def windows(self, variant, per_call, polling_short, polling_long, setup=300, mallocs=0,
                count=1):
        return [instructions.parse_profile(dump(rank, variant, calls, setup + per_call * calls,
                                                polling, polling - 50, mallocs * calls,
                                                count=count))
                for rank in (0, 1) for calls, polling in ((20, polling_short),
                                                          (40, polling_long))]

    def test_the_difference_of_two_windows_cancels_their_setup_and_polling(self):
        figures = instructions.per_call(self.windows("c/int_buffer", 29, 70000, 310000))
        self.assertEqual(figures[("c/int_buffer", 1)]["instructions"], 29)
        self.assertEqual(figures[("c/int_buffer", 1)]["ranks"], 2)
        self.assertAlmostEqual(figures[("c/int_buffer", 1)]["in_mpi"], 12000)

    def test_one_variant_at_two_counts_is_two_figures(self):
        figures = instructions.per_call(self.windows("c/int_buffer", 29, 7000, 7000) +
                                        self.windows("c/int_buffer", 61, 7000, 7000, count=64))
        self.assertEqual(figures[("c/int_buffer", 1)]["instructions"], 29)
        self.assertEqual(figures[("c/int_buffer", 64)]["instructions"], 61)
        self.assertEqual(figures[("c/int_buffer", 64)]["ranks"], 2)

    def test_allocations_per_call(self):
        figures = instructions.per_call(self.windows("thinmpi/vector_alloc", 100, 9000, 9000,
                                                     mallocs=1))
        self.assertEqual(figures[("thinmpi/vector_alloc", 1)]["allocations"], 1)
        self.assertEqual(figures[("thinmpi/vector_alloc", 1)]["instructions"], 130)

    def test_a_variant_with_one_window_gives_nothing(self):
        profiles = self.windows("c/int_buffer", 29, 1000, 1000)[:1]
        self.assertEqual(instructions.per_call(profiles), {})

    def test_profiles_are_read_from_a_folder(self):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "cg.11.1").write_text(dump(0, "c/int_buffer", 20, 580, 900, 800))
            Path(folder, "cg.11").write_text("positions: line\nevents: Ir\ntotals: 0\n")
            self.assertEqual(len(instructions.read_profiles(folder)), 1)


def row(variant, difference, suite="tiny", count=1):
    return {"suite": suite, "mpi": "openmpi", "compiler": "gcc", "variant": variant,
            "baseline": "c/int_buffer", "count": count, "bytes": 4 * count, "ranks": 2,
            "instructions": 29 + difference, "in_mpi": 900.0, "allocations": 0.0,
            "c_instructions": 29.0, "difference": difference, "c_allocations": 0.0}


def cell(variant, ratio):
    return {"suite": "tiny", "mpi": "openmpi", "compiler": "gcc", "variant": variant, "count": 1,
            "bytes": 4, "baseline": "c/int_buffer", "ratio_vs_c": {"median": ratio}}


class ReportTest(unittest.TestCase):
    def test_the_table_puts_the_time_ratio_beside_the_counts(self):
        part = {"rows": [row("thinmpi/scalar", 3.0)], "round_trips": 20, "tool": "callgrind"}
        found = instructions.tables(part, [cell("thinmpi/scalar", 1.012)], [], Table)
        self.assertEqual(len(found), 1)
        self.assertEqual(found[0].rows[0][4:7], ["32.0", "29.0", "3.0"])
        self.assertEqual(found[0].rows[0][-1], "1.012")

    def test_the_targets_are_judged_on_time_and_instructions(self):
        part = {"rows": [row("thinmpi/scalar", 32.5), row("thinmpi/span", 2.0)]}
        cells = [cell("thinmpi/scalar", 1.01), cell("thinmpi/span", 1.01)]
        table = path_tables.thinmpi_targets(cells, part)
        verdicts = {r[0]: tuple(r[-3:]) for r in table.rows}
        self.assertEqual(verdicts["thinmpi/scalar"], ("+32.5", "+32.5 (tiny, OpenMPI gcc, 4 B)",
                                                      "not met (instructions: +32.5 over C "
                                                      "per call, at most +10)"))
        self.assertEqual(verdicts["thinmpi/span"], ("+2.0", "+2.0 (tiny, OpenMPI gcc, 4 B)",
                                                    "met"))

    def test_without_counts_the_verdict_is_the_times(self):
        table = path_tables.thinmpi_targets([cell("thinmpi/scalar", 1.01)])
        self.assertEqual(table.rows[0][-3:], ["not counted", "—", "met"])

    def test_the_section_says_how_to_count_when_the_run_did_not(self):
        self.assertIn("--instructions", instructions.lines(None)[0])


def framed_row(variant, instructions_, count=1, element=4, baseline="c/int_buffer"):
    return {"suite": "tiny", "mpi": "openmpi", "compiler": "gcc", "variant": variant,
            "baseline": baseline, "count": count, "bytes": element * count, "ranks": 2,
            "instructions": instructions_, "in_mpi": 900.0, "allocations": 1.0}


class ProtocolTest(unittest.TestCase):
    """The framed variants are counted against c/framed, the same protocol in C, too."""

    build = Build("openmpi", "gcc", (("c/int_buffer", 4, 0), ("c/char_buffer", 1, 0),
                                     ("c/framed", 4, 0), ("thinmpi/vector_framed", 4, 0),
                                     ("thinmpi/string_framed", 1, 0)))

    def launch(self, variants, count):
        return instructions.Launch("tiny", "openmpi", "gcc", "mpiexec", ["wb_kernels"],
                                   tuple(variants), count)

    def test_c_framed_runs_beside_a_framed_variant_of_ints(self):
        found = instructions.with_protocols(
            self.launch(("c/int_buffer", "thinmpi/vector_framed"), 8), self.build)
        self.assertEqual([(x.variants, x.count) for x in found],
                         [(("c/int_buffer", "thinmpi/vector_framed", "c/framed"), 8)])

    def test_a_string_is_compared_with_as_many_bytes_of_ints(self):
        found = instructions.with_protocols(
            self.launch(("c/char_buffer", "thinmpi/string_framed"), 64), self.build)
        self.assertEqual([(x.variants, x.count) for x in found],
                         [(("c/char_buffer", "thinmpi/string_framed"), 64),
                          (("c/framed",), 16)])

    def test_a_launch_without_framed_variants_is_left_alone(self):
        launch = self.launch(("c/int_buffer",), 1)
        self.assertEqual(instructions.with_protocols(launch, self.build), [launch])

    def rows(self):
        return instructions.with_protocol_differences([
            dict(framed_row("thinmpi/vector_framed", 306.0), c_instructions=28.5,
                 difference=277.5, c_allocations=0.0),
            framed_row("c/framed", 227.0, baseline=None),
            dict(framed_row("thinmpi/string_framed", 240.0, 64, 1, "c/char_buffer"),
                 c_instructions=28.5, difference=211.5, c_allocations=0.0),
            framed_row("c/framed", 232.0, 16, baseline=None)])

    def test_the_difference_is_taken_at_the_same_bytes(self):
        rows = self.rows()
        self.assertEqual((rows[0]["protocol_baseline"], rows[0]["protocol_difference"]),
                         ("c/framed", 79.0))
        self.assertEqual(rows[2]["protocol_difference"], 8.0)
        self.assertNotIn("protocol_difference", rows[1])

    def test_the_table_has_a_row_against_each_baseline(self):
        part = {"rows": self.rows()}
        body = instructions.tables(part, [], [], Table)[0].rows
        self.assertEqual([r[1:3] + r[6:7] for r in body],
                         [["thinmpi/vector_framed", "c/int_buffer", "277.5"],
                          ["thinmpi/vector_framed", "c/framed", "79.0"],
                          ["thinmpi/string_framed", "c/char_buffer", "211.5"],
                          ["thinmpi/string_framed", "c/framed", "8.0"]])
        self.assertEqual(body[1][-1], "—")

    def test_the_protocol_rows_judge_instructions_against_c_framed(self):
        part = {"rows": self.rows()}
        mine = dict(cell("thinmpi/vector_framed", 1.10), per_rep_ratio=[1.10, 1.10, 1.10])
        theirs = dict(cell("c/framed", 1.09), per_rep_ratio=[1.09, 1.09, 1.09])
        rows = {r[0]: r for r in path_tables.thinmpi_targets([mine, theirs], part).rows}
        vector = rows["thinmpi/vector_framed (the same protocol in C)"]
        self.assertEqual(vector[-3:], ["+79.0", "+79.0 (tiny, OpenMPI gcc, 4 B)",
                                       "not met (instructions: +79.0 over C per call, "
                                       "at most +10)"])
        string = rows["thinmpi/string_framed (the same protocol in C)"]
        self.assertEqual((string[1], string[3]), ("c/framed", "—"))
        self.assertEqual(string[-3:], ["+8.0", "+8.0 (tiny, OpenMPI gcc, 64 B)", "met"])
        self.assertEqual(rows["thinmpi/vector_framed (up to 4 KiB)"][-3:-1],
                         ["+277.5", "+277.5 (tiny, OpenMPI gcc, 4 B)"])

    def test_without_a_count_string_framed_has_no_protocol_row(self):
        rows = path_tables.thinmpi_targets([cell("thinmpi/string_framed", 1.01)]).rows
        self.assertEqual([r[0] for r in rows], ["thinmpi/string_framed"])


class LaunchTest(unittest.TestCase):
    def test_the_command_runs_every_rank_under_callgrind(self):
        launch = instructions.Launch("tiny", "mpich", "gcc", "mpiexec.mpich", ["/b/wb_kernels"],
                                     ("c/int_buffer", "thinmpi/scalar"), 1)
        command = instructions.command(launch, "/tmp/x")
        self.assertLess(command.index("--collect-atstart=no"), command.index("/b/wb_kernels"))
        self.assertIn("--callgrind-out-file=/tmp/x/cg.%p", command)
        self.assertEqual(command[-2:], ["--instructions", str(instructions.ROUND_TRIPS)])
        self.assertEqual(command[command.index("--variants") + 1:command.index("--count") + 2],
                         ["c/int_buffer,thinmpi/scalar", "--count", "1"])
        self.assertNotIn("--jobs", command)

    def test_mpi_objects(self):
        for path in (LIBMPI, PML, "/usr/lib/x86_64-linux-gnu/libmpich.so.12",
                     "/usr/lib/x86_64-linux-gnu/libucp.so.0",
                     "/usr/lib/x86_64-linux-gnu/libopen-pal.so.40"):
            self.assertTrue(instructions.is_mpi_object(path), path)
        for path in (LIBC, EXE, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
                     "/usr/lib/x86_64-linux-gnu/libboost_mpi.so.1.74.0"):
            self.assertFalse(instructions.is_mpi_object(path), path)


class CoveredLaunches(unittest.TestCase):
    def launch(self, suite, variants, count=1, program=("wb_kernels",)):
        return instructions.Launch(suite, "openmpi", "gcc", "mpiexec", list(program),
                                   tuple(variants), count)

    def test_the_sweep_at_4_bytes_is_the_tiny_suites_1_int_launch(self):
        tiny = self.launch("tiny", ("c/int_buffer", "thinmpi/scalar", "thinmpi/span"))
        sweep = self.launch("sweep", ("c/int_buffer", "thinmpi/span"))
        self.assertIs(instructions.covered_by(sweep, [tiny]), tiny)

    def test_another_count_program_or_variant_is_counted_itself(self):
        tiny = self.launch("tiny", ("c/int_buffer", "thinmpi/span"))
        self.assertIsNone(instructions.covered_by(
            self.launch("sweep", ("c/int_buffer",), 1024), [tiny]))
        self.assertIsNone(instructions.covered_by(
            self.launch("collectives", ("c/int_buffer",), 1, ("wb_coll",)), [tiny]))
        self.assertIsNone(instructions.covered_by(
            self.launch("sweep", ("c/int_buffer", "mpl/vector")), [tiny]))



class Batches(unittest.TestCase):
    """A build's ping-pong launches counted in one process (harness.c --jobs), split back."""

    def launch(self, suite, variants, count=1, mpi="openmpi", program=("wb_kernels",)):
        return instructions.Launch(suite, mpi, "gcc", "mpiexec", list(program),
                                   tuple(variants), count)

    def test_a_builds_tiny_launches_share_a_process_and_the_rest_run_alone(self):
        tiny = self.launch("tiny", ("c/int_buffer", "thinmpi/scalar"))
        strings = self.launch("tiny", ("c/char_buffer", "thinmpi/string"), 8)
        sweep = self.launch("sweep", ("c/int_buffer", "thinmpi/span"), 1024)
        mpich = self.launch("tiny", ("c/int_buffer",), mpi="mpich")
        coll = self.launch("collectives", ("c/bcast/builtin",), 1, program=("wb_coll",))
        coll_4k = self.launch("collectives", ("c/bcast/builtin",), 1024, program=("wb_coll",))
        self.assertEqual(instructions.batches([tiny, coll, strings, mpich, sweep, coll_4k]),
                         [[tiny, strings], [coll], [mpich], [sweep], [coll_4k]])

    def test_the_jobs_count_each_variant_once_at_each_count(self):
        first = self.launch("tiny", ("c/char_buffer", "thinmpi/string"), 8)
        again = self.launch("tiny", ("c/char_buffer", "kamping/string"), 8)
        same = self.launch("tiny", ("c/char_buffer",), 8)
        other = self.launch("tiny", ("c/char_buffer",), 64)
        self.assertEqual(instructions.jobs_of([first, again, same, other]),
                         [(8, ("c/char_buffer", "thinmpi/string")), (8, ("kamping/string",)),
                          (64, ("c/char_buffer",))])
        command = instructions.command([first, again, same, other], "/tmp/x")
        self.assertEqual(command[command.index("--jobs") + 1],
                         "8:c/char_buffer,thinmpi/string;8:kamping/string;64:c/char_buffer")
        self.assertNotIn("--variants", command)
        self.assertNotIn("--count", command)

    def test_each_launch_gets_its_variants_at_its_count(self):
        first = self.launch("tiny", ("c/char_buffer", "thinmpi/string"), 8)
        again = self.launch("tiny", ("kamping/string", "c/char_buffer"), 8)
        other = self.launch("tiny", ("c/char_buffer",), 64)
        records = [{"variant": "c/char_buffer", "count": 8, "n": 1},
                   {"variant": "thinmpi/string", "count": 8, "baseline": "c/char_buffer"},
                   {"variant": "kamping/string", "count": 8, "baseline": "c/char_buffer"},
                   {"variant": "c/char_buffer", "count": 64, "n": 2}]
        counted = {("c/char_buffer", 8): {"instructions": 10, "allocations": 0},
                   ("thinmpi/string", 8): {"instructions": 20, "allocations": 0},
                   ("kamping/string", 8): {"instructions": 30},
                   ("c/char_buffer", 64): {"instructions": 40}}
        mine, figures = instructions.of_launch(again, records, counted)
        self.assertEqual([r["variant"] for r in mine], ["kamping/string", "c/char_buffer"])
        self.assertEqual(mine[1]["n"], 1)
        self.assertEqual(figures["c/char_buffer"], {"instructions": 10, "allocations": 0})
        mine, figures = instructions.of_launch(other, records, counted)
        self.assertEqual([(r["variant"], r["n"]) for r in mine], [("c/char_buffer", 2)])
        self.assertEqual(figures, {"c/char_buffer": {"instructions": 40}})
        self.assertEqual(instructions.rows_of(first, *instructions.of_launch(
            first, records, counted))[1]["difference"], 10)

    def test_a_failed_batch_is_counted_again_launch_by_launch(self):
        good = self.launch("tiny", ("c/int_buffer",))
        bad = self.launch("tiny", ("c/char_buffer",), 8)
        calls = []

        def fake(launches, timeout=None):
            calls.append(launches)
            if not isinstance(launches, instructions.Launch):
                return [], {}, "a payload did not verify"
            if launches is bad:
                return [], {}, "wb_kernels: a payload did not verify"
            return ([{"variant": "c/int_buffer", "count": 1}],
                    {("c/int_buffer", 1): {"instructions": 29}}, None)

        setup, part, lines = SimpleNamespace(failures=[]), {"failures": []}, []
        with mock.patch.object(instructions, "run_launch", fake):
            found = instructions._count([good, bad], "[instructions 1/1]", setup, part,
                                        lines.append)
        self.assertEqual(calls, [[good, bad], good, bad])
        self.assertEqual(found[id(good)][1], {"c/int_buffer": {"instructions": 29}})
        self.assertEqual(found[id(bad)], ([], {}))
        self.assertEqual([f["what"] for f in setup.failures], [bad.key])
        self.assertEqual(part["failures"][0]["error"], "wb_kernels: a payload did not verify")
        self.assertIn("FAILED", lines[0])
        self.assertIn("counting each of them alone", lines[1])


if __name__ == "__main__":
    unittest.main()
