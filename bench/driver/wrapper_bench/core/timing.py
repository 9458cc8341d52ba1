"""Where a run's wall time went: each phase (the setup before the driver, each preset's build,
each suite's launches, the instruction counts) with its seconds, kept in results.json
("timings") and tabled in the report, so every run shows its own budget."""

import os
import time
from contextlib import contextmanager

# scripts/bench.sh exports the epoch second it started at, so the driver can count the setup
# (Boost.MPI, mpi4py, OSU and the peers' sources) that ran before it.
SETUP_STARTED_ENV = "WB_SETUP_STARTED"
# ... and which of its builds an earlier run had installed (bench/setup/installed.sh), by name.
SETUP_FOUND_ENV = "WB_SETUP_FOUND"


class Clock:
    """The phases of one run, in the order they ran; a phase that runs again adds its time."""

    def __init__(self):
        self.rows = []  # {"phase", "what", "seconds", "launches"}

    def add(self, phase, what, seconds, launches=None):
        """Adds `seconds` (and launches) to the row (phase, what), made when new."""
        row = next((r for r in self.rows if (r["phase"], r["what"]) == (phase, what)), None)
        if row is None:
            row = {"phase": phase, "what": what, "seconds": 0.0, "launches": None}
            self.rows.append(row)
        row["seconds"] += seconds
        if launches is not None:
            row["launches"] = (row["launches"] or 0) + launches
        return row

    @contextmanager
    def phase(self, phase, what, launches=None):
        """Times the body as the row (phase, what)."""
        started = time.monotonic()
        try:
            yield
        finally:
            self.add(phase, what, time.monotonic() - started, launches)

    def add_setup(self, driver_started_epoch, environ=None):
        """The setup scripts' seconds before the driver, when scripts/bench.sh said when it
        started (nothing otherwise)."""
        environ = environ if environ is not None else os.environ
        try:
            seconds = driver_started_epoch - float(environ.get(SETUP_STARTED_ENV))
        except (TypeError, ValueError):
            return
        found = [name for name in environ.get(SETUP_FOUND_ENV, "").split(",") if name]
        what = "scripts/bench.sh (Boost.MPI, mpi4py, OSU, peers' sources" + (
            f"; found installed by an earlier run: {', '.join(found)})" if found else ")")
        if seconds >= 0:
            self.rows.insert(0, {"phase": "setup", "what": what, "seconds": round(seconds, 1),
                                 "launches": None})

    def part(self, total_seconds):
        """results.json's "timings": the rows and the run's total."""
        rows = [dict(r, seconds=round(r["seconds"], 1)) for r in self.rows]
        rest = total_seconds - sum(r["seconds"] for r in self.rows)
        if rest >= 0.5:
            rows.append({"phase": "other", "what": "binding checks, cells, the suites' setup "
                         "under 0.5 s", "seconds": round(rest, 1), "launches": None})
        return {"rows": rows, "total_seconds": round(total_seconds, 1)}
