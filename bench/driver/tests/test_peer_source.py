"""bench/setup/peer-source.sh: a peer's source that cannot be had is one line saying why, and
nothing left behind that looks like a source (issue 28: an offline machine without ../shared)."""

import io
import os
import subprocess
import tarfile
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "setup" / "peer-source.sh"


def _tarball(path, files):
    """A gzipped tarball at `path` holding {name: text} under one top folder, as the snapshots."""
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"top/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


class PeerSource(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.snapshots = Path(folder.name) / "snapshots"
        self.base = Path(folder.name) / "peers"
        self.snapshots.mkdir()

    def _run(self, function, *args, **env):
        """(exit status, stdout, stderr lines) of `function args` from the sourced script, offline:
        no snapshot but ours, and git refuses https at once, as on a machine without a network."""
        clean = {k: v for k, v in os.environ.items()
                 if not (k.startswith("WB_") and k.endswith("_SOURCE"))}
        clean.update(WB_PEERS_SNAPSHOTS=str(self.snapshots), GIT_ALLOW_PROTOCOL="file", **env)
        ran = subprocess.run(["bash", "-c", f'source "$0" && {function} "$@"', str(SCRIPT),
                              *args], capture_output=True, text=True, env=clean, timeout=60)
        return ran.returncode, ran.stdout.strip(), ran.stderr.splitlines()

    def _left(self):
        """What a run left in the build folder, logs aside."""
        return sorted(p.name for p in self.base.iterdir() if not p.name.endswith(".log"))

    def test_offline_without_a_snapshot_one_line_says_why_and_nothing_is_left(self):
        (self.base / "kamping-src").mkdir(parents=True)  # what a failed clone used to leave
        status, out, said = self._run("peer_source", "kamping", str(self.base), "KaMPIng's cells")
        self.assertEqual((status, out), (1, ""))
        self.assertIn("removing", said[0])
        self.assertTrue(said[-1].startswith(
            "wrapper-bench: kamping: no source: $WB_KAMPING_SOURCE is not set, no snapshot "
            f"{self.snapshots}/kamping-5c8e84f.tar.gz, and cloning "
            "https://github.com/kamping-site/kamping.git failed ("), said[-1])
        self.assertTrue(said[-1].endswith("; skipped: KaMPIng's cells"), said[-1])
        self.assertEqual(self._left(), [])

    def test_a_snapshot_that_does_not_unpack_leaves_nothing(self):
        (self.snapshots / "mpl-80c3305.tar.gz").write_bytes(b"not a tarball")
        status, _, said = self._run("peer_source", "mpl", str(self.base))
        self.assertEqual(status, 1)
        self.assertIn("mpl: no source: the snapshot", said[-1])
        self.assertIn("did not unpack", said[-1])
        self.assertEqual(self._left(), [])

    def test_a_snapshot_without_the_files_needed_is_no_source(self):
        _tarball(self.snapshots / "mpl-80c3305.tar.gz", {"README.md": "MPL"})
        status, _, said = self._run("peer_source", "mpl", str(self.base))
        self.assertEqual(status, 1)
        self.assertIn("is not mpl's source: it has no mpl/mpl.hpp", said[-1])
        self.assertEqual(self._left(), [])

    def test_an_empty_folder_given_is_no_source(self):
        given = self.snapshots / "empty"
        given.mkdir()
        status, _, said = self._run("peer_source", "mpl", str(self.base),
                                    WB_MPL_SOURCE=str(given))
        self.assertEqual(status, 1)
        self.assertIn(f"{given} ($WB_MPL_SOURCE) is not mpl's source", said[-1])
        self.assertEqual(self._left(), [])
        status, out, _ = self._run("peer_check", "mpl", str(given))
        self.assertEqual((status, out), (1, f"{given} has no mpl/mpl.hpp"))

    def test_a_complete_snapshot_is_moved_into_place_and_used_again(self):
        _tarball(self.snapshots / "mpl-80c3305.tar.gz", {"mpl/mpl.hpp": "// mpl"})
        status, out, said = self._run("peer_source", "mpl", str(self.base))
        self.assertEqual((status, out), (0, str(self.base / "mpl-src")), said)
        self.assertEqual(self._left(), ["mpl-src"])
        self.assertTrue((self.base / "mpl-src" / "mpl" / "mpl.hpp").is_file())
        status, out, said = self._run("peer_source", "mpl", str(self.base))
        self.assertEqual((status, out), (0, str(self.base / "mpl-src")))
        self.assertIn("(unpacked before in", said[-1])


if __name__ == "__main__":
    unittest.main()
