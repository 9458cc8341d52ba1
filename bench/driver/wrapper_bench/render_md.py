"""report.md from the report's sections."""

from .report import mode_lines, report_sections

TITLE = "wrapper-bench: the cost of convenience, measured here"


def _escape(text):
    return str(text).replace("|", "\\|").replace("\n", "<br>")


def table_md(table):
    """One table as Markdown, with its note."""
    if not table.rows:
        return f"#### {table.title}\n\nNo cells.\n"
    lines = [f"#### {table.title}", "", "| " + " | ".join(table.headers) + " |",
             "|" + "---|" * len(table.headers)]
    lines += ["| " + " | ".join(_escape(v) for v in row) + " |" for row in table.rows]
    if table.note:
        lines += ["", f"*{table.note}*"]
    return "\n".join(lines) + "\n"


def section_md(section):
    """One section: its paragraphs, then its tables and charts (the charts first where the
    section asks)."""
    tables = [table_md(t) for t in section.tables]
    charts = [f"![{title}]({name})\n" for title, name in section.charts]
    return [f"## {section.title}", ""] + [p + "\n" for p in section.paragraphs] + \
        (charts + tables if section.charts_first else tables + charts)


def render_md(doc, charts):
    """The whole Markdown report: the machine's mode and the first screen, then the details."""
    parts = [f"# {TITLE}", "", *[f"- {line}" for line in mode_lines(doc)], ""]
    for section in report_sections(doc, charts):
        parts += section_md(section)
    return "\n".join(parts)
