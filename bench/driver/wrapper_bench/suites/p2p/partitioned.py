"""The MPI-4 rows of the tiny suite: c/partitioned and thinmpi/partitioned exist only where the
MPI's mpi.h says MPI 4 or later (MPICH 4; Open MPI 4.1 is MPI 3.1), so a harness without them is
a missing cell with the reason, never a silent gap in the persistent table."""

from ...core.detect import harness_info

VARIANTS = ("c/partitioned", "thinmpi/partitioned")


def _reason(standard):
    """Why a build whose MPI follows `standard` ("3.1", or None when unknown) has no rows."""
    if standard and int(standard.split(".")[0]) < 4:
        return (f"this MPI implements MPI {standard} (MPI_Get_version); partitioned "
                "point-to-point (MPI_Psend_init, MPI_Precv_init, MPI_Pready) is MPI-4")
    return "this build predates the partitioned kernels (rebuild the kernels)"


def note_missing(setup, api_filter=None, info=harness_info):
    """Files the partitioned variants that a harness build lacks under the run's missing cells
    (one row per build: C and thinmpi, or C alone when --api leaves thinmpi out)."""
    wanted = [v for v in VARIANTS
              if v.startswith("c/") or api_filter is None or v.split("/")[0] in api_filter]
    for build in setup.builds:
        manifest = setup.manifests.get((build.mpi, build.compiler))
        lacking = [v for v in wanted if not build.has(v)]
        if build.runner != "harness" or not manifest or not lacking:
            continue
        if "thinmpi/partitioned" in lacking and not manifest.get("thinmpi"):
            lacking.remove("thinmpi/partitioned")  # thinmpi is missing as a whole already
        if lacking:
            standard = info(manifest["harness"]).get("mpi_standard")
            setup.miss(build.mpi, build.compiler, ", ".join(lacking), _reason(standard))
