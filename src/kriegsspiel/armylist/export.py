"""Roster exports: text (forums), JSON (documented in docs/rosters.md), a printable HTML force
sheet with unit cards, and a BattleScribe-style `.ros` roster (ros.py).

PDF: the text sheet set in a monospaced face on A4 pages by matplotlib (already a dependency for
the table pictures): no HTML-to-PDF engine is needed. The HTML sheet stays the richer print."""

from __future__ import annotations

import html
import json
from typing import Any

from .report import Report
from .ros import to_ros
from .roster import Roster, dump_roster

FORMATS = ("text", "json", "html", "pdf", "bs-roster")


def _pv(n: dict) -> str:
    flag = " *" if n.get("placeholder") else (" ?" if n.get("unpriced") else "")
    return f"{n['base_pv']:g}{flag}"


def to_text(roster: Roster, sheet: list[dict], report: Report) -> str:
    lines = [
        f"{roster.name} — {roster.ruleset}, {roster.army_list or roster.nation}, {roster.date}"
        + (f", {roster.theatre}" if roster.theatre else ""),
        f"Total {report.total_pv} PV" + (f" of {roster.points}" if roster.points else ""),
        "",
    ]

    def walk(n: dict, depth: int) -> None:
        count = f"{n['count']} x " if n["count"] > 1 else ""
        opts = f" [{', '.join(n['options'])}]" if n["options"] else ""
        lines.append(f"{'  ' * depth}- {count}{n['name']}{opts} ({_pv(n)} base)")
        for c in n["children"]:
            walk(c, depth + 1)

    for g in sheet:
        rating = f", {g['rating']} x{g['multiplier']:g}" if g.get("multiplier") else ""
        lines.append(f"{g['name']}: {g['cost']} PV{rating}")
        for c in g["children"]:
            walk(c, 1)
        if not g["children"]:
            walk(g, 1)
    lines.append("")
    for m in report.messages:
        lines.append(str(m))
    lines.append("* placeholder price (decision P56); ? no price")
    return "\n".join(lines) + "\n"


def to_json(roster: Roster, sheet: list[dict], report: Report) -> str:
    doc = {
        "roster": json.loads(dump_roster(roster, "json")),
        "sheet": sheet,
        "validation": report.as_dict(),
    }
    return json.dumps(doc, indent=2) + "\n"


_CSS = """body{font-family:sans-serif;font-size:11pt;margin:1.5cm}h1{font-size:16pt}
.group{border:1px solid #444;margin:0 0 1em;padding:.5em;page-break-inside:avoid}
.cards{display:flex;flex-wrap:wrap;gap:.5em}.card{border:1px solid #999;padding:.3em;width:15em;
font-size:9pt}.card h4{margin:0 0 .2em}.ph{color:#a60}.msg-error{color:#b00}
.msg-warning{color:#a60}table{border-collapse:collapse}td,th{padding:0 .4em;text-align:left}
@media print{.noprint{display:none}}"""


def _cards(n: dict, out: list[str]) -> None:
    if n["card"]:
        rows = "".join(
            f"<tr><th>{html.escape(k)}</th><td>{html.escape(_fmt(v))}</td></tr>"
            for k, v in n["card"].items()
        )
        ph = ' <span class="ph">(placeholder PV)</span>' if n["placeholder"] else ""
        page = f" · {html.escape(n['page'])}" if n["page"] else ""
        out.append(
            f'<div class="card"><h4>{n["count"]} x {html.escape(n["name"])}</h4>'
            f"<div>{_pv(n)} PV base{ph}{page}</div><table>{rows}</table></div>"
        )
    for c in n["children"]:
        _cards(c, out)


def _fmt(v: Any) -> str:
    if isinstance(v, dict):
        return " ".join(f"{k}{'' if x is None else x}" for k, x in v.items() if x is not None)
    if isinstance(v, list):
        return ", ".join("-" if x is None else str(x) for x in v)
    return str(v)


def to_html(roster: Roster, sheet: list[dict], report: Report) -> str:
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(roster.name)}"
        f"</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(roster.name)}</h1>",
        f"<p>{html.escape(roster.army_list or roster.nation)} · {roster.date}"
        f"{' · ' + html.escape(roster.theatre) if roster.theatre else ''} · "
        f"<b>{report.total_pv} PV</b>{' of ' + str(roster.points) if roster.points else ''}"
        f" · data {html.escape(roster.data_revision or '?')}</p>",
    ]
    for g in sheet:
        rating = (
            f" · {html.escape(str(g['rating']))} ×{g['multiplier']:g}" if g["multiplier"] else ""
        )
        parts.append(
            f'<div class="group"><h2>{html.escape(g["name"])} — {g["cost"]} PV{rating}</h2>'
            '<div class="cards">'
        )
        cards: list[str] = []
        _cards(g, cards)
        parts += cards
        parts.append("</div></div>")
    if report.messages:
        parts.append("<h2>Validation</h2><ul>")
        for m in report.messages:
            parts.append(f'<li class="msg-{m.severity}">{html.escape(str(m))}</li>')
        parts.append("</ul>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


LINES_PER_PAGE = 70
COLUMNS = 100  # characters a line keeps on an A4 page at 7.5 pt


def to_pdf(roster: Roster, sheet: list[dict], report: Report) -> bytes:
    """The text sheet as a PDF of A4 pages (lines longer than a page's width wrap)."""
    import io
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

    lines: list[str] = []
    for line in to_text(roster, sheet, report).splitlines():
        indent = len(line) - len(line.lstrip())
        lines += textwrap.wrap(line, COLUMNS, subsequent_indent=" " * (indent + 2)) or [""]
    buf = io.BytesIO()
    with PdfPages(buf, metadata={"Title": roster.name, "Creator": "kriegsspiel army"}) as pdf:
        pages = range(0, len(lines), LINES_PER_PAGE)
        for n, start in enumerate(pages, 1):
            fig = Figure(figsize=(8.27, 11.69))  # A4 in inches
            text = "\n".join(lines[start : start + LINES_PER_PAGE])
            fig.text(0.06, 0.96, text, family="monospace", size=7.5, va="top")
            fig.text(0.5, 0.02, f"{roster.name} · page {n} of {len(pages)}", ha="center", size=7)
            pdf.savefig(fig)
    return buf.getvalue()


def render(fmt: str, roster: Roster, sheet: list[dict], report: Report) -> str | bytes:
    """The roster in export format `fmt` (one of FORMATS); the CLI and the web builder call this."""
    writers = {
        "text": to_text,
        "json": to_json,
        "html": to_html,
        "pdf": to_pdf,
        "bs-roster": lambda r, s, _rep: to_ros(r, s),
    }
    return writers[fmt](roster, sheet, report)
