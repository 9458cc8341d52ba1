"""report.md from the report's sections."""

from .report import METHOD, build_sections, headline_lines


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


def render_md(doc, charts):
    """The whole Markdown report."""
    parts = ["# wrapper-bench: the cost of convenience, measured here", "",
             *[f"- {line}" for line in headline_lines(doc)], "", METHOD, ""]
    for section in build_sections(doc, charts):
        parts += [f"## {section.title}", ""]
        parts += [p + "\n" for p in section.paragraphs]
        parts += [table_md(t) for t in section.tables]
        parts += [f"![{title}]({name})\n" for title, name in section.charts]
    return "\n".join(parts)
