"""The report's first screen on a small recorded fixture: it comes first (before the machine,
the method and every other section), its chart's rows and medians are the peers table's and the
targets table's figures for the same cells, and a library without a cell is absent, not zero."""

import statistics
import tempfile
import unittest
from pathlib import Path

from fixture_data import record
from wrapper_bench.core import compare, schema
from wrapper_bench.render_html import render_html
from wrapper_bench.render_md import render_md
from wrapper_bench.report import Section, build_sections

CONTEXT = {"date": "2026-01-01", "cpu_model": "test", "cpu_count": 2, "os": "Debian",
           "mode": "quick", "mpi": {"openmpi": "Open MPI v4.1.4", "mpich": "MPICH 4.0.2"},
           "compilers": {}, "boost": {}, "mpi4py": {}, "binding": {"openmpi": "core"}}

# (variant, its baseline, its time over the baseline's on OpenMPI; MPICH adds 0.02 but to C's),
# the C first. MPL has cells on OpenMPI only (no peer build for MPICH); KaMPIng none at all.
TINY = (("c/int_buffer", None, 1.0), ("c/mprobe", "c/int_buffer", 1.5),
        ("c/struct", None, 1.0), ("c/persistent", "c/int_buffer", 1.4),
        ("thinmpi/scalar", "c/int_buffer", 1.0), ("thinmpi/vector_bounded", "c/int_buffer", 1.0),
        ("thinmpi/vector_alloc", "c/mprobe", 1.03), ("thinmpi/struct", "c/struct", 1.05),
        ("thinmpi/persistent", "c/persistent", 1.0), ("mpl/int", "c/int_buffer", 0.99),
        ("mpl/vector_bounded", "c/int_buffer", 1.02), ("boost/int", "c/int_buffer", 1.04),
        ("boost/raw", "c/int_buffer", 1.06), ("boost/vector", "c/int_buffer", 1.6))
MPICH_MISSES = ("mpl/int", "mpl/vector_bounded")
GO = (("c/int_buffer", None, 1.0), ("go/int_slice_prealloc", "c/int_buffer", 1.4))


def over_floor(table, variant, extra):
    """A variant's time over its MPI's floor: its ratio times its baseline's, down to C."""
    _, baseline, ratio = next(entry for entry in table if entry[0] == variant)
    ratio += 0.0 if variant.startswith("c/") else extra
    return ratio * (over_floor(table, baseline, extra) if baseline else 1.0)


def fixture_record(mpi, compiler, variant, baseline, overhead, count, rep):
    """A tiny-suite record `overhead` times the floor of its MPI (fixture_data's record)."""
    found = record("tiny", mpi, compiler, "c/int_buffer", count, rep)
    api, payload = variant.split("/")
    one_way = found["one_way_us"] * overhead
    found.update(variant=variant, api=api, payload=payload, baseline=baseline,
                 one_way_us=one_way, block_one_way_us=[one_way, one_way],
                 bytes=count * (40 if payload == "struct" else 4))
    return found


def fixture_document():
    records = []
    for mpi, extra in (("openmpi", 0.0), ("mpich", 0.02)):
        for rep in range(3):
            for count in (1, 8, 64):
                for variant, baseline, _ in TINY:
                    if mpi != "mpich" or variant not in MPICH_MISSES:
                        records.append(fixture_record(mpi, "gcc", variant, baseline,
                                                      over_floor(TINY, variant, extra), count,
                                                      rep))
                for variant, baseline, _ in GO:
                    records.append(fixture_record(mpi, "go", variant, baseline,
                                                  over_floor(GO, variant, 0.0), count, rep))
    cells = compare.aggregate(records)
    missing = [{"mpi": "mpich", "compiler": "gcc", "api": "mpl", "reason": "no peer build"}]
    return schema.document(dict(CONTEXT), cells, [], [], missing, [])


def table_of(doc, key):
    return next(t for s in build_sections(doc, []) for t in s.tables if t.key == key)


def ratio_of(text):
    """1.02 from '1.02× (1 Send + 1 Recv)'; None from '—'."""
    return None if text.startswith("—") else float(text.split("×")[0])


class FirstScreenComesFirst(unittest.TestCase):
    def setUp(self):
        self.doc = fixture_document()
        self.markdown = render_md(self.doc, [("chart", "first_screen.png")])

    def test_the_answer_opens_the_markdown_and_the_details_follow(self):
        headings = [line for line in self.markdown.splitlines() if line.startswith("## ")]
        self.assertEqual(headings[:2], ["## The answer on this machine",
                                        "## Machine, versions and method"])
        answer, details = self.markdown.split("## Machine, versions and method", 1)
        self.assertLess(answer.index("- Machine mode"), answer.index("## The answer"))
        self.assertIn("(first_screen.png)", answer)
        self.assertIn("Every library against C, per path", answer)
        self.assertIn("The targets: met and not met", answer)
        self.assertNotIn("Machine: test", answer)  # the machine's context is a detail
        self.assertIn("Machine: test", details)
        self.assertLess(answer.index("(first_screen.png)"),
                        answer.index("Every library against C, per path"))

    def test_the_answer_opens_the_page(self):
        from wrapper_bench import first_screen_chart

        with tempfile.TemporaryDirectory() as folder:
            charts = first_screen_chart.draw(self.doc, Path(folder))
            self.assertEqual(charts[0][1], "first_screen.png")
            self.assertTrue((Path(folder) / "first_screen.png").stat().st_size > 0)
            page = render_html(self.doc, charts, Path(folder))
        first_h2 = page.index("<h2>")
        self.assertTrue(page[first_h2:].startswith("<h2>The answer on this machine</h2>"))
        self.assertLess(page.index("<img"), page.index("Machine: test"))


class ChartRowsAreTheTablesFigures(unittest.TestCase):
    def setUp(self):
        from wrapper_bench import first_screen

        self.doc = fixture_document()
        self.rows = {(row.group, row.path): row for row in first_screen.path_rows(self.doc)}

    def peers_column(self, path, column):
        """The peers table's ratios of `column` (a library's name) on `path`, every cell."""
        table = table_of(self.doc, "peers_tiny")
        at = table.headers.index(column)
        return [ratio_of(row[at]) for row in table.rows if row[2].startswith(f"{path} (")]

    def test_the_rows_are_the_peers_paths_then_thinmpis_own(self):
        self.assertEqual(list(self.rows), [
            ("ping-pong", "int"), ("ping-pong", "bounded vector<int>"),
            ("ping-pong", "vector<int> of unknown size"),
            ("ping-pong", "vector<int> of unknown size, into the caller's"),
            ("thinmpi only", "thinmpi/struct"), ("thinmpi only", "thinmpi/persistent")])

    def test_each_median_and_spread_is_the_peers_tables(self):
        for (group, path), row in self.rows.items():
            if group != "ping-pong":
                continue
            for api, name in (("thinmpi", "thinmpi"), ("mpl", "MPL"), ("boost", "Boost.MPI")):
                shown = [r for r in self.peers_column(path, name) if r is not None]
                if not shown:
                    self.assertNotIn(api, row.libraries, (path, api))
                    continue
                spread = row.libraries[api]
                self.assertEqual(spread.cells, len(shown), (path, api))
                # the table shows two decimals: equal within its rounding
                for mine, theirs in ((spread.median, statistics.median(shown)),
                                     (spread.low, min(shown)), (spread.high, max(shown))):
                    self.assertAlmostEqual(mine, theirs, delta=0.0051, msg=(path, api))

    def test_thinmpis_own_rows_are_the_targets_tables(self):
        table = table_of(self.doc, "targets")
        for variant in ("thinmpi/struct", "thinmpi/persistent"):
            target_row = next(r for r in table.rows if r[0] == variant)
            spread = self.rows[("thinmpi only", variant)].libraries["thinmpi"]
            self.assertEqual(f"{spread.median:.2f}×", target_row[3])
            self.assertEqual(f"of {spread.cells}", target_row[4][target_row[4].index("of"):])

    def test_go_joins_the_paths_of_its_c(self):
        int_row = self.rows[("ping-pong", "int")]
        self.assertEqual((int_row.libraries["go"].median, int_row.libraries["go"].cells),
                         (1.4, 2))  # 1 int on two MPIs, against c/int_buffer in its process
        self.assertEqual(self.rows[("ping-pong", "bounded vector<int>")].libraries["go"].cells,
                         4)


class MissingCellsAreAbsent(unittest.TestCase):
    def setUp(self):
        from wrapper_bench import first_screen

        self.first_screen = first_screen
        self.doc = fixture_document()
        self.rows = first_screen.path_rows(self.doc)

    def test_a_library_without_a_build_is_no_column_and_no_marker(self):
        self.assertNotIn("kamping", self.first_screen.libraries_of(self.rows))
        table = self.first_screen.ratio_table(self.rows)
        self.assertNotIn("KaMPIng", table.headers)
        self.assertFalse(any("kamping" in row.libraries for row in self.rows))

    def test_a_missing_mpi_leaves_only_the_cells_that_ran(self):
        int_row = next(row for row in self.rows if row.path == "int")
        self.assertEqual(int_row.libraries["mpl"].cells, 1)  # OpenMPI only
        self.assertEqual(int_row.libraries["thinmpi"].cells, 2)

    def test_a_path_a_library_lacks_reads_a_dash_never_zero(self):
        table = self.first_screen.ratio_table(self.rows)
        unknown = next(r for r in table.rows if r[0].startswith("ping-pong: vector<int> of "))
        self.assertEqual(unknown[table.headers.index("MPL")], "—")
        self.assertEqual(unknown[table.headers.index("Go")], "—")
        self.assertFalse(any(cell.startswith("0.00") for row in table.rows for cell in row))


class Verdicts(unittest.TestCase):
    def test_every_targets_table_has_its_line_with_what_was_not_met(self):
        from wrapper_bench import first_screen

        doc = fixture_document()
        sections = build_sections(doc, [])
        table = first_screen.verdicts_table(sections)
        row = next(r for r in table.rows if r[0].startswith("thinmpi against its targets"))
        self.assertEqual(row[1], "3 of 5 met")  # vector_alloc 1.04 > 1.03, struct 1.06 > 1.02
        self.assertIn("thinmpi/struct: 1.06× against ≤ 1.02×", row[2])
        self.assertIn("thinmpi/persistent", row[3])

    def test_a_table_without_a_verdict_column_is_judged_on_its_median(self):
        from wrapper_bench import first_screen
        from wrapper_bench.core.tables import Table

        table = Table("rma_targets", "one-sided", ["what", "target", "median over cells",
                                                   "cells within", "worst"],
                      [["ops", "≤ 1.02x", "1.013x", "3 of 4", "1.05x"],
                       ["programs", "≤ 1.02x", "1.088x", "0 of 2", "1.10x"],
                       ["sparse", "< 1.00x", "—", "no cells", "—"]])
        self.assertEqual([v[3] for v in first_screen.target_verdicts(table)],
                         ["met", "not met", "no verdict"])
        self.assertIsInstance(Section("x"), Section)

    def test_a_target_missed_on_its_instructions_alone_leads_with_their_figure(self):
        from wrapper_bench import first_screen
        from wrapper_bench.core.tables import Table

        why = "not met (instructions: +18.0 over C per call, at most +10)"
        table = Table("targets", "thinmpi against its targets",
                      ["variant", "target", "median", "verdict"],
                      [["thinmpi/scalar", "≤ 1.02×", "1.00×", why],
                       ["thinmpi/struct", "≤ 1.02×", "1.06×", "not met (time)"]])
        missed = first_screen.verdict_row(table)[2]
        self.assertEqual(missed, "thinmpi/scalar: instructions +18.0 over C per call, at most "
                                 "+10 (time 1.00× against ≤ 1.02×: met); "
                                 "thinmpi/struct: 1.06× against ≤ 1.02× (time)")


class ReadsTheRoomsOnly(unittest.TestCase):
    def test_the_first_screen_names_no_suite(self):
        from test_rooms import graph

        edges = graph()
        for name in ("wrapper_bench.first_screen", "wrapper_bench.first_screen_chart"):
            self.assertEqual([t for t in edges[name] if t.startswith("wrapper_bench.suites")],
                             [], name)


if __name__ == "__main__":
    unittest.main()
