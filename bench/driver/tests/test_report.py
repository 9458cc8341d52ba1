"""Schema, conclusions and rendering on fixture data."""

import json
import tempfile
import unittest
from pathlib import Path

from fixture_data import audit_lines, sweep_records, tiny_records
from wrapper_bench import audit, charts, compare, conclusions, path_tables, schema
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


if __name__ == "__main__":
    unittest.main()
