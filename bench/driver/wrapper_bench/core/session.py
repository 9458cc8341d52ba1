"""Setting up the builds of a run: harness presets and mpi4py interpreters, each paired with the
launcher of the MPI it links, plus the missing cells and build failures found on the way."""

from dataclasses import dataclass, field
from pathlib import Path

from . import build as build_step
from .detect import (harness_info, harness_variants, linked_mpi, mpi4py_info, read_json)
from .jobs import Build
from .runner import Launcher

MPI4PY_BUILD_VARIANTS = (("c/int_buffer", 4, 0), ("mpi4py/numpy", 4, 0), ("mpi4py/object", 4, 0))
# The serialization suite's (serial_suite.py): each pickled object against its C floor.
MPI4PY_SERIAL_VARIANTS = tuple((f"{api}/{payload}", 1, 0) for payload in
                               ("ser_vecstr", "ser_map", "ser_record") for api in ("c", "mpi4py"))


@dataclass
class Setup:
    """Everything the run needs to know about the builds, and what it could not get."""

    builds: list = field(default_factory=list)
    launchers: dict = field(default_factory=dict)  # (mpi, compiler) -> Launcher
    manifests: dict = field(default_factory=dict)  # (mpi, compiler) -> wb_build.json
    baselines: dict = field(default_factory=dict)
    context: dict = field(default_factory=lambda: {"mpi": {}, "compilers": {}, "boost": {},
                                                   "mpi4py": {}, "binding": {}})
    missing: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    symbols: list = field(default_factory=list)  # rows of kernels outside the presets (Go)
    # (mpi, compiler) -> the APIs its build left out because they did not compile: failures
    # already, never missing cells
    left_out: dict = field(default_factory=dict)

    def miss(self, mpi, compiler, api, reason):
        """Records a missing cell group once."""
        entry = {"mpi": mpi, "compiler": compiler, "api": api, "reason": reason}
        if entry not in self.missing:
            self.missing.append(entry)


def boost_options(repo, mpi, user_libraries):
    """-DWB_BOOST_MPI_LIBRARY for an MPI: the user's, else the one built from Debian source."""
    library = user_libraries.get(mpi)
    status = read_json(Path(repo) / "build" / f"boost-mpi-{mpi}" / "status.json", {})
    if not library and status.get("ok"):
        library = status["library"]
    return [f"-DWB_BOOST_MPI_LIBRARY={library}"] if library else [], status.get("reason")


def add_harness(setup, repo, mpi, compiler, options):
    """Builds (or finds) one preset's harness and registers it, or the failures and missing
    cells that stand for it."""
    preset = f"{mpi}-{compiler}"
    extra, boost_reason = boost_options(repo, mpi, options.boost_for)
    build_dir = Path(options.build_prefix + preset)
    if options.no_build:
        manifest_path, errors, failed = build_dir / "bench" / "wb_build.json", [], ()
    else:
        manifest_path, errors, failed = build_step.build_preset(repo, preset, build_dir, extra)
    for label, error in errors:
        setup.failures.append({"what": f"build {preset} ({label})", "mpi": mpi,
                               "compiler": compiler, "error": error})
    manifest = read_json(manifest_path) if manifest_path else None
    if not manifest:
        if not errors:  # a build that failed is a failure (above), not a missing cell
            setup.miss(mpi, compiler, "all", f"the {preset} kernels are not built "
                       f"(no {manifest_path})")
        return
    setup.left_out[(mpi, compiler)] = failed
    _register_harness(setup, mpi, compiler, manifest, boost_reason, failed)


def _register_harness(setup, mpi, compiler, manifest, boost_reason, failed=()):
    """Registers a built harness; the APIs in `failed` were left out because they did not
    compile (failures already), the others it lacks are missing cells."""
    variants, baselines = harness_variants(manifest["harness"])
    if not variants:
        setup.miss(mpi, compiler, "all", f"{manifest['harness']} --list gave nothing")
        return
    setup.baselines.update(baselines)
    info = harness_info(manifest["harness"])
    setup.context["mpi"][mpi] = info.get("mpi_library_version", "unknown")
    setup.context["compilers"][f"{mpi}-{compiler}"] = {"c": info.get("c_compiler"),
                                                       "cxx": info.get("cxx_compiler")}
    if manifest.get("boost_mpi_library"):
        setup.context["boost"][mpi] = (f"Boost {info.get('boost')} "
                                       f"{manifest['boost_mpi_library']} (links "
                                       f"{linked_mpi(manifest['boost_mpi_library'])})")
    elif "boost" not in failed:
        reason = manifest.get("boost_mpi_missing_reason") or "not built"
        setup.miss(mpi, compiler, "boost", f"{reason}" + (f"; {boost_reason}"
                                                         if boost_reason else ""))
    if not manifest.get("thinmpi") and "thinmpi" not in failed:
        setup.miss(mpi, compiler, "thinmpi", manifest.get("thinmpi_missing_reason") or
                   "not built")
    setup.builds.append(Build(mpi, compiler, variants))
    setup.manifests[(mpi, compiler)] = manifest
    setup.launchers[(mpi, compiler)] = Launcher(mpi, manifest["mpiexec"], [manifest["harness"]],
                                                audit_library=manifest["audit_library"])


def mpi4py_reason(repo, mpi):
    """Why an MPI has no mpi4py: the setup script's reason, or how to give one."""
    status = read_json(Path(repo) / "build" / f"mpi4py-{mpi}" / "status.json", {})
    return status.get("reason") or (f"no python interpreter whose mpi4py links {mpi} was found; "
                                    f"give one with --python-for {mpi}=/path/to/python")


def built_mpi4py(repo, mpi):
    """(python, PYTHONPATH) of an mpi4py that bench/setup/build-mpi4py.sh built, if any."""
    status = read_json(Path(repo) / "build" / f"mpi4py-{mpi}" / "status.json", {})
    return [("/usr/bin/python3", status["pythonpath"])] if status.get("ok") else []


def add_mpi4py(setup, repo, mpi, interpreters, kernel):
    """Registers the interpreter whose mpi4py links `mpi`, never one linking another MPI.

    `interpreters` are (python, PYTHONPATH or None) pairs, the user's first."""
    candidates = interpreters + built_mpi4py(repo, mpi)
    infos = [i for i in (mpi4py_info(python, kernel, path) for python, path in candidates)
             if i]
    matching = [i for i in infos if i["linked_mpi"] == mpi]
    if not matching:
        checked = "; ".join(f"{i['python_path']}'s mpi4py links {i['linked_mpi']}" for i in infos)
        setup.miss(mpi, "python", "mpi4py", mpi4py_reason(repo, mpi) +
                   (f" (checked with ldd: {checked})" if checked else ""))
        return
    info = matching[0]
    setup.context["mpi4py"][mpi] = (f"mpi4py {info['mpi4py']} (NumPy {info['numpy']}, Python "
                                    f"{info['python']}, {info['python_path']}) linking "
                                    f"{info['mpi_library_version'].splitlines()[0]}")
    manifest = next((m for (m_mpi, _), m in setup.manifests.items() if m_mpi == mpi), None)
    program = [info["python_path"], str(kernel)]
    variants = MPI4PY_BUILD_VARIANTS
    if manifest:
        program += ["--c-kernels", manifest["c_kernels_library"]]
        variants += MPI4PY_SERIAL_VARIANTS
    else:
        variants = variants[1:]
    mpiexec = manifest["mpiexec"] if manifest else {"openmpi": "mpirun.openmpi",
                                                    "mpich": "mpiexec.mpich"}[mpi]
    audit = manifest["audit_library"] if manifest else ""
    setup.builds.append(Build(mpi, "python", variants, runner="mpi4py"))
    env = {"PYTHONPATH": info["pythonpath"]} if info.get("pythonpath") else {}
    setup.launchers[(mpi, "python")] = Launcher(mpi, mpiexec, program, audit_library=audit,
                                                env=env)
    setup.baselines.update({"mpi4py/numpy": "c/int_buffer", "mpi4py/object": "c/int_buffer"})
    setup.baselines.update({v: v.replace("mpi4py/", "c/") for v, _, _ in MPI4PY_SERIAL_VARIANTS
                            if v.startswith("mpi4py/")})
