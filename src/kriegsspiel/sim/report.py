"""Files of a batch: results.json, battles.csv and report.html (embedded PNG plots)."""

from __future__ import annotations

import base64
import csv
import html
import io
import json
from pathlib import Path
from typing import Any

CSV_FIELDS = ("index", "seed", "winner", "reason", "turns", "commands")


SIDE_COLOURS = ("#3a6ea5", "#b5472f", "#4a7a3a", "#8a5a9a")
DRAW_COLOUR = "#999999"


def side_colour(summary: dict[str, Any], side: str) -> str:
    """One colour per side, the same in every table and plot of the report."""
    sides = sorted(summary["wins"])
    i = sides.index(side) if side in sides else len(sides)
    return SIDE_COLOURS[i % len(SIDE_COLOURS)]


def profile_text(profile: Any) -> str:
    """A profile as a reader wants it: its name, or its weights as `key value` pairs."""
    if isinstance(profile, dict):
        name = profile.get("name")
        weights = ", ".join(
            f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}"
            for k, v in profile.items()
            if k != "name"
        )
        return f"{name} ({weights})" if name and weights else str(name or weights or "-")
    return str(profile)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode()


def plots(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """(title, base64 PNG) for each plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = []
    fig, ax = plt.subplots(figsize=(5, 3))
    labels = [*summary["wins"], "draw"]
    rates = [*(w["rate"] for w in summary["wins"].values()), summary["draws"]["rate"]]
    cis = [*(w["ci95"] for w in summary["wins"].values()), summary["draws"]["ci95"]]
    err = [
        [max(0.0, r - c[0]) for r, c in zip(rates, cis, strict=True)],
        [max(0.0, c[1] - r) for r, c in zip(rates, cis, strict=True)],
    ]
    colours = [side_colour(summary, s) for s in summary["wins"]] + [DRAW_COLOUR]
    ax.bar(labels, rates, yerr=err, capsize=6, color=colours)
    ax.set_ylim(0, 1)
    ax.set_ylabel("rate (95% Wilson interval)")
    out.append(("Results", _png(fig)))
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(5, 3))
    hist = summary["turns"]["histogram"]
    ax.bar([str(k) for k in hist], list(hist.values()), color="#468")
    ax.set_xlabel("turns played")
    ax.set_ylabel("battles")
    out.append(("Turn lengths", _png(fig)))
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 3))
    names, values, colours = [], [], []
    for side, types in summary["losses_per_battle"].items():
        for t, v in types.items():
            names.append(f"{side}: {t}")
            values.append(v)
            colours.append(side_colour(summary, side))
    ax.barh(names or ["none"], values or [0], color=colours or ["#999"])
    ax.set_xlabel("units lost per battle (bars coloured by side)")
    out.append(("Losses by unit type", _png(fig)))
    plt.close(fig)
    return out


def write_report(out: Path, summary: dict[str, Any], results: list[dict[str, Any]]) -> list[Path]:
    """Write the batch's files into `out`; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    js = out / "results.json"
    js.write_text(json.dumps({"summary": summary, "battles": results}, indent=2))
    sides = sorted(summary["wins"])
    rows = out / "battles.csv"
    with rows.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow([*CSV_FIELDS, *(f"lost_{s}" for s in sides), *summary["objective_control"]])
        for r in results:
            w.writerow(
                [
                    *(r[k] for k in CSV_FIELDS),
                    *(sum(r["losses"].get(s, {}).values()) for s in sides),
                    *(r["objectives"].get(o) or "" for o in summary["objective_control"]),
                ]
            )
    page = out / "report.html"
    page.write_text(report_html(summary, plots(summary)))
    return [js, rows, page]


def _table(
    head: tuple[str, ...], rows: list[tuple[str, ...]], colours: list[str] | None = None
) -> str:
    """An HTML table; cells are escaped here, a row's colour marks its side."""
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = ""
    for i, row in enumerate(rows):
        style = f" style='color:{colours[i]}'" if colours and colours[i] else ""
        body += f"<tr{style}>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
    return f"<table><tr>{th}</tr>{body}</table>"


def report_html(summary: dict[str, Any], images: list[tuple[str, str]]) -> str:
    """The report page: results with intervals, why battles ended, objective control, profiles,
    losses by side and unit type, then the plots."""
    sides = list(summary["wins"])
    results = _table(
        ("result", "battles", "rate", "95% interval"),
        [
            (s, str(w["count"]), pct(w["rate"]), f"{pct(w['ci95'][0])} – {pct(w['ci95'][1])}")
            for s, w in [*summary["wins"].items(), ("draw", summary["draws"])]
        ],
        [side_colour(summary, s) for s in sides] + [DRAW_COLOUR],
    )
    n = summary["battles"] or 1
    reasons = _table(
        ("how the battle ended", "battles", "share"),
        [(str(r), str(c), pct(c / n)) for r, c in summary.get("reasons", {}).items()],
    )
    holders = sorted({h for hs in summary["objective_control"].values() for h in hs})
    objectives = _table(
        ("objective at the end", *holders),
        [
            (o, *(pct(hs.get(h, 0.0)) for h in holders))
            for o, hs in summary["objective_control"].items()
        ],
    )
    profiles = _table(
        ("side", "AI profile"),
        [(s, profile_text(p)) for s, p in summary["profiles"].items()],
        [side_colour(summary, s) for s in summary["profiles"]],
    )
    loss_rows, loss_colours = [], []
    for side, types in summary["losses_per_battle"].items():
        for t, v in types.items():
            loss_rows.append((side, t, f"{v:.2f}"))
            loss_colours.append(side_colour(summary, side))
    losses = _table(("side", "unit type", "lost per battle"), loss_rows, loss_colours)
    imgs = "".join(
        f"<h2>{html.escape(t)}</h2><img alt='{html.escape(t)}' src='data:image/png;base64,{b}'>"
        for t, b in images
    )
    title = html.escape(str(summary["scenario"]))
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>Simulation: {title}</title><style>"
        "body{font-family:sans-serif;max-width:60em;margin:1em auto}"
        "table{border-collapse:collapse;margin:.5em 0}"
        "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}</style></head><body>"
        f"<h1>{title}: {summary['battles']} battles</h1>"
        f"<h2>Results</h2>{results}<p>Mean turns: {summary['turns']['mean']:.2f} "
        f"(shortest {summary['turns']['min']}, longest {summary['turns']['max']})</p>"
        f"<h2>Victory reasons</h2>{reasons}<h2>Objective control</h2>{objectives}"
        f"<h2>Profiles</h2>{profiles}<h2>Losses</h2>{losses}{imgs}</body></html>"
    )
