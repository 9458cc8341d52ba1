"""The suites across hosts (tiny-hosts, osu-hosts; --hosts or --hostfile): their launchers and
jobs (hosts.py) and tables (host_tables.py). They run only when asked for, so they are not among
the rooms' default suites."""

from ...core.room import Room
from . import host_tables, hosts


def _sections(doc, charts, section_type):
    return {"hosts": section_type("Across hosts", host_tables.host_lines(doc["context"]),
                                  host_tables.host_tables(doc["cells"]))}


ROOM = Room("hosts", setup_jobs=hosts.jobs, sections=_sections)
