"""Configures and builds the kernels of each preset, degrading rather than giving up.

When the full build fails, the family whose kernels the compiler's errors name (thinmpi, Boost.MPI,
the peers KaMPIng and MPL) is left out and the preset built again, so that one family's compile
error costs only that family's cells; the error is kept for the report.
A kernel that does not compile is a failure with its first compiler error, never a missing cell:
missing cells are those the machine cannot have (no Boost.MPI for an MPI, a kernel left out on
purpose), failed ones are what the tree got wrong.
"""

import os
import re
import subprocess
from pathlib import Path

# The families a preset's build can go without: (name, the CMake option that leaves it out, the
# APIs whose cells it holds, each also its kernels' folder bench/kernels/<api>/). After a failed
# build the next attempt leaves out the families whose folders the compiler's errors name, else
# the next one in this order; the peers' kernels are not compiled first at configure time
# (WbPeers.cmake).
FAMILIES = (("thinmpi", "-DWB_WITH_THINMPI=OFF", ("thinmpi",)),
            ("Boost.MPI", "-DWB_WITH_BOOST=OFF", ("boost",)),
            ("the peers", "-DWB_WITH_PEERS=OFF", ("kamping", "mpl")))
# A compiler's or linker's diagnostic ("file:12:3: error: ...", "fatal error: ...",
# "clang: error: ..."), not a flag such as -Werror nor make's "Error 1".
DIAGNOSTIC = re.compile(r"(^|[\s:])(fatal )?error:")
# The reason a harness's manifest gives for a kernel that CMake's try_compile rejected
# (a peer's "its kernels do not compile with this MPI and compiler: see <log>", as
# WbPeers.cmake wrote before its checks went, or any "<file> does not compile ...: see <log>").
# No kernel is tried first any more: one that does not compile fails the build, and
# build_preset builds again without its family.
CHECK_FAILED = re.compile(r"^(.*?\bdo(?:es)? not compile)\b.*\bsee (\S+\.log)\s*$", re.S)


def error_lines(log, limit=3):
    """The compiler's error lines of a build log, the first first (or its last lines when none
    says error)."""
    lines = log.splitlines()
    diagnostics = [line for line in lines if DIAGNOSTIC.search(line)]
    others = [line for line in lines if "error" in line.lower()]
    return "\n".join((diagnostics or others or lines[-limit:])[:limit])


def named_families(output):
    """The FAMILIES whose kernel folders (bench/kernels/<folder>/) a failed build's compiler
    errors name, in FAMILIES' order."""
    errors = "\n".join(line for line in output.splitlines() if DIAGNOSTIC.search(line))
    return [family for family in FAMILIES
            if any(re.search(rf"kernels/{folder}/", errors) for folder in family[2])]


def next_left_out(left, output):
    """The families the next attempt leaves out, after one leaving out `left` failed with
    `output`: those its errors name as well, else the next in FAMILIES' order; None when every
    family is out already (no attempt is left)."""
    named = [f for f in named_families(output) if f not in left]
    if not named:
        named = [f for f in FAMILIES if f not in left][:1]
    return left + named if named else None


def attempt_label(left):
    """'everything', 'without thinmpi', 'without thinmpi and the peers', ..."""
    names = [family[0] for family in left]
    if not names:
        return "everything"
    return "without " + (names[0] if len(names) == 1 else
                         ", ".join(names[:-1]) + " and " + names[-1])


def left_out_apis(left):
    """The APIs whose cells the families in `left` hold (failures, not missing cells)."""
    return tuple(api for family in left for api in family[2])


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
    """Builds `preset` into `build_dir`; returns (manifest path or None, [(attempt, error)],
    the APIs the build left out because a fuller attempt failed)."""
    build_dir = Path(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    log_path = build_dir / "wb_build.log"
    log_path.write_text("")
    failures, left = [], []
    while left is not None:
        configure = ["cmake", "--preset", preset, "-S", str(repo), "-B", str(build_dir),
                     "-DTHINMPI_BUILD_TESTS=OFF", "-DTHINMPI_BUILD_EXAMPLES=OFF",
                     "-DTHINMPI_BUILD_BENCH=ON", "-DWB_WITH_THINMPI=ON", "-DWB_WITH_BOOST=ON",
                     "-DWB_WITH_PEERS=ON", *extra_options, *(family[1] for family in left)]
        ok, output = _run(configure, log_path)
        if ok:
            # The default target: with tests and examples off it is every harness of the bench
            # (a list of targets here had left wb_neighbors unbuilt).
            build = ["cmake", "--build", str(build_dir), "-j", str(os.cpu_count() or 2)]
            ok, output = _run(build, log_path)
        if ok:
            return build_dir / "bench" / "wb_build.json", failures, left_out_apis(left)
        failures.append((attempt_label(left), error_lines(output)))
        left = next_left_out(left, output)
    return None, failures, left_out_apis(FAMILIES)
