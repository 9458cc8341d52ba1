"""What this machine has: MPI implementations, compilers, the builds' variants, Boost.MPI and
mpi4py builds and which MPI each links, and the context block of results.json."""

import json
import os
import platform
import re
import shutil
import subprocess
import sys
from datetime import datetime, timezone

MPIS = ("openmpi", "mpich")
COMPILERS = ("gcc", "clang")
MPIEXEC = {"openmpi": "mpirun.openmpi", "mpich": "mpiexec.mpich"}
COMPILER_PROBES = {"gcc": "gcc", "clang": "clang"}


def installed_presets():
    """The (mpi, compiler) pairs whose MPI wrapper compiler and C compiler are installed."""
    return [(mpi, compiler) for mpi in MPIS if shutil.which(f"mpicxx.{mpi}")
            for compiler in COMPILERS if shutil.which(COMPILER_PROBES[compiler])]


def run_text(command, env=None, timeout=60):
    """stdout of `command`, or None when it fails."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=env,
                                timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout if result.returncode == 0 else None


def json_lines(text):
    """The JSON objects of a text, one per line; other lines are ignored."""
    records = []
    for line in (text or "").splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return records


def linked_mpi(path):
    """The MPI that `ldd path` shows the library links: openmpi, mpich or None."""
    text = run_text(["ldd", str(path)]) or ""
    if "libmpich" in text:
        return "mpich"
    if "libmpi.so" in text:
        return "openmpi"
    return None


def harness_variants(harness):
    """The harness's variants as (name, element_bytes, max_count), and their baselines."""
    records = json_lines(run_text([str(harness), "--list"]))
    variants = tuple((r["variant"], int(r["element_bytes"]), int(r["max_count"]))
                     for r in records)
    return variants, {r["variant"]: r["baseline"] for r in records}


def harness_info(harness):
    """The harness's --info record (MPI library version, compilers, Boost version)."""
    records = json_lines(run_text([str(harness), "--info"]))
    return records[0] if records else {}


def mpi4py_info(python, kernel, pythonpath=None):
    """mpi4py_kernel --info from `python`, with the MPI its extension links; None without one."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    records = json_lines(run_text([python, str(kernel), "--info"], env=env))
    if not records:
        return None
    info = records[0]
    info["linked_mpi"] = linked_mpi(info["mpi4py_extension"])
    info["python_path"], info["pythonpath"] = python, pythonpath
    return info


def read_json(path, default=None):
    """The JSON document at `path`, or `default` when it is missing or broken."""
    try:
        with open(path) as handle:
            return json.load(handle)
    except (OSError, json.JSONDecodeError):
        return default


def binding_flags(mpi):
    """The launcher flags that bind each rank to a core."""
    return ["--bind-to", "core"] if mpi == "openmpi" else ["-bind-to", "core"]


def check_binding(mpi, mpiexec, env):
    """Whether `mpiexec` can bind two ranks to cores here."""
    command = [mpiexec, "-n", "2", *binding_flags(mpi), "true"]
    return run_text(command, env=env, timeout=60) is not None


# pml_base_verbose's line naming the PML Open MPI took ("... select: component ob1 selected"
# in 4.1, "selected ob1 best priority" beside it).
PML_SELECTED = re.compile(r"(?:selected ([a-z0-9]+) best priority|component ([a-z0-9]+) selected)")


def chosen_pml(command, env):
    """The PML Open MPI picks on its own for `command` (a short 2-rank launch of an MPI
    program), read from pml_base_verbose; None when the launch failed or did not say."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=60,
                                env=dict(env, OMPI_MCA_pml_base_verbose="10"))
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = PML_SELECTED.search(result.stdout + result.stderr)
    return (match.group(1) or match.group(2)) if match and result.returncode == 0 else None


def cpu_model():
    """The CPU's model name from /proc/cpuinfo."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def os_name():
    """PRETTY_NAME of /etc/os-release."""
    try:
        with open("/etc/os-release") as release:
            for line in release:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.system()


def machine_context():
    """The machine half of the context block (google/benchmark style)."""
    return {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "host": platform.node(), "cpu_model": cpu_model(), "cpu_count": os.cpu_count(),
            "os": os_name(), "kernel": platform.release(),
            "driver_python": sys.version.split()[0]}
