"""scripts/count_lines.py: KaMPIng's way of counting the example programs' lines."""

import importlib.util
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "count_lines.py"
spec = importlib.util.spec_from_file_location("count_lines", SCRIPT)
count_lines = importlib.util.module_from_spec(spec)
spec.loader.exec_module(count_lines)

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

    @unittest.skipUnless((count_lines.PEERS_DIR / "kamping-src").is_dir() and
                         (count_lines.PEERS_DIR / "mpl-src").is_dir(),
                         "the peers' sources are not unpacked (bench/setup/peer-source.sh)")
    def test_the_peers_programs_are_counted_in_their_sources(self):
        rows, missing = count_lines.count_peers()
        self.assertEqual(missing, {})
        counted = {(r["application"], r["implementation"]): r["length"] for r in rows}
        # KaMPIng 5c8e84f and MPL 80c3305; MPL's halo is update_overlap (20) and its
        # Cartesian communicator (3), as docs/library.md has counted it by hand.
        self.assertEqual(counted[("SORTING", "KAMPING")], 12)
        self.assertEqual(counted[("SORTING", "MPL")], 38)
        self.assertEqual(counted[("HALO", "MPL")], 23)


if __name__ == "__main__":
    unittest.main()
