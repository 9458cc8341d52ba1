"""The path audit: its jobs under the PMPI interposer (audit_jobs.py) and its tables, the
symbols, thinmpi against its targets, and the missing and failed cells (path_tables.py)."""

from ...core.room import Room
from . import audit_jobs, path_tables


def _sections(doc, charts, section_type):
    return {
        "path_audit": section_type("Path audit", tables=path_tables.audit_tables(doc["audit"])),
        "symbols": section_type("Symbols", tables=path_tables.symbol_tables(doc["symbols"])),
        "targets": section_type("thinmpi against its targets", tables=[
            path_tables.thinmpi_targets(doc["cells"], doc.get("instructions"))]),
        "missing": section_type("Missing and failed cells",
                                tables=[path_tables.missing_table(doc["missing"]),
                                        path_tables.failures_table(doc["failures"])]),
    }


ROOM = Room("audit", suites=("audit",), counts=audit_jobs.COUNTS, jobs=audit_jobs.audit_jobs,
            sections=_sections, ratios=path_tables.path_ratios)
