"""Configures and builds the kernels of each preset, degrading rather than giving up.

When the full build fails, the thinmpi kernels are left out and then the Boost.MPI ones, so that
one family's compile error costs only that family's cells; the error is kept for the report.
A kernel that does not compile is a failure with its first compiler error, never a missing cell:
missing cells are those the machine cannot have (no Boost.MPI for an MPI, a kernel left out on
purpose), failed ones are what the tree got wrong.
"""

import os
import re
import subprocess
from pathlib import Path

# (label, CMake options, APIs that attempt leaves out): each attempt after a failed one.
ATTEMPTS = (("everything", [], ()),
            ("without thinmpi", ["-DWB_WITH_THINMPI=OFF"], ("thinmpi",)),
            ("without thinmpi and Boost.MPI", ["-DWB_WITH_THINMPI=OFF", "-DWB_WITH_BOOST=OFF"],
             ("thinmpi", "boost")))
# A compiler's or linker's diagnostic ("file:12:3: error: ...", "fatal error: ...",
# "clang: error: ..."), not a flag such as -Werror nor make's "Error 1".
DIAGNOSTIC = re.compile(r"(^|[\s:])(fatal )?error:")
# The reason a harness's manifest gives for a kernel that CMake's try_compile rejected
# (bench/cmake/WbPeers.cmake): a peer's "its kernels do not compile with this MPI and compiler:
# see <log>", or any "<file> does not compile ...: see <log>". (thinmpi's kernels are not tried
# first: one that does not compile fails the build, and ATTEMPTS builds again without thinmpi.)
CHECK_FAILED = re.compile(r"^(.*?\bdo(?:es)? not compile)\b.*\bsee (\S+\.log)\s*$", re.S)


def error_lines(log, limit=3):
    """The compiler's error lines of a build log, the first first (or its last lines when none
    says error)."""
    lines = log.splitlines()
    diagnostics = [line for line in lines if DIAGNOSTIC.search(line)]
    others = [line for line in lines if "error" in line.lower()]
    return "\n".join((diagnostics or others or lines[-limit:])[:limit])


def left_out(failures):
    """The APIs a preset's build left out because fuller attempts failed (their errors are
    `failures`): those cells are failures, not missing."""
    return ATTEMPTS[len(failures)][2] if len(failures) < len(ATTEMPTS) else ("thinmpi", "boost")


def check_error(reason):
    """The failure of a kernel that CMake's try_compile rejected: its file and the first
    compiler error of the log the reason names; None for any other reason (left out on
    purpose, not in this tree), which is a missing cell."""
    match = CHECK_FAILED.match(reason or "")
    if not match:
        return None
    subject, log = match.groups()
    try:
        text = Path(log).read_text(errors="replace")
    except OSError:
        return f"{subject} (its log {log} is gone: reconfigure to see why)"
    return f"{subject}: {error_lines(text, 1)} (whole log: {log})"


def file_unbuilt(failures, mpi, compiler, kernel, reason):
    """Files a kernel that a build does not have: a compile failure goes to `failures` (with its
    first error) and None is returned; any other reason is returned, for the missing cells."""
    error = check_error(reason)
    if error is None:
        return reason
    failures.append({"what": f"build {mpi}-{compiler} ({kernel})", "mpi": mpi,
                     "compiler": compiler, "error": error})
    return None


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
    for label, options, _ in ATTEMPTS:
        configure = ["cmake", "--preset", preset, "-S", str(repo), "-B", str(build_dir),
                     "-DTHINMPI_BUILD_TESTS=OFF", "-DTHINMPI_BUILD_EXAMPLES=OFF",
                     "-DTHINMPI_BUILD_BENCH=ON", "-DWB_WITH_THINMPI=ON", "-DWB_WITH_BOOST=ON",
                     *extra_options, *options]
        ok, output = _run(configure, log_path)
        if ok:
            # The default target: with tests and examples off it is every harness of the bench
            # (a list of targets here had left wb_neighbors unbuilt).
            build = ["cmake", "--build", str(build_dir), "-j", str(os.cpu_count() or 2)]
            ok, output = _run(build, log_path)
        if ok:
            return build_dir / "bench" / "wb_build.json", failures
        failures.append((label, error_lines(output)))
    return None, failures
