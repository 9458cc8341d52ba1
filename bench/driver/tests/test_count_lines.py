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


if __name__ == "__main__":
    unittest.main()
