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
