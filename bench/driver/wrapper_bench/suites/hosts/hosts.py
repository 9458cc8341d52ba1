"""wrapper-bench across hosts: one rank on each of two hosts, with the OSU sweep and the tiny
suite as the single-node run has them (suites osu-hosts and tiny-hosts).

Where the two hosts come from:
  --hosts cluster      the local cluster of network namespaces (scripts/cluster.sh up 2), made
                       for the run and removed after it; its launcher is scripts/cluster-run.sh's
  --hosts a,b          two hosts of a real cluster, started by the MPI's own launcher (ssh)
  --hostfile FILE      the same, from a hostfile
  --launcher srun      Slurm starts the ranks: srun -N 2 -n 2 --ntasks-per-node=1 (-w a,b with
                       --hosts)
Before the host jobs of an MPI run, `hostname` is launched the same way: the ranks must land on
two different hosts, and the report names them. On the local cluster a 64 KiB ping-pong also
checks that the bytes crossed eth0 (its counters), i.e. that the transport was the network.
"""

import dataclasses
import fcntl
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field

from ...core import p2p_jobs
from ...core.jobs import Job, chosen, with_baselines
from ...core.osu import OSU_VARIANTS, sweep_sizes
from ...core.runner import ROOT_ENV, Launcher

HOST_SUITES = ("tiny-hosts", "osu-hosts")
SINGLE_NODE_SUITE = {"tiny-hosts": "tiny", "osu-hosts": "osu"}
LAUNCHERS = ("mpiexec", "srun")
# Boost.MPI and mpi4py have no char path of their own in the harness: their OSU columns send
# the same bytes as ints (Boost.MPI's raw-pointer send, an int32 NumPy array), from 4 B.
OSU_INT_VARIANTS = ("boost/raw", "mpi4py/numpy")
CLUSTER_LOCK = "/run/thinmpi-cluster.lock"  # scripts/cluster-run.sh takes it too
TRANSPORT_CHECK_BYTES, TRANSPORT_CHECK_ROUND_TRIPS = 65536, 100


def add_options(parser):
    """--hosts, --hostfile and --launcher."""
    parser.add_argument("--hosts", help="'cluster' (local namespaces) or two host names a,b: "
                        "adds the suites tiny-hosts and osu-hosts, one rank per host")
    parser.add_argument("--hostfile", help="a hostfile naming two hosts (instead of --hosts)")
    parser.add_argument("--launcher", default="mpiexec", choices=LAUNCHERS,
                        help="what starts the ranks across hosts (default: the MPI's mpiexec)")


def check_options(options, suites_given, known):
    """The host options made consistent; returns an error sentence or None. Adds the host
    suites to the run when --hosts/--hostfile is given without --suites. `known`: the suites
    of every room (rooms.SUITES), which run on one node."""
    wanted = options.hosts or options.hostfile
    if options.hosts and options.hostfile:
        return "give --hosts or --hostfile, not both"
    if options.hosts and options.hosts != "cluster" and len(host_names(options.hosts)) != 2:
        return (f"--hosts {options.hosts}: give two host names (a,b) or 'cluster' for the "
                "local namespaces")
    if options.hostfile and not os.path.isfile(options.hostfile):
        return f"--hostfile {options.hostfile}: no such file"
    if options.launcher == "srun" and options.hosts == "cluster":
        return "--launcher srun starts ranks on Slurm's nodes, not on the local cluster"
    if options.launcher == "srun" and options.hostfile:
        return "--launcher srun takes its nodes from Slurm (or --hosts a,b), not a hostfile"
    asked = [s for s in options.suites if s in HOST_SUITES]
    if asked and not wanted:
        return f"the suites {','.join(asked)} run across hosts: give --hosts or --hostfile"
    unknown = [s for s in options.suites if s not in tuple(known) + HOST_SUITES]
    if unknown:
        names = ",".join(tuple(known) + HOST_SUITES)
        return f"unknown suites {','.join(unknown)}: choose from {names}"
    if wanted and not suites_given:
        options.suites = tuple(options.suites) + HOST_SUITES
    return None


def host_names(text):
    """'a,b' -> ['a', 'b']."""
    return [name for name in text.split(",") if name]


def _renamed(jobs, suite):
    return [dataclasses.replace(job, suite=suite) for job in jobs]


def osu_jobs(build, counts, filters, baselines):
    """C and thinmpi chars at each OSU size; Boost.MPI raw ints and mpi4py NumPy int32 of the
    same bytes (from 4 B), each with its C baseline in the same launch."""
    jobs = []
    for size in sweep_sizes(filters):
        chars = chosen(build, OSU_VARIANTS, size, filters)
        if build.runner == "harness" and chars:
            jobs.append(Job("osu-hosts", build, chars, size, counts))
        ints = chosen(build, OSU_INT_VARIANTS, size // 4, filters) if size >= 4 else ()
        if ints:
            jobs.append(Job("osu-hosts", build, with_baselines(ints, baselines), size // 4,
                            counts))
    return jobs


def tiny_jobs(build, counts, filters, baselines):
    """The tiny suite's jobs, one rank per host."""
    return _renamed(p2p_jobs.tiny_jobs(build, counts, filters, baselines), "tiny-hosts")


SUITE_JOBS = {"tiny-hosts": tiny_jobs, "osu-hosts": osu_jobs}


def host_compiler(builds, compilers):
    """The one compiler whose kernels run across hosts: the first of --compiler, else gcc (the
    network does not depend on the compiler, and every host launch costs seconds)."""
    present = [b.compiler for b in builds if b.runner == "harness"]
    for compiler in (compilers or ("gcc",)) + tuple(present):
        if compiler in present:
            return compiler
    return None


def expand(builds, filters, counts_by_suite, baselines):
    """The host suites' jobs (filters.suites may hold any suite; only host ones are used)."""
    compiler = host_compiler(builds, filters.compiler)
    jobs = []
    for suite in (s for s in filters.suites if s in HOST_SUITES):
        for build in builds:
            if filters.keeps_build(build) and build.compiler in (compiler, "python"):
                jobs.extend(SUITE_JOBS[suite](build, counts_by_suite[SINGLE_NODE_SUITE[suite]],
                                              filters, baselines))
    return jobs


def jobs(setup, filters, counts_by_suite):
    """The host suites' jobs of the builds that have a host launcher."""
    return [job for job in expand(setup.builds, filters, counts_by_suite, setup.baselines)
            if launcher_key(job) in setup.launchers]


def launcher_key(job):
    """setup.launchers' key for a job: host suites have launchers of their own."""
    key = (job.build.mpi, job.build.compiler)
    return key + ("hosts",) if job.suite in HOST_SUITES else key


@dataclass
class HostLauncher(Launcher):
    """A Launcher whose command starts one rank on each of two hosts: `prefix` is everything
    before the program (launcher, hosts, transport settings)."""

    prefix: list = field(default_factory=list)
    srun: bool = False
    # Starting daemons on other hosts costs seconds (Open MPI on the loaded 2-core VM: 10-25 s
    # per launch). Not more: MPICH over UCX's TCP transport can hang in MPI_Finalize
    # (openucx/ucx#8738), and each hang costs the whole timeout.
    timeout_factor: float = 2.0

    def env_flags(self, variables):
        """Variables for the ranks; srun passes them with --export."""
        if self.srun:
            pairs = ",".join(f"{k}={v}" for k, v in variables.items())
            return [f"--export=ALL,{pairs}"] if pairs else []
        return super().env_flags(variables)

    def command(self, arguments, rank_env=None):
        """The launch command; the build's own variables (PYTHONPATH) go to every host."""
        variables = dict(self.env, **(rank_env or {}))
        return [*self.prefix, *self.env_flags(variables), *self.program, *arguments]


def launch_prefix(mpi, mpiexec, options, repo):
    """Everything before the program for one rank on each of two hosts."""
    if options.launcher == "srun":
        nodes = ["-w", options.hosts] if options.hosts else []
        return ["srun", "-N", "2", "-n", "2", "--ntasks-per-node=1", *nodes]
    if options.hosts == "cluster":
        printed = subprocess.run([str(repo / "scripts" / "cluster-run.sh"), "--print",
                                  "--hosts", "2", "--per-host", "1", mpi],
                                 capture_output=True, text=True, check=True).stdout
        return [str(repo / "scripts" / "cluster.sh"), "exec", "node1", "--",
                *printed.splitlines()]
    if mpi == "openmpi":
        where = ["--hostfile", options.hostfile] if options.hostfile else \
            ["--host", options.hosts]
        return [mpiexec, "-n", "2", "--map-by", "node", "--bind-to", "core", *where]
    where = ["-f", options.hostfile] if options.hostfile else ["-hosts", options.hosts]
    return [mpiexec, "-n", "2", "-ppn", "1", "-bind-to", "core", *where]


def transport_text(mpi, prefix, cluster):
    """What carried the messages, in words, from the settings the launch used."""
    if cluster:
        settings = {"openmpi": "Open MPI pml ob1, btl tcp", "mpich": "MPICH ch4:ucx, UCX_TLS=tcp"}
        return (f"TCP between network namespaces over a veth pair and a bridge ({settings[mpi]},"
                " eth0 of each host)")
    forced = [f"{k}={v}" for k, v in sorted(os.environ.items())
              if k.startswith(("UCX_", "OMPI_MCA_", "FI_", "MPIR_CVAR_"))]
    forced += [f"{a} {b}" for a, b in zip(prefix, prefix[1:]) if a == "--mca"]
    return "the MPI's own choice" + (f", with {'; '.join(forced)}" if forced else
                                     " (no transport forced: set UCX_TLS or OMPI_MCA_btl to "
                                     "pin one)")


def _run(command, timeout=120):
    env = dict(os.environ, **ROOT_ENV)
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=env,
                                timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, str(error)
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines()
        return None, "\n".join(lines[-3:]) or f"exit status {result.returncode}"
    return result.stdout, None


def rank_hosts(launcher):
    """The host names of the two ranks (launching `hostname`), or (None, error)."""
    output, error = _run(launcher.command([])[:-len(launcher.program)] + ["hostname"])
    if output is None:
        return None, f"launching hostname across hosts failed: {error}"
    names = [line.strip() for line in output.splitlines() if line.strip()]
    if len(set(names)) != 2:
        return None, (f"the two ranks ran on {', '.join(names) or 'nothing'}, not on two "
                      "hosts")
    return sorted(names), None


def wire_bytes(repo):
    """Bytes sent plus received on node1's eth0 of the local cluster."""
    output, _ = _run([str(repo / "scripts" / "cluster.sh"), "counters", "node1"])
    return sum(int(n) for n in output.split()) if output else None


def transport_check(launcher, repo):
    """On the local cluster: 100 round trips of 64 KiB; the bytes node1's eth0 carried meanwhile
    against the payload (about 1.0 when the messages crossed the network, ~0 for shared
    memory)."""
    before = wire_bytes(repo)
    arguments = ["--variants", "c/char_buffer", "--count", str(TRANSPORT_CHECK_BYTES),
                 "--warmup", "0", "--iterations", str(TRANSPORT_CHECK_ROUND_TRIPS),
                 "--blocks", "1"]
    output, error = _run(launcher.command(arguments))
    after = wire_bytes(repo)
    if output is None or before is None or after is None:
        return {"error": error or "no counters"}
    payload = 2 * TRANSPORT_CHECK_BYTES * TRANSPORT_CHECK_ROUND_TRIPS
    return {"payload_bytes": payload, "eth0_bytes": after - before,
            "wire_per_payload": round((after - before) / payload, 3)}


@dataclass
class HostRun:
    """What the host part of a run set up: its mode, and the local cluster when it made one."""

    mode: str
    repo: object
    cluster_up: bool = False
    lock: object = None

    def take_lock(self):
        """Waits for any other user of the local cluster (a multihost test, another bench)."""
        self.lock = open(CLUSTER_LOCK, "w")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"wrapper-bench: waiting for {CLUSTER_LOCK} (another cluster run)",
                  file=sys.stderr)
            fcntl.flock(self.lock, fcntl.LOCK_EX)

    def close(self):
        """Removes the local cluster (scripts/cluster.sh down) and lets others have it."""
        if self.cluster_up:
            subprocess.run([str(self.repo / "scripts" / "cluster.sh"), "down"], check=False)
            self.cluster_up = False
        if self.lock:
            self.lock.close()
            self.lock = None


def _mode(options):
    if options.launcher == "srun":
        return "srun"
    return "cluster" if options.hosts == "cluster" else "hostfile" if options.hostfile else \
        "hosts"


def start(options, setup, repo):
    """Brings up the local cluster if asked, registers a host launcher per build whose ranks
    land on two hosts, and records hosts and transport in setup.context["hosts"]."""
    run = HostRun(_mode(options), repo)
    context = {"mode": run.mode, "launcher": {}, "rank_hosts": {}, "transport": {},
               "transport_check": {}}
    setup.context["hosts"] = context
    if run.mode == "cluster":
        # A terminated run still removes its cluster (cli's finally), as an interrupted one does.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        run.take_lock()
        output, error = _run([str(repo / "scripts" / "cluster.sh"), "up", "2"])
        if output is None:
            for mpi in dict.fromkeys(m for m, _ in setup.launchers):
                setup.miss(mpi, "all", "hosts", f"the local cluster could not be made: {error}")
            return run
        run.cluster_up = True
    for key, launcher in list(setup.launchers.items()):
        _add_host_launcher(setup, key, launcher, options, repo, context)
    return run


def _add_host_launcher(setup, key, launcher, options, repo, context):
    mpi = launcher.mpi
    prefix = launch_prefix(mpi, launcher.mpiexec, options, repo)
    host_launcher = HostLauncher(mpi, launcher.mpiexec, launcher.program,
                                 audit_library=launcher.audit_library, env=dict(launcher.env),
                                 prefix=prefix, srun=options.launcher == "srun")
    if mpi not in context["rank_hosts"]:
        names, error = rank_hosts(host_launcher)
        context["rank_hosts"][mpi] = names or error
        context["launcher"][mpi] = " ".join(prefix)
        context["transport"][mpi] = transport_text(mpi, prefix, options.hosts == "cluster")
        if names and options.hosts == "cluster" and key[1] != "python":
            context["transport_check"][mpi] = transport_check(host_launcher, repo)
    if isinstance(context["rank_hosts"][mpi], str):
        setup.miss(mpi, key[1], "hosts", context["rank_hosts"][mpi])
        return
    setup.launchers[key + ("hosts",)] = host_launcher
