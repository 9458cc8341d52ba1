"""The peers table's spread over processes (issue 30, item 6): each cell shows the lowest and
highest of its per-process ratios against the path's C, and a † where that spread covers the
difference the cell claims (a peer's range overlaps thinmpi's; thinmpi's range holds 1.00×).

The recorded fixture, peer_spread_runs.jsonl, is 33 records of a real quick tiny run
(/tmp/wbt4/20261203-203111, Open MPI gcc): 8 ints in 3 processes, each running C and the
libraries in interleaved blocks, and 64 ints in its first process only."""

import json
import re
import unittest
from pathlib import Path

from wrapper_bench.core import compare, harness_cells
from wrapper_bench.suites.peers import peers
from test_peers import AUDIT, by_path, tiny_record

RECORDS = [json.loads(line) for line in
           (Path(__file__).parent / "peer_spread_runs.jsonl").read_text().splitlines()]
COLUMN = {api: 3 + i for i, (api, _) in enumerate(peers.COLUMNS)}  # row index of each library
CELL = re.compile(r"^(?P<ratio>[\d.]+)× (\((?P<lo>[\d.]+)-(?P<hi>[\d.]+)\))?(?P<mark>†?)")


def per_process(records, variant, c_variant, count=8):
    """The ratio of `variant` to `c_variant` in each process (same job, same rep), taken from
    the records: what the cell's spread must show."""
    def times(name):
        return {(r["job"], r["rep"]): compare.process_value(r) for r in records
                if r["variant"] == name and r["count"] == count}
    mine, theirs = times(variant), times(c_variant)
    return [mine[key] / theirs[key] for key in mine if key in theirs]


def parsed(text):
    match = CELL.match(text)
    assert match, text
    return match


class RecordedRun(unittest.TestCase):
    def setUp(self):
        self.rows, _ = peers.tiny_rows(compare.aggregate(RECORDS), AUDIT)

    def cell(self, label, api):
        return parsed(by_path(self.rows, label)[COLUMN[api]])

    def test_the_spread_shown_is_the_min_max_of_the_per_process_ratios(self):
        for label, c_variant, variants in (
                ("bounded vector<int> (8)", "c/int_buffer",
                 {"thinmpi": "thinmpi/vector_bounded", "kamping": "kamping/vector_bounded",
                  "mpl": "mpl/vector_bounded", "boost": "boost/raw"}),
                # KaMPIng's and MPL's ratios are taken against c/probe, chained to the row's C
                # (the matched probe) process by process
                ("vector<int> of unknown size (8)", "c/mprobe",
                 {"thinmpi": "thinmpi/vector_alloc", "kamping": "kamping/vector",
                  "mpl": "mpl/vector"})):
            for api, variant in variants.items():
                ratios = per_process(RECORDS, variant, c_variant)
                self.assertEqual(len(ratios), 3)
                cell = self.cell(label, api)
                self.assertEqual((cell["lo"], cell["hi"]),
                                 (f"{min(ratios):.2f}", f"{max(ratios):.2f}"), (label, api))
                self.assertEqual(cell["ratio"], f"{sorted(ratios)[1]:.2f}", (label, api))

    def test_a_peer_whose_range_overlaps_thinmpis_is_marked(self):
        # thinmpi 1.015-1.028; MPL 1.002-1.035, Boost.MPI 1.016-1.034: the order is not settled
        self.assertEqual(self.cell("bounded vector<int> (8)", "mpl")["mark"], "†")
        self.assertEqual(self.cell("bounded vector<int> (8)", "boost")["mark"], "†")

    def test_a_peer_whose_range_is_apart_from_thinmpis_is_not(self):
        self.assertEqual(self.cell("bounded vector<int> (8)", "kamping")["mark"], "")  # 1.96-2.02
        self.assertEqual(self.cell("vector<int> of unknown size (8)", "kamping")["mark"], "")
        self.assertEqual(self.cell("vector<int> of unknown size (8)", "mpl")["mark"], "")

    def test_thinmpi_above_1_in_every_process_is_not_marked(self):
        self.assertEqual(self.cell("bounded vector<int> (8)", "thinmpi")["mark"], "")

    def test_a_cell_of_one_process_shows_no_spread_and_no_mark(self):
        # 64 ints ran in one process only: a lone ratio has no spread to hold a difference
        for api in ("thinmpi", "mpl"):
            text = by_path(self.rows, "bounded vector<int> (64)")[COLUMN[api]]
            self.assertNotIn("†", text)
            self.assertIsNone(parsed(text)["lo"], text)

    def test_the_caption_says_what_the_mark_means(self):
        self.assertIn("†", peers.NOTE)
        self.assertIn("overlap", peers.NOTE)


class Synthetic(unittest.TestCase):
    def rows(self, thin, peer):
        records = []
        for rep, (c, t, k) in enumerate(zip((1.0, 1.0, 1.0), thin, peer)):
            records += [tiny_record("c/int_buffer", c, rep=rep),
                        tiny_record("thinmpi/vector_bounded", t, "c/int_buffer", rep=rep),
                        tiny_record("kamping/vector_bounded", k, "c/int_buffer", rep=rep)]
        rows, why = peers.tiny_rows(compare.aggregate(records), AUDIT)
        return by_path(rows, "bounded vector<int> (8)"), why

    def test_thinmpis_range_holding_1_is_marked(self):
        row, _ = self.rows((0.97, 1.04, 1.12), (1.5, 1.6, 1.7))
        self.assertEqual(row[COLUMN["thinmpi"]], "1.04× (0.97-1.12)† (1 Send + 1 Recv)")
        self.assertEqual(row[COLUMN["kamping"]], "1.60× (1.50-1.70) (1 Send + 1 Recv)")

    def test_the_why_line_judges_noise_on_the_ranges_the_table_shows(self):
        # KaMPIng 1.00-1.04 beside thinmpi 1.03-1.10: overlapping, so within the noise
        row, why = self.rows((1.03, 1.05, 1.10), (1.00, 1.02, 1.04))
        self.assertEqual(row[COLUMN["kamping"]], "1.02× (1.00-1.04)† (1 Send + 1 Recv)")
        self.assertIn("within the noise", why[0])
        # apart: the gap is real
        row, why = self.rows((1.08, 1.10, 1.12), (1.00, 1.02, 1.04))
        self.assertNotIn("†", row[COLUMN["kamping"]])
        self.assertIn("wrappers' own code", why[0])

    def test_the_first_screen_gets_the_median_the_table_shows(self):
        records = []
        for rep, t in enumerate((1.05, 1.20, 1.10)):
            records += [tiny_record("c/int_buffer", 1.0, rep=rep),
                        tiny_record("thinmpi/vector_bounded", t, "c/int_buffer", rep=rep)]
        found = []
        peers.tiny_rows(compare.aggregate(records), AUDIT, ratios=found)
        self.assertEqual([round(r.ratio, 6) for r in found if r.api == "thinmpi"], [1.1])


class Collectives(unittest.TestCase):
    """The harness's cells keep each ratio's spread, not the per-process ratios."""

    @staticmethod
    def record(variant, us, rep, baseline=None):
        api, op, form = variant.split("/")
        return {"variant": variant, "api": api, "op": op, "form": form, "baseline": baseline,
                "ranks": 2, "count": 1, "bytes": 4, "iterations": 10, "blocks": 1, "us": us,
                "block_us": [us], "verified": True, "mpi": "mpich", "compiler": "gcc",
                "rep": rep, "job": "j"}

    def test_two_processes_show_their_range_and_a_lone_quotient_shows_none(self):
        records = []
        for rep, (thin, mpl, kamping) in enumerate(((1.00, 1.10, 1.30), (1.04, 1.02, 1.50))):
            records += [self.record("c/allreduce/sum", 1.0, rep),
                        self.record("c/allreduce/user_fn_noncommute", 2.0, rep),
                        self.record("c/allreduce/user_fn", 1.9, rep),
                        self.record("thinmpi/allreduce/plus", thin, rep, "c/allreduce/sum"),
                        self.record("mpl/allreduce/plus", mpl, rep, "c/allreduce/sum"),
                        # timed against another C than the row's, which has no floor to chain
                        # through: the quotient of the medians, one figure
                        self.record("kamping/allreduce/lambda", 2.0 * kamping, rep,
                                    "c/allreduce/user_fn")]
        rows, _ = peers.coll_rows({"cells": harness_cells.aggregate(records), "audit": []})
        plus = by_path(rows, "allreduce, plus")
        self.assertEqual(plus[COLUMN["thinmpi"]], "1.02× (1.00-1.04)† (not audited)")
        self.assertEqual(plus[COLUMN["mpl"]], "1.06× (1.02-1.10)† (not audited)")
        self.assertEqual(by_path(rows, "allreduce, lambda")[COLUMN["kamping"]],
                         "1.40× (not audited)")


if __name__ == "__main__":
    unittest.main()
