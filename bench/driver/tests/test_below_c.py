"""The report's "Faster than C" section (wrapper_bench/below_c.py): every timed cell where a
wrapper is below 0.95x its C baseline, each with a named cause from the run's own data (the
audit's calls, the counted instructions, the spread over processes, a recorded cause) or "no
named cause", counted in its caption (issue 33, item 3)."""

import os
import unittest
from pathlib import Path
from tempfile import TemporaryDirectory
from unittest import mock

from wrapper_bench import below_c, report
from wrapper_bench.core import placement, recheck
from wrapper_bench.core.compare import aggregate, attach_audit
from fixture_data import record


def timed(variant, baseline, per_rep, suite="tiny", count=1, mpi="openmpi"):
    """Records of a wrapper and its C baseline in len(per_rep) processes, the wrapper at
    per_rep[i] x C in process i."""
    records = []
    for rep, ratio in enumerate(per_rep):
        base = record(suite, mpi, "gcc", "c/int_buffer", count, rep)
        base.update(variant=baseline, api="c", payload=baseline.split("/")[1], baseline=None)
        mine = dict(base, variant=variant, api=variant.split("/")[0],
                    payload=variant.split("/")[1], baseline=baseline,
                    one_way_us=base["one_way_us"] * ratio,
                    block_one_way_us=[b * ratio for b in base["block_one_way_us"]])
        records += [base, mine]
    return records


def audit(variant, calls, mpi="openmpi"):
    return {"mpi": mpi, "compiler": "gcc", "variant": variant, "count": 1, "round_trips": 20,
            "calls": calls, "bytes_per_message": 4.0}


def instructions(variant, baseline, mine, theirs, allocations, c_allocations, suite="tiny"):
    return {"suite": suite, "mpi": "openmpi", "compiler": "gcc", "variant": variant,
            "baseline": baseline, "count": 1, "bytes": 4, "ranks": 2, "instructions": mine,
            "allocations": allocations, "c_instructions": theirs,
            "difference": mine - theirs, "c_allocations": c_allocations}


SEND_RECV = {"MPI_Send": 1.0, "MPI_Recv": 1.0}
MPROBE = {"MPI_Send": 1.0, "MPI_Mprobe": 1.0, "MPI_Get_count": 1.0, "MPI_Mrecv": 1.0}


def fixture_doc():
    """A tiny run: five wrapper cells against C, one per case of the rule."""
    records = (timed("boost/vector", "c/mprobe", [0.90, 0.91, 0.92])  # calls differ
               + timed("thinmpi/vector_alloc", "c/int_buffer", [0.90, 0.90, 0.90], count=8)
               + timed("mpl/int", "c/char_buffer", [0.90, 0.93, 0.97])  # spread reaches
               + timed("kamping/int", "c/struct", [0.80, 0.81, 0.82])  # unexplained
               + timed("thinmpi/span", "c/probe", [0.96, 0.96, 0.96]))  # not below
    rows = [audit("boost/vector", {"MPI_Send": 1.0, "MPI_Recv": 2.0}), audit("c/mprobe", MPROBE),
            audit("thinmpi/vector_alloc", SEND_RECV), audit("c/int_buffer", SEND_RECV),
            audit("mpl/int", SEND_RECV), audit("c/char_buffer", SEND_RECV),
            audit("kamping/int", SEND_RECV), audit("c/struct", SEND_RECV)]
    cells = attach_audit(aggregate(records), rows)
    counted = [instructions("thinmpi/vector_alloc", "c/int_buffer", 60.0, 40.0, 0.0, 1.0),
               instructions("kamping/int", "c/struct", 50.0, 30.0, 0.0, 0.0)]
    for row in counted:
        row["count"] = 8 if row["variant"] == "thinmpi/vector_alloc" else 1
    return {"cells": cells, "audit": rows, "instructions": {"rows": counted}}


class FasterThanC(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.part = below_c.part(fixture_doc())
        self.by_variant = {c["variant"]: c for c in self.part["cells"]}

    def test_lists_the_cells_below_and_not_one_at_0_96(self):
        self.assertEqual(sorted(self.by_variant),
                         ["boost/vector", "kamping/int", "mpl/int", "thinmpi/vector_alloc"])

    def test_different_calls_are_named(self):
        cell = self.by_variant["boost/vector"]
        self.assertTrue(cell["named"])
        self.assertIn("the calls differ: boost/vector makes 2 MPI_Recv + 1 MPI_Send where "
                      "c/mprobe makes", cell["cause"])
        self.assertIn("MPI_Mprobe", cell["cause"])

    def test_a_query_left_out_is_no_cause(self):
        doc = fixture_doc()
        for cell in doc["cells"]:
            if cell["variant"] == "boost/vector":
                cell["calls_per_message"] = {"MPI_Send": 1.0, "MPI_Mprobe": 1.0,
                                             "MPI_Mrecv": 1.0}
        found = {c["variant"]: c for c in below_c.part(doc)["cells"]}
        self.assertFalse(found["boost/vector"]["named"])
        self.assertIn("no named cause (1 MPI_Send + 1 MPI_Mprobe + 1 MPI_Mrecv where C makes",
                      found["boost/vector"]["cause"])

    def test_a_destructors_mpi_finalized_is_no_cause(self):
        """thinmpi's owning handles ask MPI_Finalized before they free (the audit counts it)."""
        doc = fixture_doc()
        for cell in doc["cells"]:
            if cell["variant"] == "boost/vector":
                cell["calls_per_message"] = dict(MPROBE, MPI_Finalized=1.0)
        found = {c["variant"]: c for c in below_c.part(doc)["cells"]}
        self.assertFalse(found["boost/vector"]["named"])

    def test_fewer_allocations_are_named(self):
        cell = self.by_variant["thinmpi/vector_alloc"]
        self.assertTrue(cell["named"])
        self.assertIn("0 allocations a call against C's 1", cell["cause"])
        self.assertNotIn("instructions outside MPI", cell["cause"])  # it runs more, not fewer

    def test_a_spread_reaching_0_95_is_within_it(self):
        cell = self.by_variant["mpl/int"]
        self.assertTrue(cell["named"])
        self.assertIn("within its spread (0.90-0.97x)", cell["cause"])

    def test_an_unexplained_cell_says_so_and_is_counted(self):
        cell = self.by_variant["kamping/int"]
        self.assertFalse(cell["named"])
        self.assertEqual(cell["cause"], "no named cause (the same calls as C; +20 instructions "
                                        "outside MPI, 0 allocations a call against C's 0)")
        self.assertEqual((self.part["below"], self.part["named"], self.part["unnamed"]),
                         (4, 3, 1))

    def test_a_recorded_cause_is_named(self):
        doc = fixture_doc()
        cells = [dict(c, ratio_vs_c={"median": 0.5, "min": 0.5, "max": 0.5}) for c in
                 [{"mpi": "openmpi", "compiler": "gcc", "ranks": 2,
                   "variant": "thinmpi/channel_known", "bytes": 4, "kind": "latency"}]]
        doc["node"] = {"cells": cells}
        found = {c["variant"]: c for c in below_c.part(doc)["cells"]}
        self.assertTrue(found["thinmpi/channel_known"]["named"])
        self.assertIn("not MPI", found["thinmpi/channel_known"]["cause"])

    def test_a_recorded_cause_of_one_mpi_names_only_its_cells(self):
        doc = fixture_doc()
        doc["collectives"] = {"cells": [
            {"mpi": mpi, "compiler": "gcc", "ranks": 2, "api": "mpl",
             "variant": "mpl/allreduce/plus", "baseline": "c/allreduce/sum", "count": 1,
             "bytes": 4, "reps": 3, "ratio": {"median": 0.8, "min": 0.8, "max": 0.8}}
            for mpi in ("mpich", "openmpi")]}
        found = {c["mpi"]: c for c in below_c.part(doc)["cells"]
                 if c["variant"] == "mpl/allreduce/plus"}
        self.assertTrue(found["mpich"]["named"])
        self.assertIn("user-defined op where C uses MPI_SUM", found["mpich"]["cause"])
        self.assertFalse(found["openmpi"]["named"])

    def test_a_recorded_cause_of_one_size_names_only_its_cells(self):
        records = [dict(r, bytes=r["count"])  # the serialization suite's size: n strings of n
                   for n in (8, 64)              # chars, as results.json records it
                   for r in timed("thinmpi/ser_vecstr", "c/ser_vecstr", [0.8, 0.8],
                                  suite="serialization", count=n)]
        found = {c["bytes"]: c for c in below_c.part({"cells": aggregate(records)})["cells"]}
        self.assertEqual(sorted(found), [8, 64])
        self.assertTrue(found[8]["named"])
        self.assertIn("fit in std::string itself", found[8]["cause"])
        self.assertFalse(found[64]["named"])

    def test_gos_huge_pages_name_its_4_mib_cells_only(self):
        records = [dict(r, bytes=r["count"])
                   for n in (65536, 4194304)
                   for r in timed("go/byte_slice_prealloc", "c/char_buffer", [0.78, 0.79],
                                  suite="osu", count=n)]
        found = {c["bytes"]: c for c in below_c.part({"cells": aggregate(records)})["cells"]}
        self.assertIn("huge pages", found[4194304]["cause"])
        self.assertFalse(found[65536]["named"])

    def test_the_allocation_order_names_the_1_mib_allocating_receives(self):
        records = [dict(r, bytes=4 * r["count"])
                   for n in (1024, 262144)
                   for r in timed("thinmpi/vector_alloc_uninit", "c/mprobe", [0.85, 0.86],
                                  suite="sweep", count=n)]
        found = {c["bytes"]: c for c in below_c.part({"cells": aggregate(records)})["cells"]}
        self.assertIn("allocation order", found[1048576]["cause"])
        self.assertFalse(found[4096]["named"])

    def test_more_ranks_than_cores_is_named(self):
        doc = {"cells": [], "context": {"cpu_count": 2}, "neighbors": {"cells": [
            {"mpi": "mpich", "compiler": "gcc", "ranks": 4, "api": "thinmpi",
             "variant": "thinmpi/halo/program", "baseline": "c/halo/program", "count": 1,
             "bytes": 4, "reps": 1, "ratio": {"median": 0.8, "min": 0.8, "max": 0.8}}]}}
        (cell,) = below_c.part(doc)["cells"]
        self.assertTrue(cell["named"])
        self.assertIn("oversubscribed: 4 ranks on 2 cores", cell["cause"])

    def test_an_io_cell_reads_the_audit_of_its_call_at_the_audited_size(self):
        def row(variant, rank, calls):
            return {"mpi": "mpich", "compiler": "gcc", "variant": variant, "bytes": 64,
                    "rank": rank, "calls": calls}
        doc = {"cells": [], "io": {
            "cells": [{"mpi": "mpich", "compiler": "gcc", "fs": "tmpfs", "api": "thinmpi",
                       "variant": "thinmpi/write_at_all", "op": "write_at_all",
                       "bytes": 1 << 20, "reps": 3,
                       "ratio_vs_c": {"median": 0.86, "min": 0.85, "max": 0.87}}],
            "audit": [row("thinmpi/write_at_all", r, {"MPI_File_write_at_all": 1.0})
                      for r in (0, 1)] +
                     [row("c/write_at_all", r, {"MPI_File_write_at_all": 1.0,
                                                "MPI_File_set_view": 1.0}) for r in (0, 1)]}}
        (cell,) = below_c.part(doc)["cells"]
        self.assertEqual(cell["baseline"], "c/write_at_all")
        self.assertIn("the calls differ: thinmpi/write_at_all makes 1 MPI_File_write_at_all "
                      "where c/write_at_all makes 1 MPI_File_write_at_all + 1 "
                      "MPI_File_set_view", cell["cause"])

    def test_harness_cells_compare_their_audits(self):
        doc = {"cells": [], "collectives": {
            "cells": [{"mpi": "mpich", "compiler": "gcc", "ranks": 2, "api": "mpl",
                       "variant": "mpl/allreduce/plus", "baseline": "c/allreduce/sum",
                       "count": 1, "bytes": 4, "reps": 1,
                       "ratio": {"median": 0.7, "min": 0.7, "max": 0.7}}],
            "audit": [{"mpi": "mpich", "compiler": "gcc", "ranks": 2,
                       "variant": "mpl/allreduce/plus", "calls": {"MPI_Allreduce": 1.0}},
                      {"mpi": "mpich", "compiler": "gcc", "ranks": 2,
                       "variant": "c/allreduce/sum",
                       "calls": {"MPI_Allreduce": 1.0, "MPI_Op_create": 1.0}}]}}
        (cell,) = below_c.part(doc)["cells"]
        self.assertTrue(cell["named"], cell["cause"])
        self.assertIn("MPI_Op_create", cell["cause"])

    def test_a_serialized_cell_names_its_payload_and_message_size(self):
        """Its records count items (1 byte each), so its bytes are not the message's."""
        doc = {"cells": aggregate(timed("thinmpi/ser_vecstr_reuse", "c/ser_vecstr_kept",
                                        [0.8, 0.8], suite="serialization", count=1024))}
        (row,) = below_c.section(doc, report.Section).tables[0].rows
        self.assertEqual(row[4], "vector<string> 1024×1024, 1.01 MiB")
        (cell,) = below_c.part(doc)["cells"]
        self.assertEqual(cell["message_bytes"], 8 + 1024 * (8 + 1024))

    def test_the_section_and_the_first_screen_line(self):
        doc = fixture_doc()
        section = below_c.section(doc, report.Section)
        self.assertIn("1 without a named cause", section.paragraphs[0])
        self.assertEqual(len(section.tables[0].rows), 4)
        self.assertEqual(below_c.summary_line(doc),
                         "4 cells below 0.95x C: 3 named, 1 without a named cause")


def spread(median, low, high):
    return {"median": median, "min": low, "max": high}


class Rechecks(unittest.TestCase):
    """core/recheck.py: the cells below C without a named cause, timed again after every suite
    in more processes of the launch that timed them; below_c names those it does not
    reproduce."""

    def setUp(self):
        recheck.forget()
        self.addCleanup(recheck.forget)
        self.launches = []

    def register(self, job, ratios, seconds=1.0, answer=None):
        """A job whose cells are `ratios` (key -> spread); its relaunch answers `answer`."""
        def relaunch(processes):
            self.launches.append((job, processes))
            return ratios if answer is None else answer
        recheck.register(job, ratios, seconds, relaunch)

    def unexplained(self):
        return [c for c in below_c.part(fixture_doc())["cells"] if not c["named"]]

    def test_a_cell_not_reproduced_is_named(self):
        (cell,) = self.unexplained()
        key = recheck.entry_key(cell)
        self.assertEqual(key, ("tiny", "openmpi", "gcc", 2, "kamping/int", 4, None))
        self.register("tiny job", {key: spread(0.98, 0.97, 1.0)})
        doc = fixture_doc()
        doc["rechecks"], launches = recheck.run([cell], "quick")
        self.assertEqual((self.launches, launches), ([("tiny job", 2)], 2))
        found = {c["variant"]: c for c in below_c.part(doc)["cells"]}["kamping/int"]
        self.assertTrue(found["named"])
        self.assertEqual(found["cause"], "not reproduced: re-timed in 2 more processes: 0.98x "
                                         "(0.97-1.00x)")

    def test_a_reproduced_cell_stays_unnamed_with_its_retimed_ratio(self):
        (cell,) = self.unexplained()
        self.register("tiny job", {recheck.entry_key(cell): spread(0.86, 0.85, 0.87)})
        doc = fixture_doc()
        doc["rechecks"], _ = recheck.run([cell], "quick")
        found = {c["variant"]: c for c in below_c.part(doc)["cells"]}["kamping/int"]
        self.assertFalse(found["named"])
        self.assertTrue(found["cause"].startswith("no named cause (the same calls as C; "))
        self.assertIn("re-timed in 2 more processes: 0.86x (0.85-0.87x)", found["cause"])

    def test_one_relaunch_answers_every_cell_of_its_job(self):
        cells = [dict(self.unexplained()[0], variant=v) for v in ("kamping/int", "mpl/int")]
        keys = [recheck.entry_key(c) for c in cells]
        self.register("job", {keys[0]: spread(1.0, 1.0, 1.0), keys[1]: spread(0.9, 0.9, 0.9)})
        rows, launches = recheck.run(cells, "quick")
        self.assertEqual((len(self.launches), launches), (1, 2))
        self.assertEqual([r["ratio"]["median"] for r in rows], [1.0, 0.9])

    def test_what_cannot_be_retimed_says_why(self):
        cells = [dict(self.unexplained()[0], variant=v)
                 for v in ("kamping/int", "mpl/int", "boost/int", "go/int")]
        keys = [recheck.entry_key(c) for c in cells]
        self.register("failing", {keys[0]: spread(0.9, 0.9, 0.9)}, answer={})
        self.register("long", {keys[1]: spread(0.9, 0.9, 0.9)},
                      seconds=recheck.BUDGET_S["quick"])  # two processes: past the budget
        self.register("short", {keys[2]: spread(0.99, 0.99, 0.99)}, seconds=1.0)
        rows, launches = recheck.run(cells, "quick")
        self.assertEqual([r["why"] for r in rows],
                         ["the relaunch failed or did not time it",
                          f"past the re-timing budget ({recheck.BUDGET_S['quick']:.0f} s)", None,
                          "its suite does not relaunch its jobs"])
        self.assertEqual(sorted(job for job, _ in self.launches), ["failing", "short"])
        self.assertEqual(launches, 4)
        doc = fixture_doc()
        doc["rechecks"] = rows
        found = {c["variant"]: c for c in below_c.part(doc)["cells"]}["kamping/int"]
        self.assertIn("not re-timed: the relaunch failed or did not time it", found["cause"])

    def test_the_cheapest_jobs_go_first(self):
        cells = [dict(self.unexplained()[0], variant=v) for v in ("kamping/int", "mpl/int")]
        keys = [recheck.entry_key(c) for c in cells]
        budget = recheck.BUDGET_S["quick"]
        self.register("dear", {keys[0]: spread(1, 1, 1)}, seconds=budget / 2 - 1)
        self.register("cheap", {keys[1]: spread(1, 1, 1)}, seconds=2.0)
        ticks = iter(range(0, 1000, 4))  # each relaunch takes 4 s of the budget
        rows, _ = recheck.run(cells, "quick", clock=lambda: next(ticks))
        self.assertEqual(self.launches, [("cheap", 2)])  # then 4 + 2 x (budget/2 - 1) > budget
        self.assertEqual([r["why"] for r in rows],
                         [f"past the re-timing budget ({budget:.0f} s)", None])

    def test_a_relaunch_gathers_its_launches_and_stops_at_an_error(self):
        outcomes = {0: ([{"rep": 0}], [], None), 1: ([{"rep": 1}], [], None)}
        self.assertEqual(recheck.launched(outcomes.get, 2), [{"rep": 0}, {"rep": 1}])
        failing = {0: ([{"rep": 0}], None), 1: ([], "exit status 1")}
        self.assertIsNone(recheck.launched(failing.get, 2))

    def test_an_io_cell_is_told_apart_by_its_file_system(self):
        cell = {"suite": "io", "mpi": "openmpi", "compiler": "gcc", "ranks": 2,
                "variant": "thinmpi/read_at", "bytes": 4096, "fs": "disk"}
        self.register("io job", {recheck.entry_key(dict(cell, fs="tmpfs")): spread(1, 1, 1)})
        (row,), _ = recheck.run([cell], "quick")
        self.assertEqual((row["fs"], row["why"]), ("disk", "its suite does not relaunch its jobs"))


class AlignedRecheck(unittest.TestCase):
    """A cell of 4 KiB and up that stays below C when re-timed is timed once more with every
    setup's buffers aligned (placement.aligned); below_c names where the buffers lie where that
    reaches 0.95x, and shows what it found where not."""

    def setUp(self):
        recheck.forget()
        self.addCleanup(recheck.forget)
        folder = TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        for name in ("libwb_audit.so", placement.LIBRARY):
            (Path(folder.name) / name).write_text("")
        self.audit = str(Path(folder.name) / "libwb_audit.so")
        switch = mock.patch.dict(os.environ, {"WB_ALIGN": "0"})
        switch.start()
        self.addCleanup(switch.stop)
        (cell,) = [c for c in below_c.part(fixture_doc())["cells"] if not c["named"]]
        self.cell = dict(cell, bytes=65536, message_bytes=65536)
        self.launches = []

    def register(self, plain, aligned, audit=None, cell=None):
        """The cell's job: `plain` re-timed without the library, `aligned` with it; each launch
        asks placement for its ranks' environment, as the engines do."""
        key = recheck.entry_key(cell or self.cell)

        def relaunch(processes):
            preloaded = bool(placement.rank_env(audit or self.audit))
            self.launches.append((processes, preloaded))
            return {key: aligned if preloaded else plain}
        recheck.register("sweep job", {key: plain}, 1.0, relaunch)

    def named(self, rows):
        doc = fixture_doc()
        doc["rechecks"] = [dict(r, bytes=4) for r in rows]  # the fixture's cell is of 4 B
        return {c["variant"]: c for c in below_c.part(doc)["cells"]}["kamping/int"]

    def test_a_cell_that_reaches_c_aligned_is_named(self):
        self.register(spread(0.80, 0.79, 0.81), spread(1.01, 0.99, 1.02))
        (row,), launches = recheck.run([self.cell], "quick")
        self.assertEqual((self.launches, launches), ([(2, False), (2, True)], 4))
        self.assertEqual(row["aligned"], {"ratio": spread(1.01, 0.99, 1.02), "why": None})
        found = self.named([row])
        self.assertTrue(found["named"])
        self.assertEqual(found["cause"], "where the buffers lie: re-timed in 2 more processes: "
                         "0.80x (0.79-0.81x); with every setup's buffers aligned, 1.01x "
                         "(0.99-1.02x) in 2 more processes (docs/bench.md, Where the buffers lie)")
        self.assertFalse(placement.wanted())  # the run's own launches are as they were

    def test_a_cell_still_below_aligned_stays_unnamed_and_shows_it(self):
        self.register(spread(0.80, 0.79, 0.81), spread(0.85, 0.84, 0.86))
        (row,), _ = recheck.run([self.cell], "quick")
        found = self.named([row])
        self.assertFalse(found["named"])
        self.assertIn("re-timed in 2 more processes: 0.80x (0.79-0.81x); with every setup's "
                      "buffers aligned, 0.85x (0.84-0.86x) in 2 more processes", found["cause"])

    def test_small_cells_reproduced_or_not_and_aligned_runs_are_not_retimed_aligned(self):
        for cell, env in ((dict(self.cell, bytes=2048, message_bytes=2048), "0"),
                          (self.cell, "1")):
            recheck.forget()
            self.register(spread(0.80, 0.79, 0.81), spread(0.80, 0.79, 0.81), cell=cell)
            self.launches.clear()
            with mock.patch.dict(os.environ, {"WB_ALIGN": env}):
                (row,), _ = recheck.run([cell], "quick")
            self.assertIsNone(row["aligned"])
            self.assertEqual(len(self.launches), 1)
        recheck.forget()
        self.launches.clear()
        self.register(spread(0.97, 0.96, 0.98), spread(1.0, 1.0, 1.0))  # not reproduced
        (row,), _ = recheck.run([self.cell], "quick")
        self.assertEqual((row["aligned"], len(self.launches)), (None, 1))

    def test_a_serialized_cell_is_sized_by_its_message_not_its_items(self):
        cell = dict(self.cell, suite="serialization", bytes=1024, message_bytes=1065992)
        self.register(spread(0.80, 0.79, 0.81), spread(1.0, 1.0, 1.0), cell=cell)
        (row,), _ = recheck.run([cell], "quick")
        self.assertEqual(row["aligned"], {"ratio": spread(1.0, 1.0, 1.0), "why": None})
        recheck.forget()
        small = dict(cell, message_bytes=232)
        self.register(spread(0.80, 0.79, 0.81), spread(1.0, 1.0, 1.0), cell=small)
        (row,), _ = recheck.run([small], "quick")
        self.assertIsNone(row["aligned"])

    def test_go_and_python_variants_are_not_retimed_aligned(self):
        for variant in ("go/int_slice_prealloc", "mpi4py/numpy"):
            recheck.forget()
            self.launches.clear()
            cell = dict(self.cell, variant=variant)
            self.register(spread(0.80, 0.79, 0.81), spread(1.0, 1.0, 1.0), cell=cell)
            (row,), _ = recheck.run([cell], "quick")
            self.assertEqual(self.launches, [(2, False)])
            self.assertEqual(row["aligned"], {"ratio": None, "why": "its buffers are its "
                                              "runtime's, which libwb_align.so does not place"})

    def test_a_build_without_the_library_says_so(self):
        self.register(spread(0.80, 0.79, 0.81), spread(1.0, 1.0, 1.0), audit="/x/libwb_audit.so")
        (row,), _ = recheck.run([self.cell], "quick")
        self.assertEqual(row["aligned"], {"ratio": None,
                                          "why": "no libwb_align.so in its build"})
        found = self.named([row])
        self.assertFalse(found["named"])
        self.assertIn("not re-timed with aligned buffers: no libwb_align.so in its build",
                      found["cause"])

    def test_the_aligned_relaunch_spends_what_is_left_of_the_budget(self):
        self.register(spread(0.80, 0.79, 0.81), spread(1.0, 1.0, 1.0))
        budget = recheck.BUDGET_S["quick"]
        ticks = iter((0.0, budget - 1.0))  # the plain relaunch leaves 1 s: 2 processes of 1 s
        (row,), launches = recheck.run([self.cell], "quick", clock=lambda: next(ticks))
        self.assertEqual((len(self.launches), launches), (1, 2))
        self.assertEqual(row["aligned"]["why"], f"past the re-timing budget ({budget:.0f} s)")


class AloneRecheck(unittest.TestCase):
    """A cell still below C when re-timed (and aligned, where tried) is timed once more with
    only its variant and its C baseline in the process; below_c names the process's other
    variants where that reaches 0.95x, and shows what it found where not."""

    def setUp(self):
        recheck.forget()
        self.addCleanup(recheck.forget)
        (self.cell,) = [c for c in below_c.part(fixture_doc())["cells"] if not c["named"]]
        self.key = recheck.entry_key(self.cell)
        self.launches = []

    def register(self, plain, alone, seconds=1.0, variants=56):
        def relaunch(processes):
            self.launches.append(("job", processes))
            return {self.key: plain}

        def relaunch_alone(processes, names):
            self.launches.append((tuple(names), processes))
            return {self.key: alone} if alone else {}
        recheck.register("coll job", {self.key: plain}, seconds, relaunch, relaunch_alone,
                         variants)

    def found(self, rows):
        doc = fixture_doc()
        doc["rechecks"] = rows
        return {c["variant"]: c for c in below_c.part(doc)["cells"]}["kamping/int"]

    def test_a_cell_that_reaches_c_alone_with_its_baseline_is_named(self):
        self.register(spread(0.87, 0.81, 0.94), spread(1.01, 1.00, 1.02))
        (row,), launches = recheck.run([self.cell], "quick")
        self.assertEqual(self.launches, [("job", 2), ((self.cell["baseline"], "kamping/int"), 2)])
        self.assertEqual(launches, 4)
        self.assertEqual(row["alone"], {"ratio": spread(1.01, 1.00, 1.02), "why": None})
        found = self.found([row])
        self.assertTrue(found["named"])
        self.assertEqual(found["cause"], "the process's other variants: re-timed in 2 more "
                         "processes: 0.87x (0.81-0.94x); alone with its C baseline, 1.01x "
                         "(1.00-1.02x) in 2 more processes (docs/bench.md, A wrapper faster "
                         "than C)")

    def test_a_cell_still_below_alone_stays_unnamed_and_shows_it(self):
        self.register(spread(0.87, 0.81, 0.94), spread(0.88, 0.87, 0.89))
        (row,), _ = recheck.run([self.cell], "quick")
        found = self.found([row])
        self.assertFalse(found["named"])
        self.assertIn("re-timed in 2 more processes: 0.87x (0.81-0.94x); alone with its C "
                      "baseline, 0.88x (0.87-0.89x) in 2 more processes", found["cause"])
        self.register(spread(0.87, 0.81, 0.94), None)
        (row,), _ = recheck.run([self.cell], "quick")
        self.assertIn("not re-timed alone with its C baseline: the relaunch failed or did not "
                      "time it", self.found([row])["cause"])

    def test_a_cell_not_reproduced_or_of_an_engine_without_parts_is_not_timed_alone(self):
        self.register(spread(0.98, 0.97, 0.99), spread(1.0, 1.0, 1.0))
        (row,), launches = recheck.run([self.cell], "quick")
        self.assertEqual((self.launches, launches), ([("job", 2)], 2))
        self.assertNotIn("alone", row)
        recheck.forget()
        self.launches.clear()
        recheck.register("node job", {self.key: spread(0.8, 0.8, 0.8)}, 1.0,
                         lambda processes: {self.key: spread(0.8, 0.8, 0.8)})
        (row,), _ = recheck.run([self.cell], "quick")
        self.assertNotIn("alone", row)

    def test_the_alone_relaunch_is_costed_at_two_variants_and_spends_what_is_left(self):
        budget = recheck.BUDGET_S["quick"]
        # The job's relaunch leaves 1 s; alone costs 2 x (40 s x 2/56 + 0.5 s) = 3.9 s.
        self.register(spread(0.87, 0.81, 0.94), spread(1.0, 1.0, 1.0), seconds=40.0)
        ticks = iter((0.0, budget - 1.0))
        (row,), launches = recheck.run([self.cell], "quick", clock=lambda: next(ticks))
        self.assertEqual((self.launches, launches), ([("job", 2)], 2))
        self.assertEqual(row["alone"]["why"], f"past the re-timing budget ({budget:.0f} s)")


if __name__ == "__main__":
    unittest.main()
