"""The suites across hosts (tiny-hosts, osu-hosts; --hosts or --hostfile): their jobs, options
and launchers (hosts.py) and tables (host_tables.py). They run only when asked for, so they are
not among the rooms' default suites."""

from ...core.room import Room
from . import host_tables, hosts


def _start(options, setup, repo):
    return hosts.start(options, setup, repo) if options.hosts or options.hostfile else None


def _launcher_key(job):
    return hosts.launcher_key(job) if job.suite in hosts.HOST_SUITES else None


def _sections(doc, charts, section_type):
    return {"hosts": section_type("Across hosts", host_tables.host_lines(doc["context"]),
                                  host_tables.host_tables(doc["cells"]))}


ROOM = Room("hosts", setup_jobs=hosts.jobs, sections=_sections, add_options=hosts.add_options,
            check_options=hosts.check_options, start=_start, launcher_key=_launcher_key)
