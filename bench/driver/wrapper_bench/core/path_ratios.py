"""The report's first screen reads one thing from the rooms: each library's ratio against C on a
path, one value per cell that a room's table shows (a room's `ratios` hook, core/room.py). The
first screen (wrapper_bench/first_screen.py) draws and tabulates them; it never computes a ratio
of its own."""

from dataclasses import dataclass

# The groups of paths, in the first screen's order: the suite a ratio was measured in.
GROUPS = ("ping-pong", "size sweep", "OSU sweep", "serialized", "collectives", "thinmpi only")
SUITE_GROUPS = {"tiny": "ping-pong", "sweep": "size sweep", "osu": "OSU sweep",
                "serialization": "serialized", "collectives": "collectives"}
# The libraries, in the first screen's order, with their names.
LIBRARIES = (("thinmpi", "thinmpi"), ("kamping", "KaMPIng"), ("mpl", "MPL"),
             ("boost", "Boost.MPI"), ("mpi4py", "mpi4py"), ("go", "Go"))


@dataclass(frozen=True)
class PathRatio:
    """One library's ratio against the C code of a path, in one cell (MPI, compiler, size) of a
    room's table: the number that table shows there."""

    group: str  # one of GROUPS
    path: str  # the path's label in that table, e.g. "vector<int> of unknown size"
    api: str  # one of LIBRARIES' keys
    variant: str
    mpi: str
    compiler: str
    bytes: int
    ratio: float
