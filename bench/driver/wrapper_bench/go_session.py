"""The Go kernel of a run: wb_go_kernel (cgo, one call per MPI call), built by each preset's
CMake (bench/cmake/WbGoBuild.cmake), registered once per MPI with that MPI's launcher; and the
GoMPI cells, which need github.com/sbromberger/gompi (bench/setup/build-gompi.sh tries to fetch
it and records why it could not)."""

from pathlib import Path

from . import audit
from .detect import harness_variants, json_lines, read_json, run_text
from .matrix import Build
from .runner import Launcher

GOMPI_MODULE = "github.com/sbromberger/gompi"


def go_status(manifest):
    """wb_go_build.json of a preset's build: {"ok", "kernel", "go"} or {"ok": false, "reason"}."""
    path = manifest.get("go_build_status")
    status = read_json(path, None) if path else None
    return status or {"ok": False, "reason": "this build predates the Go kernel (rebuild it)"}


def gompi_reason(repo, mpi):
    """Why there is no kernel on GoMPI's own API for `mpi`."""
    status = read_json(Path(repo) / "build" / f"gompi-{mpi}" / "status.json", {})
    return status.get("reason") or (f"{GOMPI_MODULE} was not fetched: run "
                                    "bench/setup/build-gompi.sh (make bench does) where the Go "
                                    "module proxy or GitHub can be reached")


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


def add_go(setup, repo, mpi):
    """Registers `mpi`'s Go kernel (the gcc preset's) and the GoMPI cells' reason."""
    setup.miss(mpi, "go", "gompi", gompi_reason(repo, mpi))
    manifest = _manifest_for(setup, mpi)
    if not manifest:
        setup.miss(mpi, "go", "go", f"no {mpi} build of the kernels")
        return
    status = go_status(manifest)
    if not status.get("ok"):
        _failed_build(setup, mpi, status)
        return
    kernel = status["kernel"]
    variants, baselines = harness_variants(kernel)
    if not variants:
        setup.miss(mpi, "go", "go", f"{kernel} --list gave nothing")
        return
    info = next(iter(json_lines(run_text([kernel, "--info"]))), {})
    setup.context.setdefault("go", {})[mpi] = (
        f"{info.get('go', status.get('go'))}, {info.get('binding', 'cgo')}, GOMAXPROCS "
        f"{info.get('gomaxprocs', '?')}, {kernel}")
    setup.baselines.update({name: base for name, base in baselines.items() if base})
    setup.builds.append(Build(mpi, "go", variants, runner="go"))
    setup.launchers[(mpi, "go")] = Launcher(mpi, manifest["mpiexec"], [kernel],
                                            audit_library=manifest["audit_library"])
    mpi_symbols, _ = audit.object_symbols(kernel)
    setup.symbols.append({"mpi": mpi, "compiler": "gcc", "variant": "go/*",
                          "object": Path(kernel).name, "mpi_symbols": mpi_symbols,
                          "boost_mpi_entry_points": []})
