"""The point-to-point suites, tiny and sweep: their jobs (core/p2p_jobs.py, which the suites
across hosts and the instruction counts run too), the article's tables (tables.py), its
conclusions (conclusions.py) and the charts (charts.py)."""

from ...core import p2p_jobs
from ...core.room import Room
from . import charts, conclusions, partitioned, tables


def _by_chart(drawn, prefix):
    return [c for c in drawn if c[1].startswith(prefix)]


def _conclusion_lines(doc):
    return [f"**{c['number']}. {c['claim']}** — *{c['verdict']}.* {c['evidence']}"
            for c in conclusions.conclusions(doc["cells"], doc["audit"])]


def _sections(doc, drawn, section_type):
    cells = doc["cells"]
    return {
        "conclusions": section_type("What actually mattered, on this machine",
                                    _conclusion_lines(doc) +
                                    conclusions.noise_lines(cells, doc["context"])),
        "c_floor": section_type("C MPI: the floor", tables=[tables.c_floor(cells)]),
        "scalar": section_type("The scalar path", tables=[tables.scalar_overhead(cells)],
                               charts=_by_chart(drawn, "tiny_")),
        "raw_vs_vector": section_type("The vector was not the raw buffer",
                                      tables=[tables.raw_vs_vector(cells)],
                                      charts=_by_chart(drawn, "raw_vs_vector")),
        "cliff": section_type("The container cliff", tables=[tables.container_cliff(cells)]),
        "mpi4py": section_type("mpi4py has two personalities",
                               tables=[tables.mpi4py_personalities(cells)]),
        "sweep": section_type("What happens when the messages get bigger",
                              tables=[tables.size_sweep(cells)], charts=_by_chart(drawn, "sweep_")),
        "structs": section_type("Structs", tables=[tables.struct_table(cells)]),
        "persistent": section_type("Persistent and partitioned point-to-point",
                                   tables=[tables.persistent_table(cells)]),
    }


def _prepare(setup, options, presets, repo):
    if "tiny" in options.suites:
        partitioned.note_missing(setup, options.api)


ROOM = Room("p2p", suites=("tiny", "sweep"), counts=p2p_jobs.COUNTS, jobs=p2p_jobs.suite_jobs,
            draw=lambda doc, out_dir: charts.draw_all(doc["cells"], out_dir),
            prepare=_prepare, sections=_sections,
            quick_left_out=("tiny: 50,000 round trips and 5 processes per cell (quick: 20,000 "
                            "and 3); sweep: a third process per size (--full)",))
