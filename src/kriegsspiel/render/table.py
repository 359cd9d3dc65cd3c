"""Draw a view (engine `Game.view`) with matplotlib: terrain, objectives, units with facing and
status, last-known markers. Reads only the view envelope (engine/envelope.py); what differs by
ruleset comes from its registry entry's `extra` (engine/registry.py): `status_flags` (letter,
piece key) pairs drawn beside a piece, `marker_sizes` by piece kind in the table's unit (a
piece's kind is its `kind`, else the `kind:` prefix of its type), and `label_only`: a piece key
that must be set for the piece to be named (crowded tables name only their leaders). Sizes
the ruleset leaves out scale with the table's unit."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, Polygon  # noqa: E402

from ..geometry.terrain import clip_lines  # noqa: E402

COLOURS = {
    "woods": "#4f7a3a",
    "wood": "#4f7a3a",
    "building": "#9c6b4e",
    "buildings": "#9c6b4e",
    "hill": "#d8c48a",
    "hills": "#d8c48a",
    "wall": "#6b6b6b",
    "hedge": "#3f6b2f",
    "bocage": "#3f6b2f",
    "road": "#c9b79c",
    "stream": "#6fa8dc",
    "river": "#6fa8dc",
    "swamp": "#7f9f8f",
    "wheatfield": "#e8d36b",
    "field": "#e8d36b",
    "bunker": "#555555",
    "foxholes": "#8a7a5a",
    "ravine": "#a0876a",
    "hulldown": "#c8b47a",
    "orchard": "#8fb36b",
    "low_brush": "#b5c48a",
    "treeline": "#3f6b2f",
    "gully": "#a0876a",
    "rough": "#b8ad9a",
    "marsh": "#7f9f8f",
    "ruins": "#8c7b6e",
    "minefield": "#c0392b",
    "mine": "#c0392b",
    "fortification": "#6d5d4b",
    "entrenchment": "#6d5d4b",
    "obstacle": "#444444",
}
PER_UNIT = {"inch": 1.0, "cm": 2.54}  # the default marker is the same size on any table
SIDE_COLOURS = ["#1f4e9c", "#b02a2a"]
MARKER = 1.1  # a piece's marker diameter when its ruleset gives none for its kind


def _plugin(view: dict[str, Any]) -> dict[str, Any]:
    """The ruleset's drawing plug-in (its registry entry's extra), or nothing."""
    from ..engine import registry

    try:
        return registry.entry(str(view.get("ruleset"))).extra
    except LookupError:
        return {}


def _feature_patch(f: dict[str, Any]):
    colour = COLOURS.get(f["kind"].casefold(), "#bbbbbb")
    if f.get("polygon"):
        return Polygon(
            f["polygon"],
            closed=True,
            facecolor=colour,
            edgecolor="#333333",
            alpha=0.55 if f["kind"] != "hulldown" else 0.25,
            lw=0.6,
            hatch="xx" if (f.get("attributes") or {}).get("hidden") else None,
        )
    return None


def _inside(f: dict[str, Any], lines: list) -> list:
    """A feature's inner lines as drawn: clipped to its polygon (they stop at its edge)."""
    return clip_lines(f["polygon"], lines) if f.get("polygon") else lines


def render_view(view: dict[str, Any], out: Path, title: str | None = None) -> Path:
    """Write a PNG or SVG (by the file's suffix) of the table as the view sees it."""
    out = Path(out)
    if out.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"{out}: the picture must be .png or .svg")
    table = view["table"]
    w, d = table["width"], table["depth"]
    fig, ax = plt.subplots(figsize=(10, 10 * d / w))
    ax.set_xlim(0, w)
    ax.set_ylim(0, d)
    ax.set_aspect("equal")
    ax.set_facecolor("#eef0e4")
    for f in view.get("terrain", []):
        patch = _feature_patch(f)
        if patch is not None:
            ax.add_patch(patch)
        elif f.get("line"):
            xs, ys = zip(*f["line"], strict=True)
            lw = max(1.5, (f.get("width") or 0.5) * 6)
            ax.plot(
                xs,
                ys,
                color=COLOURS.get(f["kind"].casefold(), "#999999"),
                lw=lw,
                solid_capstyle="butt",
                alpha=0.9,
            )
    inner = _plugin(view).get("inner_lines")  # lines inside an area (a ruleset's plug-in)
    for f in view.get("terrain", []) if inner else []:
        for line in _inside(f, (f.get("attributes") or {}).get(inner) or []):
            xs, ys = zip(*line, strict=True)
            ax.plot(xs, ys, color="#222222", lw=0.8, ls="--")
    for o in view.get("objectives", []):
        ax.add_patch(
            Circle((o["x"], o["y"]), o["radius"], fill=False, ls="--", ec="#aa7700", lw=1.2)
        )
        ax.text(
            o["x"], o["y"] + o["radius"] + 0.4, o["name"], ha="center", fontsize=7, color="#aa7700"
        )
    plugin = _plugin(view)
    flag_keys = plugin.get("status_flags", ())
    sizes = plugin.get("marker_sizes", {})
    label_only = plugin.get("label_only")
    default = MARKER * PER_UNIT.get(table.get("unit", "inch"), 1.0)
    sides = [s["id"] for s in view.get("sides", [])]
    colour = {s: SIDE_COLOURS[i % 2] for i, s in enumerate(sides)}

    def draw(u: dict[str, Any], alpha: float = 1.0, marker_only: bool = False) -> None:
        c = colour.get(u.get("side"), "#444444")
        kind = u.get("kind") or str(u.get("type") or "").partition(":")[0]
        size = sizes.get(kind, default)
        ax.add_patch(
            Circle(
                (u["x"], u["y"]),
                size / 2,
                fc=c if not marker_only else "none",
                ec=c,
                lw=1.2,
                alpha=alpha,
                ls=":" if marker_only else "-",
                zorder=3,  # above linear terrain (roads, hedges are lines at zorder 2)
            )
        )
        a = math.radians(u.get("facing", 0))
        ax.plot(
            [u["x"], u["x"] + math.sin(a) * size],
            [u["y"], u["y"] + math.cos(a) * size],
            color="black",
            lw=1,
            alpha=alpha,
            zorder=4,
        )
        if label_only and not u.get(label_only) and not marker_only:
            return
        flags = "".join(ch for ch, k in flag_keys if u.get(k))
        label = (u.get("name") or u.get("id") or "?") + (f" [{flags}]" if flags else "")
        ax.text(u["x"], u["y"] - size, label, ha="center", va="top", fontsize=6, alpha=alpha)

    for u in view.get("units", []):
        if not u.get("removed"):
            draw(u)
    for u in view.get("enemies", []):
        draw(u)
    for m in view.get("last_known", []):
        enemy = [s for s in sides if s != view.get("you")]
        draw(
            {**m, "side": enemy[0] if enemy else None, "name": f"? {m.get('name', '')}"}, 0.6, True
        )
    ax.set_title(
        title
        or f"{view.get('phase_title', '')} — turn {view.get('turn', '')} — "
        f"seen by {view.get('you', '')}",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
