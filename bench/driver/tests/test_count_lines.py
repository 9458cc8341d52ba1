"""scripts/count_lines.py: KaMPIng's way of counting the example programs' lines."""

import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "count_lines.py"
spec = importlib.util.spec_from_file_location("count_lines", SCRIPT)
count_lines = importlib.util.module_from_spec(spec)
spec.loader.exec_module(count_lines)
# The peers whose sources are not unpacked in count_lines.PEERS_DIR (build/peers, or
# $WB_PEERS_DIR: run.py's second pass points it at an empty folder), each with the reason.
_ABSENT = count_lines.missing_sources()

SOURCE = """#include <x>
template <class T>
void f() {
  //> START SORTING THINMPI
  int a = 1;

  // a comment
  int b = 2;  // a trailing comment still counts
  //> END
}
"""


class CountLines(unittest.TestCase):
    def test_blank_and_comment_lines_between_the_markers_do_not_count(self):
        region = count_lines.count_region(SOURCE.splitlines())
        self.assertEqual((region["application"], region["implementation"]),
                         ("SORTING", "THINMPI"))
        self.assertEqual(region["length"], 2)
        self.assertEqual((region["blank_lines"], region["comment_lines"]), (1, 1))

    def test_a_file_without_markers_has_no_region(self):
        self.assertIsNone(count_lines.count_region(["int main() {}"]))

    def test_the_examples_are_counted(self):
        repo = SCRIPT.parents[1]
        rows = count_lines.count_paths([repo / "examples", repo / "bench" / "programs"])
        found = {(r["application"], r["implementation"]) for r in rows}
        for application in ("VECTOR_ALLGATHER", "SORTING", "BFS", "HALO"):
            self.assertIn((application, "THINMPI"), found)
            self.assertIn((application, "C"), found)
        self.assertIn("| sorting |", count_lines.markdown(rows))
        self.assertIn("| halo | ", count_lines.markdown(rows))


PEER_SOURCE = """#include <x>
// helpers, not counted
template <typename T>
void sort(std::vector<T>& data) {
    int size{2};
    // a comment

    data.clear();
}
int main() {
    int grid{
        1};
    make(grid);
}
"""


class CountPeers(unittest.TestCase):
    def test_a_function_span_runs_through_the_brace_that_closes_it(self):
        region = count_lines.count_spans(PEER_SOURCE.splitlines(),
                                         [("template <typename T>", None)])
        self.assertEqual(region["spans"], [(3, 9)])
        self.assertEqual(region["length"], 5)  # template, signature, 2 statements, brace
        self.assertEqual((region["comment_lines"], region["blank_lines"]), (1, 1))

    def test_spans_with_an_end_text_add_up_in_order(self):
        region = count_lines.count_spans(PEER_SOURCE.splitlines(),
                                         [("void sort", None), ("int grid{", "make(grid)")])
        self.assertEqual(region["spans"], [(4, 9), (11, 13)])
        self.assertEqual(region["length"], 4 + 3)

    def test_a_span_not_found_is_no_region(self):
        self.assertIsNone(count_lines.count_spans(["int x;"], [("void sort", None)]))

    def test_without_the_peers_sources_every_peer_cell_says_why(self):
        rows, missing = count_lines.count_peers("/nonexistent")
        self.assertEqual(rows, [])
        self.assertEqual(len(missing), len(count_lines.PEER_REGIONS))
        table = count_lines.markdown([], missing)
        self.assertIn("peer-source.sh", table)
        self.assertIn("| halo | — | — | - | - | - | - |", table)

    def test_an_empty_source_folder_is_no_source(self):
        with tempfile.TemporaryDirectory() as peers:
            (Path(peers) / "kamping-src").mkdir()  # what a failed clone used to leave
            missing = count_lines.missing_sources(peers)
            self.assertEqual(set(missing), {"kamping", "mpl"})
            self.assertIn(f"kamping: no source in {peers}/kamping-src (no examples/",
                          missing["kamping"])
            self.assertIn("not counted: vector_allgather kamping, sorting kamping_mpi",
                          missing["kamping"])

    def test_the_script_says_why_and_succeeds_without_the_peers(self):
        with tempfile.TemporaryDirectory() as peers:
            ran = subprocess.run([sys.executable, str(SCRIPT), "--markdown", str(SCRIPT.parents[1]
                                  / "examples")], capture_output=True, text=True,
                                 env=dict(os.environ, WB_PEERS_DIR=peers))
        self.assertEqual(ran.returncode, 0, ran.stderr)
        said = ran.stderr.splitlines()
        self.assertEqual(len(said), 2, said)  # one line per peer
        self.assertTrue(said[0].startswith(f"count_lines: kamping: no source in {peers}"))
        self.assertIn("| sorting | — | 10 | - | - | - | - |", ran.stdout)

    # KaMPIng 5c8e84f and MPL 80c3305, counted where their sources are unpacked (make test's
    # configure does, from ../shared/peers or a clone); skipped with the reason where they are not.
    @unittest.skipIf(_ABSENT.get("kamping"), _ABSENT.get("kamping"))
    def test_kampings_programs_are_counted_in_its_source(self):
        self.assertEqual(self._counted("kamping"), {("VECTOR_ALLGATHER", "KAMPING"): 1,
                                                    ("SORTING", "KAMPING_MPI"): 45,
                                                    ("SORTING", "KAMPING"): 12})

    # MPL's halo is update_overlap (20) and its Cartesian communicator (3), as docs/library.md
    # has counted it by hand.
    @unittest.skipIf(_ABSENT.get("mpl"), _ABSENT.get("mpl"))
    def test_mpls_programs_are_counted_in_its_source(self):
        self.assertEqual(self._counted("mpl"), {("SORTING", "MPL_MPI"): 56,
                                                ("SORTING", "MPL"): 38, ("HALO", "MPL"): 23})

    def _counted(self, peer):
        rows, missing = count_lines.count_peers()
        ours = {(a, i) for a, i, p, _, _ in count_lines.PEER_REGIONS if p == peer}
        self.assertEqual({cell: why for cell, why in missing.items() if cell in ours}, {})
        return {(r["application"], r["implementation"]): r["length"] for r in rows
                if (r["application"], r["implementation"]) in ours}

if __name__ == "__main__":
    unittest.main()
