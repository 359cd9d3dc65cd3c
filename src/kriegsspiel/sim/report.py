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
    ax.bar(labels, rates, yerr=err, capsize=6, color=["#4a7", "#c64", "#999"][: len(labels)])
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
    names, values = [], []
    for side, types in summary["losses_per_battle"].items():
        for t, v in types.items():
            names.append(f"{side}: {t}")
            values.append(v)
    ax.barh(names or ["none"], values or [0], color="#a54")
    ax.set_xlabel("units lost per battle")
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
    rows_html = "".join(
        f"<tr><td>{html.escape(s)}</td><td>{w['count']}</td><td>{w['rate']:.1%}</td>"
        f"<td>{w['ci95'][0]:.1%} – {w['ci95'][1]:.1%}</td></tr>"
        for s, w in [*summary["wins"].items(), ("draw", summary["draws"])]
    )
    imgs = "".join(
        f"<h2>{html.escape(t)}</h2><img alt='{html.escape(t)}' src='data:image/png;base64,{b}'>"
        for t, b in plots(summary)
    )
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>Simulation: {html.escape(str(summary['scenario']))}</title></head><body>"
        f"<h1>{html.escape(str(summary['scenario']))}: {summary['battles']} battles</h1>"
        f"<p>Profiles: {html.escape(json.dumps(summary['profiles']))}</p>"
        "<table border=1><tr><th>result</th><th>battles</th><th>rate</th><th>95% CI</th></tr>"
        f"{rows_html}</table><p>Mean turns: {summary['turns']['mean']:.2f}</p>{imgs}"
        "</body></html>"
    )
    return [js, rows, page]
