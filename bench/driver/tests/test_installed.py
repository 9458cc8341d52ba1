"""bench/setup/installed.sh: the setup's third-party builds (Boost.MPI, mpi4py, OSU) are
installed once a machine under a key of what they depend on, and each clone's status.json is a
copy of the installed one."""

import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

# A build script as the setup's are: its folder, a good status.json there means nothing to do;
# else it "builds" (one line in builds.log) and records "ok" unless told to fail.
BUILD = r'''
set -uo pipefail
out=$CLONE/build/thing
source bench/setup/installed.sh
install_into out thing "$MATERIAL"
mkdir -p "$out"
echo "$out" >"$WORK/out"
grep -q '"ok": true' "$out/status.json" 2>/dev/null && exit 0
echo built >>"$WORK/builds.log"
if [ -n "${FAIL:-}" ]; then
  echo '{"ok": false, "reason": "it failed"}' >"$out/status.json"
else
  echo "{\"ok\": true, \"dir\": \"$out/obj\"}" >"$out/status.json"
fi
'''


class Installed(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.work = Path(folder.name)
        self.prefix = self.work / "prefix"

    def build(self, clone="a", material="v1", prefix=None, **env):
        """(the folder it built in, the clone's status) of one run of BUILD."""
        environ = dict(os.environ, WORK=str(self.work), CLONE=str(self.work / clone),
                       MATERIAL=material, **env)
        environ["WB_DEPS_PREFIX"] = str(self.prefix) if prefix is None else prefix
        subprocess.run(["bash", "-c", BUILD], cwd=REPO, env=environ, check=True, timeout=60)
        status = self.work / clone / "build" / "thing" / "status.json"
        return ((self.work / "out").read_text().strip(),
                json.loads(status.read_text()) if status.exists() else None)

    def builds(self):
        log = self.work / "builds.log"
        return len(log.read_text().splitlines()) if log.exists() else 0

    def test_a_second_clone_finds_the_first_ones_build(self):
        first_dir, first = self.build("a")
        self.assertTrue(first_dir.startswith(f"{self.prefix}/thing-"), first_dir)
        self.assertEqual(first, {"ok": True, "dir": f"{first_dir}/obj", "installed": first_dir,
                                 "found": False})
        second_dir, second = self.build("b")
        self.assertEqual(second_dir, first_dir)
        self.assertEqual(second, dict(first, found=True))
        self.assertEqual(self.builds(), 1)

    def test_what_the_build_depends_on_changed_builds_again_beside_it(self):
        old_dir, _ = self.build("a", "v1")
        new_dir, new = self.build("b", "v2")
        self.assertNotEqual(new_dir, old_dir)
        self.assertFalse(new["found"])
        self.assertTrue(Path(old_dir, "status.json").exists())
        self.assertEqual(self.builds(), 2)

    def test_a_failed_build_is_tried_again(self):
        _, failed = self.build("a", FAIL="1")
        self.assertEqual((failed["ok"], failed["reason"], failed["found"]),
                         (False, "it failed", False))
        _, again = self.build("b")
        self.assertEqual((again["ok"], again["found"]), (True, False))
        self.assertEqual(self.builds(), 2)

    def test_without_a_prefix_the_clone_builds_in_its_own_folder(self):
        clone_dir = str(self.work / "a" / "build" / "thing")
        self.assertEqual(self.build("a", prefix=""),
                         (clone_dir, {"ok": True, "dir": f"{clone_dir}/obj"}))
        self.assertEqual(self.build("a", prefix=""),
                         (clone_dir, {"ok": True, "dir": f"{clone_dir}/obj"}))
        self.assertEqual(self.builds(), 1)
        self.assertFalse(self.prefix.exists())

    def test_a_prefix_that_cannot_be_written_is_left_alone(self):
        blocker = self.work / "file"
        blocker.write_text("")
        clone_dir, status = self.build("a", prefix=str(blocker / "prefix"))
        self.assertEqual(clone_dir, str(self.work / "a" / "build" / "thing"))
        self.assertNotIn("installed", status)


if __name__ == "__main__":
    unittest.main()
