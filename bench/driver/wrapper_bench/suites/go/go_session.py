"""The Go kernel of a run: wb_go_kernel (cgo, one call per MPI call), built by each preset's
CMake (bench/cmake/WbGoBuild.cmake), registered once per MPI with that MPI's launcher; and the
GoMPI cells, which need github.com/sbromberger/gompi (bench/setup/build-gompi.sh tries to fetch
it and records why it could not)."""

import subprocess
from pathlib import Path

from ...core import audit
from ...core.detect import harness_variants, json_lines, read_json, run_text
from ...core.jobs import Build
from ...core.runner import Launcher

GOMPI_MODULE = "github.com/sbromberger/gompi"
GOMPI_VARIANT = "gompi/byte_slice_prealloc"


def go_status(manifest):
    """wb_go_build.json of a preset's build: {"ok", "kernel", "go"} or {"ok": false, "reason"}."""
    path = manifest.get("go_build_status")
    status = read_json(path, None) if path else None
    return status or {"ok": False, "reason": f"{path} is missing: the wb_go_kernel target was "
                      "not built"}


def gompi_status(repo, mpi, manifest, fetch):
    """build/gompi-<mpi>/status.json, after running bench/setup/build-gompi.sh when `fetch`."""
    if fetch and manifest:
        script = Path(repo) / "bench" / "setup" / "build-gompi.sh"
        library_dir = Path(manifest["c_kernels_library"]).parent
        try:
            subprocess.run([str(script), mpi, str(library_dir)], capture_output=True,
                           timeout=600)
        except (OSError, subprocess.TimeoutExpired):
            pass
    status = read_json(Path(repo) / "build" / f"gompi-{mpi}" / "status.json", {})
    return status if status else {"ok": False, "reason": (
        f"{GOMPI_MODULE} was not fetched: bench/setup/build-gompi.sh (make bench runs it) "
        "needs the Go module proxy or GitHub")}


def _manifest_for(setup, mpi):
    """The manifest of `mpi`'s gcc build (else its first), whose Go kernel the run uses."""
    manifests = {compiler: m for (m_mpi, compiler), m in setup.manifests.items() if m_mpi == mpi}
    return manifests.get("gcc") or next(iter(manifests.values()), None)


def _failed_build(setup, mpi, status):
    """A Go kernel that go could not vet or build is a failure; no go at all is a missing cell."""
    reason = status.get("reason", "unknown")
    if reason.startswith("go is not installed"):
        setup.miss(mpi, "go", "go", reason)
    else:
        setup.failures.append({"what": "build wb_go_kernel", "mpi": mpi, "compiler": "go",
                               "error": reason})
        setup.miss(mpi, "go", "go", "the Go kernel did not build (see Failed builds and runs)")


def _register(setup, mpi, label, kernel, manifest, keep=None):
    """Adds one Go kernel as a build of `mpi` (compiler `label`); returns False without
    variants. `keep` limits the variants to those it names."""
    variants, baselines = harness_variants(kernel)
    if keep:
        variants = tuple(v for v in variants if v[0] in keep)
    if not variants:
        setup.miss(mpi, label, label, f"{kernel} --list gave nothing")
        return False
    setup.baselines.update({name: base for name, base in baselines.items() if base})
    setup.builds.append(Build(mpi, label, variants, runner="go"))
    setup.launchers[(mpi, label)] = Launcher(mpi, manifest["mpiexec"], [kernel],
                                             audit_library=manifest["audit_library"])
    return True


def add_gompi(setup, repo, mpi, manifest, fetch):
    """Registers the kernel on GoMPI's own API where it was built, else names the cells."""
    status = gompi_status(repo, mpi, manifest, fetch)
    if not status.get("ok"):
        setup.miss(mpi, "gompi", "gompi", status.get("reason", "unknown"))
        return
    if _register(setup, mpi, "gompi", status["kernel"], manifest,
                 keep=(GOMPI_VARIANT, "c/char_buffer")):
        setup.context.setdefault("go", {})[f"{mpi} GoMPI"] = status.get("gompi", GOMPI_MODULE)


def add_go(setup, repo, mpi, fetch_gompi=False):
    """Registers `mpi`'s Go kernel (the gcc preset's), and GoMPI's where it can be built."""
    manifest = _manifest_for(setup, mpi)
    if not manifest:
        setup.miss(mpi, "go", "go", f"no {mpi} build of the kernels")
        return
    status = go_status(manifest)
    if not status.get("ok"):
        _failed_build(setup, mpi, status)
        return
    kernel = status["kernel"]
    if not _register(setup, mpi, "go", kernel, manifest):
        return
    info = next(iter(json_lines(run_text([kernel, "--info"]))), {})
    setup.context.setdefault("go", {})[mpi] = (
        f"{info.get('go', status.get('go'))}, {info.get('binding', 'cgo')}, GOMAXPROCS "
        f"{info.get('gomaxprocs', '?')}, {kernel}")
    mpi_symbols, _ = audit.object_symbols(kernel)
    setup.symbols.append({"mpi": mpi, "compiler": "gcc", "variant": "go/*",
                          "object": Path(kernel).name, "mpi_symbols": mpi_symbols,
                          "boost_mpi_entry_points": []})
    add_gompi(setup, repo, mpi, manifest, fetch_gompi)
