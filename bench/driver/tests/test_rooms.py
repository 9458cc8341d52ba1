"""The driver's layers: every suite in its room (wrapper_bench/suites/<room>/), the shared
machinery (wrapper_bench/core/) below the rooms, and no import circle anywhere."""

import ast
import tempfile
import unittest
from pathlib import Path

from wrapper_bench import matrix, rooms
from wrapper_bench.core.room import Room

PACKAGE = Path(matrix.__file__).resolve().parent
# The modules above the rooms that only list them (rooms.py is the list itself).
LISTERS = ("wrapper_bench.cli", "wrapper_bench.matrix", "wrapper_bench.report",
           "wrapper_bench.render_md", "wrapper_bench.render_html")


def module_name(path):
    """wrapper_bench/suites/p2p/__init__.py -> 'wrapper_bench.suites.p2p'."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules():
    """{module name: path} of every module of the driver."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _package_of(name, path):
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports_of(name, path, known):
    """The driver's modules that `name` imports, at any depth of its code (a lazy import
    counts), resolved to module names; an import of a name that is not a module is an import of
    the package that holds it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package_of(name, path)
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            for alias in node.names:
                child = f"{target}.{alias.name}"
                if child in known:
                    found.add(child)
                elif target in known:
                    found.add(target)
    return found


def graph():
    """{module: the modules it imports}, with an edge to the package of every module imported
    from another package too (importing a module first runs its package's __init__.py, which
    imports a room's modules)."""
    known = all_modules()
    edges = {}
    for name, path in known.items():
        direct = imports_of(name, path, known)
        own = _package_of(name, path)
        packages = set()
        for target in direct:
            package = target.rpartition(".")[0]
            while package not in ("", "wrapper_bench") and own != package and \
                    not own.startswith(package + "."):
                packages.add(package)
                package = package.rpartition(".")[0]
        edges[name] = (direct | packages) - {name}
    return edges


def find_circle(edges):
    """One import circle as a list of modules, or None."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                circle = visit(nxt)
                if circle:
                    return circle
        state[node] = "done"
        stack.pop()
        return None

    for node in sorted(edges):
        if node not in state:
            circle = visit(node)
            if circle:
                return circle
    return None


def room_of(name):
    """'wrapper_bench.suites.p2p.tables' -> 'p2p'; None outside the rooms."""
    parts = name.split(".")
    return parts[2] if parts[:2] == ["wrapper_bench", "suites"] and len(parts) > 2 else None


def imported_names(name, path):
    """Every module name that `name`'s code imports or imports from, at any depth (a lazy
    import counts), relative ones resolved: `from ..p2p import p2p_jobs` in a room gives
    wrapper_bench.suites.p2p and wrapper_bench.suites.p2p.p2p_jobs."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package_of(name, path)
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            found |= {base} | {f"{base}.{a.name}" for a in node.names}
    return found


def crossings_of(name, path):
    """What module `name` imports across the rooms' walls: another room's module (from a room),
    or any room's (from core/); the most specific names only."""
    own, names = room_of(name), imported_names(name, path)
    found = []
    for target in sorted(t for t in names if not any(n.startswith(t + ".") for n in names)):
        other = room_of(target)
        if name.startswith("wrapper_bench.core") and target.startswith("wrapper_bench.suites"):
            found.append(target)
        elif own and other and other != own:
            found.append(target)
    return found


def crossings():
    """[(module, what it imports)] where a room imports another room, or core/ a room: a room
    builds on core/ and on itself only (issue 33)."""
    return [(name, target) for name, path in all_modules().items()
            for target in crossings_of(name, path)]


class Layers(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.edges = graph()

    def test_no_import_circle(self):
        self.assertIsNone(find_circle(self.edges))

    def test_the_walk_finds_a_circle(self):
        self.assertEqual(find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}), ["a", "b", "c", "a"])
        self.assertIsNone(find_circle({"a": {"b"}, "b": set(), "c": {"a", "b"}}))

    def test_the_walk_sees_relative_and_lazy_imports(self):
        self.assertIn("wrapper_bench.core.jobs", self.edges["wrapper_bench.core.p2p_jobs"])
        source = ("from ...core import jobs\nfrom ..p2p import tables\n"
                  "def lazy():\n    from ...core.tables import Table\n")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "hosts.py"
            path.write_text(source)
            found = imports_of("wrapper_bench.suites.hosts.hosts", path, all_modules())
        self.assertEqual(found, {"wrapper_bench.core.jobs", "wrapper_bench.suites.p2p.tables",
                                 "wrapper_bench.core.tables"})

    def test_core_imports_no_room_and_nothing_above(self):
        for name, targets in self.edges.items():
            if name.startswith("wrapper_bench.core"):
                above = [t for t in targets if not t.startswith("wrapper_bench.core")]
                self.assertEqual(above, [], name)

    def test_a_room_imports_only_core_and_itself(self):
        self.assertEqual([f"{name} imports {target}" for name, target in crossings()], [])

    def test_the_check_sees_a_room_importing_another(self):
        source = ("from ...core.jobs import Job\nfrom . import tables\n"
                  "from ..p2p import p2p_jobs\nimport wrapper_bench.suites.osu.osu_jobs\n"
                  "def lazy():\n    from .. import audit\n")
        self.assertEqual(self.crossings_in("wrapper_bench.suites.hosts.hosts", source),
                         ["wrapper_bench.suites.audit", "wrapper_bench.suites.osu.osu_jobs",
                          "wrapper_bench.suites.p2p.p2p_jobs"])
        self.assertEqual(self.crossings_in("wrapper_bench.suites.hosts.hosts",
                                           "from ...core.jobs import Job\nfrom . import tables\n"),
                         [])

    def test_the_check_sees_core_importing_a_room(self):
        self.assertEqual(self.crossings_in("wrapper_bench.core.harness",
                                           "from ..suites.p2p import tables\nfrom . import jobs\n"),
                         ["wrapper_bench.suites.p2p.tables"])

    def crossings_in(self, name, source):
        """crossings_of a module `name` whose code is `source`."""
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / (name.rpartition(".")[2] + ".py")
            path.write_text(source)
            return crossings_of(name, path)

    def test_rooms_import_nothing_above_them(self):
        for name, targets in self.edges.items():
            if name.startswith("wrapper_bench.suites"):
                above = [t for t in targets if not t.startswith(("wrapper_bench.core",
                                                                 "wrapper_bench.suites"))]
                self.assertEqual(above, [], name)

    def test_the_matrix_the_cli_and_the_report_only_list_the_rooms(self):
        for name in LISTERS:
            named = [t for t in self.edges[name] if t.startswith("wrapper_bench.suites")]
            self.assertEqual(named, [], name)


class Registry(unittest.TestCase):
    def test_every_room_is_listed_once(self):
        folders = sorted(p.name for p in (PACKAGE / "suites").iterdir()
                         if (p / "__init__.py").exists())
        self.assertEqual(sorted(room.name for room in rooms.ROOMS), folders)
        self.assertTrue(all(isinstance(room, Room) for room in rooms.ROOMS))

    def test_each_suite_has_one_room(self):
        self.assertEqual(len(rooms.SUITES), len(set(rooms.SUITES)))
        self.assertEqual(rooms.SUITES, ("tiny", "sweep", "osu", "serialization", "audit",
                                        "collectives", "neighbors", "rma", "node", "io"))

    def test_every_matrix_suite_has_its_counts(self):
        for suite in matrix.SUITE_JOBS:
            for counts in (matrix.FULL, matrix.QUICK, matrix.SMOKE):
                self.assertIn(suite, counts)


if __name__ == "__main__":
    unittest.main()
