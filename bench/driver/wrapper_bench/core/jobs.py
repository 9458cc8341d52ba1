"""What every suite's jobs are made of: a build (a harness and its variants), the round trips
of a suite, a job (one launch of several variants), the driver's filters, and the choice of a
job's variants. The matrix (matrix.py) and every room's jobs build on it.
"""

from dataclasses import dataclass, field

# The APIs of the variants (--api): C always runs; kamping and mpl are the peers (suites/peers).
APIS = ("c", "boost", "thinmpi", "mpi4py", "go", "kamping", "mpl")
# Builds whose variants do not depend on the C/C++ compiler (the --compiler filter keeps them).
COMPILER_FREE_RUNNERS = ("mpi4py", "go", "osu")  # the Go runner covers "go" and "gompi" builds


@dataclass(frozen=True)
class Counts:
    """Round trips of one suite: the article's (full) or the quick ones."""

    iterations: int
    warmup: int
    reps: int
    blocks: int = 20
    sizes: tuple = None  # a sweep's sizes in this mode (None: all of the suite's)
    large: tuple = None  # (bytes, round trips): fewer round trips from that size up (None: none)


@dataclass(frozen=True)
class Build:
    """One harness: an MPI x compiler preset, or the mpi4py kernel of an MPI ("python")."""

    mpi: str
    compiler: str
    variants: tuple  # (name, element_bytes, max_count) of every variant it has
    runner: str = "harness"  # or "mpi4py", "go", "osu"

    def has(self, name):
        """Whether this build has the variant `name`."""
        return any(v[0] == name for v in self.variants)

    def admits(self, name, count):
        """Whether the variant `name` can carry `count` elements here."""
        return any(v[0] == name and (v[2] == 0 or count <= v[2]) for v in self.variants)

    def element_bytes(self, name):
        """Bytes of one element of the variant `name`."""
        return next(v[1] for v in self.variants if v[0] == name)


@dataclass
class Job:
    """One launch: `variants` run together on `count` elements."""

    suite: str
    build: Build
    variants: tuple
    count: int
    counts: Counts
    iterations: int = 0
    key: str = field(default="")

    def __post_init__(self):
        self.iterations = self.iterations or self.counts.iterations
        self.key = (f"{self.suite}/{self.build.mpi}-{self.build.compiler}/n{self.count}/"
                    f"{','.join(self.variants)}")


@dataclass(frozen=True)
class Filters:
    """The driver's filters; None means everything (suites: None, every room's suites)."""

    mpi: tuple = None
    compiler: tuple = None
    api: tuple = None
    sweep_bytes: tuple = None
    suites: tuple = None

    def keeps_build(self, build):
        """Whether the MPI and compiler filters keep `build`."""
        compilers_ok = self.compiler is None or build.runner in COMPILER_FREE_RUNNERS or \
            build.compiler in self.compiler
        return (self.mpi is None or build.mpi in self.mpi) and compilers_ok

    def keeps_variant(self, name):
        """Whether the API filter keeps the variant (C baselines always)."""
        api = name.split("/")[0]
        return self.api is None or api in self.api or name.startswith("c/")


def chosen(build, names, count, filters):
    """The names that this build can run at this count and that the filters keep."""
    return tuple(n for n in names if build.admits(n, count) and filters.keeps_variant(n))


def with_baselines(names, baselines):
    """Adds the C baselines of `names` in front, so every ratio is measured in the same run."""
    needed = [baselines.get(n) for n in names]
    front = [b for b in dict.fromkeys(needed) if b and b not in names]
    return tuple(front) + tuple(names)
