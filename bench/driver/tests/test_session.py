"""Pairing: an mpi4py (or Boost.MPI) build is used only with the launcher of the MPI it links."""

import tempfile
import unittest
from pathlib import Path
from unittest import mock

from wrapper_bench.core import session


def fake_info(links):
    """mpi4py_info as it answers for interpreters whose mpi4py links `links[python]`."""
    def info(python, kernel, pythonpath=None):
        return {"linked_mpi": links[python], "python_path": python, "pythonpath": pythonpath,
                "mpi4py": "3.1.4", "numpy": "1.24", "python": "3.11",
                "mpi_library_version": f"{links[python]} library"}
    return info


class Mpi4pyPairing(unittest.TestCase):
    def setUp(self):
        self.repo = Path(tempfile.mkdtemp())
        links = {"/usr/bin/python3": "openmpi", "/opt/mpich/python3": "mpich"}
        patcher = mock.patch.object(session, "mpi4py_info", fake_info(links))
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_an_openmpi_mpi4py_is_never_paired_with_mpich(self):
        setup = session.Setup()
        session.add_mpi4py(setup, self.repo, "mpich", [("/usr/bin/python3", None)], "k.py")
        self.assertEqual(setup.builds, [])
        self.assertIn("links openmpi", setup.missing[0]["reason"])

    def test_the_users_interpreter_fills_the_mpich_cells(self):
        setup = session.Setup()
        candidates = [("/opt/mpich/python3", None), ("/usr/bin/python3", None)]
        session.add_mpi4py(setup, self.repo, "mpich", candidates, "k.py")
        launcher = setup.launchers[("mpich", "python")]
        self.assertEqual((launcher.mpiexec, launcher.program[0]),
                         ("mpiexec.mpich", "/opt/mpich/python3"))
        self.assertEqual(setup.missing, [])


class BoostOptions(unittest.TestCase):
    def test_the_users_library_comes_first(self):
        options, _ = session.boost_options("/nowhere", "mpich", {"mpich": "/opt/libboost_mpi.so"})
        self.assertEqual(options, ["-DWB_BOOST_MPI_LIBRARY=/opt/libboost_mpi.so"])

    def test_no_library_no_option(self):
        self.assertEqual(session.boost_options("/nowhere", "mpich", {}), ([], None))


if __name__ == "__main__":
    unittest.main()


class BuildAttempts(unittest.TestCase):
    """After a failed build, the next attempt leaves out the family whose kernels the compiler's
    errors name (core/build.py), so one family's error costs only its own cells."""

    def test_a_peer_error_leaves_out_the_peers_first(self):
        from wrapper_bench.core import build
        output = ("/r/bench/kernels/mpl/mpl_int.cpp:12:3: error: 'x' was not declared\n"
                  "make[2]: *** Error 1\n")
        left = build.next_left_out([], output)
        self.assertEqual([family[0] for family in left], ["the peers"])
        self.assertEqual(build.attempt_label(left), "without the peers")
        self.assertEqual(build.left_out_apis(left), ("kamping", "mpl"))

    def test_two_families_named_go_together(self):
        from wrapper_bench.core import build
        output = ("/r/bench/kernels/boost/boost_int.cpp:1:1: error: a\n"
                  "/r/bench/kernels/thinmpi/thinmpi_coll.cpp:2:2: error: b\n")
        left = build.next_left_out([], output)
        self.assertEqual(build.attempt_label(left), "without thinmpi and Boost.MPI")

    def test_an_error_naming_no_family_leaves_them_out_in_order(self):
        from wrapper_bench.core import build
        output = "/r/include/thinmpi/core/x.hpp:3:1: error: c\n"
        left = build.next_left_out([], output)
        self.assertEqual(build.attempt_label(left), "without thinmpi")
        left = build.next_left_out(left, output)
        self.assertEqual(build.attempt_label(left), "without thinmpi and Boost.MPI")
        left = build.next_left_out(left, output)
        self.assertEqual(build.attempt_label(left), "without thinmpi, Boost.MPI and the peers")
        self.assertIsNone(build.next_left_out(left, output))

    def test_a_file_path_outside_an_error_line_names_nothing(self):
        from wrapper_bench.core import build
        output = ("In file included from /r/bench/kernels/mpl/mpl_int.cpp:3:\n"
                  "/r/include/thinmpi/x.hpp:1:1: error: d\n")
        self.assertEqual(build.named_families(output), [])

    def test_a_peer_that_did_not_compile_is_no_missing_cell(self):
        from wrapper_bench.core.session import Setup
        from wrapper_bench.suites.peers import peers
        setup = Setup()
        setup.manifests[("openmpi", "gcc")] = {"kamping": False, "mpl": False,
                                               "kamping_missing_reason": "left out"}
        setup.left_out[("openmpi", "gcc")] = ("kamping", "mpl")
        peers.note_missing(setup)
        self.assertEqual(setup.missing, [])
        setup.left_out.clear()
        peers.note_missing(setup)
        self.assertEqual(sorted(m["api"] for m in setup.missing), ["kamping", "mpl"])
