# SPDX-License-Identifier: GPL-2.0-only
"""A self-contained HTML page: inline CSS, PNGs as data: URIs, a table of contents."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from html import escape

from .tables import Table

CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       margin: 0 auto; padding: 1em 2em 4em; max-width: 1500px; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { border-bottom: 2px solid #ddd; padding-bottom: 0.2em; margin-top: 2em; }
h3 { margin-top: 1.5em; }
nav { background: #f6f6f6; padding: 0.5em 1.5em; border-radius: 6px; }
nav ul { margin: 0.3em 0; padding-left: 1.2em; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(620px, 1fr));
        gap: 1em; }
figure { margin: 0.5em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.85em; color: #555; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.85em; }
caption { text-align: left; font-weight: 600; padding: 0.3em 0; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; vertical-align: top; }
th { background: #f0f0f0; }
tbody tr:nth-child(even) { background: #fafafa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.worse { background: #f8d0d0; }
td.better { background: #d2efd2; }
td.muted { color: #999; }
td.small { font-size: 0.85em; color: #555; }
p.note { font-size: 0.85em; color: #555; margin-top: 0; }
.scroll { overflow-x: auto; }
code { background: #f3f3f3; padding: 0 0.2em; }
"""


@dataclass
class Section:
    id: str
    title: str
    body: list[str] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)


def figure(fig_id: str, png: bytes, caption: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return (f'<figure id="{escape(fig_id)}"><img src="data:image/png;base64,{data}" '
            f'alt="{escape(caption)}"><figcaption>{escape(caption)}</figcaption></figure>')


def grid(items: list[str]) -> str:
    return '<div class="grid">' + "".join(items) + "</div>"


def table(t: Table) -> str:
    out = [f'<div class="scroll"><table id="{escape(t.id)}"><caption>{escape(t.caption)}'
           "</caption><thead>"]
    for head in t.head:
        cells = "".join(f'<th colspan="{n}">{escape(h)}</th>' if n > 1 else f"<th>{escape(h)}</th>"
                        for h, n in head)
        out.append(f"<tr>{cells}</tr>")
    out.append("</thead><tbody>")
    for row in t.rows:
        cells = []
        for c in row:
            attrs = f' class="{escape(c.cls)}"' if c.cls else ""
            attrs += f' title="{escape(c.title)}"' if c.title else ""
            cells.append(f"<td{attrs}>{escape(c.text)}</td>")
        out.append(f"<tr>{''.join(cells)}</tr>")
    out.append("</tbody></table></div>")
    if t.note:
        out.append(f'<p class="note">{escape(t.note)}</p>')
    return "".join(out)


def para(text: str, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<p{attr}>{escape(text)}</p>"


def bullets(items: list[str]) -> str:
    return "<ul>" + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>"


def _toc(sections: list[Section]) -> str:
    items = []
    for s in sections:
        sub = _toc(s.children) if s.children else ""
        items.append(f'<li><a href="#{escape(s.id)}">{escape(s.title)}</a>{sub}</li>')
    return "<ul>" + "".join(items) + "</ul>"


def _body(sections: list[Section], level: int) -> str:
    out = []
    for s in sections:
        out.append(f'<section id="{escape(s.id)}"><h{level}>{escape(s.title)}</h{level}>')
        out += s.body
        out.append(_body(s.children, level + 1))
        out.append("</section>")
    return "".join(out)


def page(title: str, intro: list[str], sections: list[Section]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<h1>{escape(title)}</h1>{''.join(intro)}"
            f'<nav id="toc"><strong>Contents</strong>{_toc(sections)}</nav>'
            f"{_body(sections, 2)}</body></html>\n")
