"""report.html: one self-contained page (inline CSS, charts as data: URIs, no network)."""

import base64
import html
import re

from .render_md import TITLE
from .report import mode_lines, report_sections

STYLE = """
body { font-family: sans-serif; max-width: 1200px; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
.note { color: #555; font-size: 0.85em; }
.holds { color: #17692b; } .does { color: #a11; } .partly { color: #a60; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.5em 0; }
"""


def inline_markup(text):
    """HTML of a line that may use **bold** and *italic*, as the Markdown does."""
    text = html.escape(text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"\*(.+?)\*", r"<em>\1</em>", text)


def paragraph_html(text):
    """A paragraph, or a list where every line of it starts with '- '."""
    lines = text.split("\n")
    if all(line.startswith("- ") for line in lines):
        return "<ul>" + "".join(f"<li>{inline_markup(line[2:])}</li>" for line in lines) + \
            "</ul>"
    return f"<p>{inline_markup(text)}</p>"


def table_html(table):
    """One table as HTML, with its note."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
                   for row in table.rows) or f"<tr><td colspan={len(table.headers)}>No cells."\
                                                "</td></tr>"
    note = f'<p class="note">{html.escape(table.note)}</p>' if table.note else ""
    return (f'<h4 id="{table.key}">{html.escape(table.title)}</h4><table><tr>{head}</tr>'
            f"{body}</table>{note}")


def image_html(title, path):
    """A PNG embedded as a data: URI, so the page needs no other file."""
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(title)}" src="data:image/png;base64,{data}">'


def section_html(section, out_dir):
    """One section: its paragraphs, then its tables and charts (the charts first where the
    section asks)."""
    tables = [table_html(t) for t in section.tables]
    charts = [image_html(title, out_dir / name) for title, name in section.charts]
    return [f"<h2>{html.escape(section.title)}</h2>"] + \
        [paragraph_html(p) for p in section.paragraphs] + \
        (charts + tables if section.charts_first else tables + charts)


def render_html(doc, charts, out_dir):
    """The whole page, the machine's mode and the first screen first; charts are read from
    out_dir and embedded."""
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
             "<title>wrapper-bench report</title>", f"<style>{STYLE}</style></head><body>",
             f"<h1>{html.escape(TITLE)}</h1><ul>",
             *[f"<li>{html.escape(line)}</li>" for line in mode_lines(doc)], "</ul>"]
    for section in report_sections(doc, charts):
        parts += section_html(section, out_dir)
    parts.append("</body></html>")
    return "\n".join(parts)
