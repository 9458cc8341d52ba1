"""Runs the driver's unit tests and ends with the plain 'N passed, N failed' line CI reads."""

import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

suite = unittest.defaultTestLoader.discover(str(HERE), pattern="test_*.py", top_level_dir=str(HERE))
result = unittest.TextTestRunner(verbosity=1).run(suite)
failed = len(result.failures) + len(result.errors)
print(f"bench-driver: {result.testsRun - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
