"""Launches jobs on two ranks with the launcher of the job's own MPI, and reads their records."""

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

from . import placement
from .detect import binding_flags, json_lines

ROOT_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
LAUNCH_SECONDS = 0.5


@dataclass
class Launcher:
    """How to start one build's kernel: its MPI's mpiexec, the program and its environment."""

    mpi: str
    mpiexec: str
    program: list
    bind: bool = True
    audit_library: str = ""
    env: dict = field(default_factory=dict)
    timeout_factor: float = 1.0  # launches across hosts take longer (hosts.HostLauncher)

    def env_flags(self, variables):
        """Launcher flags that hand `variables` to the ranks only (never to mpiexec itself)."""
        return env_flags(self.mpi, variables)

    def command(self, arguments, rank_env=None):
        """The full command line for `arguments`, with variables for the ranks."""
        bind = binding_flags(self.mpi) if self.bind else []
        return [self.mpiexec, "-n", "2", *bind, *self.env_flags(rank_env or {}),
                *self.program, *arguments]


def env_flags(mpi, variables):
    """`mpi`'s launcher flags that hand `variables` to the ranks only (never to mpiexec)."""
    flags = []
    for name, value in variables.items():
        flags += ["-x", f"{name}={value}"] if mpi == "openmpi" else ["-genv", name, value]
    return flags


@dataclass
class Outcome:
    """What one launch gave: the harness's records, or the error that stopped it."""

    records: list
    error: str = None
    audit_lines: list = field(default_factory=list)


def warmup_of(job):
    """A job's warm-up round trips: its counts', or a tenth of its own where it has fewer or
    more round trips than they (at least 10)."""
    counts = job.counts
    return counts.warmup if job.iterations == counts.iterations else \
        max(10, job.iterations // 10)


def job_arguments(job):
    """The harness (and mpi4py kernel) command line of a job."""
    counts = job.counts
    arguments = ["--variants", ",".join(job.variants), "--count", str(job.count),
                 "--warmup", str(warmup_of(job))]
    if job.suite == "audit":
        return arguments + ["--audit", str(job.iterations)]
    blocks = max(1, min(counts.blocks, job.iterations))
    return arguments + ["--iterations", str(job.iterations), "--blocks", str(blocks)]


def run_as_root(command, timeout, env=None):
    """Runs a launcher command with the variables that let Open MPI run as root (and `env`):
    (the completed process, None), or (None, why) when it ran past `timeout` seconds."""
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, **ROOT_ENV, **(env or {}))), None
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout:.0f} s"


def _failure_text(result):
    text = (result.stderr or "").strip().splitlines()
    useful = [line for line in text if "wb_kernels" in line or "Error" in line or "error" in line]
    return "\n".join((useful or text)[-4:]) or f"exit status {result.returncode}"


def launch(launcher, job, timeout):
    """Runs one repetition of `job`; never raises for a failing kernel."""
    env = dict(os.environ, **ROOT_ENV, **launcher.env)
    rank_env, audit_path = {}, None
    if job.suite == "audit":
        handle, audit_path = tempfile.mkstemp(prefix="wb_audit_", suffix=".jsonl")
        os.close(handle)
        rank_env = {"LD_PRELOAD": launcher.audit_library, "WB_AUDIT_OUT": audit_path}
    else:
        rank_env = placement.rank_env(launcher.audit_library)
    command = launcher.command(job_arguments(job), rank_env)
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=env,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome([], f"timed out after {timeout:.0f} s: {' '.join(command)}")
    audit_lines = _read_audit(audit_path)
    records = json_lines(result.stdout)
    if result.returncode != 0 or len(records) != len(job.variants):
        return Outcome(records, _failure_text(result), audit_lines)
    unverified = [r["variant"] for r in records if not r.get("verified")]
    error = f"payload did not verify: {', '.join(unverified)}" if unverified else None
    return Outcome(records, error, audit_lines)


def _read_audit(path):
    if not path:
        return []
    try:
        with open(path) as handle:
            return json_lines(handle.read())
    finally:
        os.unlink(path)


def estimated_seconds(job):
    """A rough cost of a job (all repetitions), for the progress line's ETA."""
    per_rep = LAUNCH_SECONDS
    for name in job.variants:
        element = job.build.element_bytes(name) if job.build.has(name) else 4
        size = job.count * element
        one_way_us = 0.6 + size / 4000.0 + (job.count * 0.08 if name == "mpi4py/object" else 0)
        per_rep += (job.iterations + warmup_of(job)) * 2 * one_way_us * 1e-6
    return per_rep * job.counts.reps


class Progress:
    """A progress line with an ETA scaled by how fast the estimates have come true so far."""

    def __init__(self, jobs, stream=sys.stderr):
        self.total = sum(estimated_seconds(job) for job in jobs) or 1.0
        self.done, self.count, self.finished = 0.0, len(jobs), 0
        self.start, self.stream = time.monotonic(), stream

    def eta_seconds(self):
        """Seconds left, scaling the estimate by the pace so far."""
        elapsed = time.monotonic() - self.start
        if self.done <= 0:
            return self.total
        return elapsed / self.done * (self.total - self.done)

    def step(self, job, failed=False):
        """Counts a finished job and redraws the line."""
        self.finished += 1
        self.done += estimated_seconds(job)
        eta = self.eta_seconds()
        mark = "FAILED " if failed else ""
        line = (f"[{self.finished}/{self.count}] {100 * self.done / self.total:5.1f}% "
                f"ETA {int(eta) // 60}m{int(eta) % 60:02d}s {mark}{job.key}")
        end = "\r" if self.stream.isatty() else "\n"
        self.stream.write(line[:160].ljust(160 if end == "\r" else 0) + end)
        self.stream.flush()

    def close(self):
        """Ends the line on a terminal."""
        if self.stream.isatty():
            self.stream.write("\n")
