"""Configures and builds the kernels of each preset, degrading rather than giving up.

When the full build fails, the thinmpi kernels are left out and then the Boost.MPI ones, so that
one family's compile error costs only that family's cells; the error is kept for the report.
"""

import os
import subprocess
from pathlib import Path

ATTEMPTS = (("everything", []), ("without thinmpi", ["-DWB_WITH_THINMPI=OFF"]),
            ("without thinmpi and Boost.MPI", ["-DWB_WITH_THINMPI=OFF", "-DWB_WITH_BOOST=OFF"]))
TARGETS = ["wb_kernels", "wb_audit", "wb_ckernels", "wb_go_kernel", "wb_coll"]


def error_lines(log, limit=3):
    """The compiler's error lines of a build log (or its last lines when none says error)."""
    lines = log.splitlines()
    errors = [line for line in lines if "error" in line.lower()]
    return "\n".join((errors or lines[-limit:])[:limit])


def _run(command, log_path):
    result = subprocess.run(command, capture_output=True, text=True)
    with open(log_path, "a") as log:
        log.write(" ".join(command) + "\n" + result.stdout + result.stderr)
    return result.returncode == 0, result.stdout + result.stderr


def build_preset(repo, preset, build_dir, extra_options=()):
    """Builds `preset` into `build_dir`; returns (manifest path or None, [(what, error)])."""
    build_dir = Path(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    log_path = build_dir / "wb_build.log"
    log_path.write_text("")
    failures = []
    for label, options in ATTEMPTS:
        configure = ["cmake", "--preset", preset, "-S", str(repo), "-B", str(build_dir),
                     "-DTHINMPI_BUILD_TESTS=OFF", "-DTHINMPI_BUILD_EXAMPLES=OFF",
                     "-DTHINMPI_BUILD_BENCH=ON", "-DWB_WITH_THINMPI=ON", "-DWB_WITH_BOOST=ON",
                     *extra_options, *options]
        ok, output = _run(configure, log_path)
        if ok:
            build = ["cmake", "--build", str(build_dir), "-j", str(os.cpu_count() or 2),
                     "--target", *TARGETS]
            ok, output = _run(build, log_path)
        if ok:
            return build_dir / "bench" / "wb_build.json", failures
        failures.append((label, error_lines(output)))
    return None, failures
