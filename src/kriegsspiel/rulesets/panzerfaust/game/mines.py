"""Minefields in the game (p38): a side's mine works (forces block `works`, a fieldwork record
of kind mine with a polygon and a density) lie on the table as markers, hidden ones its own to
see. Every 5 cm of an element's path inside a field is one square that may trip a mine
(rules/mine.py); an element destroyed or immobilised there stops where it was hit."""

from __future__ import annotations

import math
import random
from typing import Any

from shapely import LineString, Polygon

from ....chance import sample
from ..rules import mine
from .state import Element, Marker, State

SQUARE = 5.0  # cm: the side of a minefield square (p38)
STOPS = ("destroyed", "immobilised")


def place(state: State) -> None:
    """Mine works of the forces blocks as `mines` markers (at build time)."""
    for side in state.sides:
        for w in getattr(state.scenario.forces_of(side), "works", None) or ():
            kind, _, ident = w.type.partition(":")
            rec = state.rules.cat.get("fieldwork", ident or kind)
            if rec.work_kind != "mine" or w.polygon is None:
                continue
            poly = Polygon(w.polygon)
            c = poly.centroid
            ap = "ap-mine" in rec.id
            data = {"polygon": [list(p) for p in w.polygon], "density": w.density or "medium",
                    "mine": "ap" if ap else "at"}  # fmt: skip
            state.markers[w.id] = Marker(w.id, "mines", side, c.x, c.y, data=data,
                                         visible_to=[side] if w.hidden else None)  # fmt: skip


def _target(e: Element) -> str:
    if e.kind == "infantry":
        return "infantry"
    if e.kind in ("softskin", "gun"):
        return "softskin"
    return {"A": "light_afv", "B": "light_afv", "C": "medium_afv"}.get(e.size, "heavy_afv")


def squares(state: State, start: tuple[float, float], path: list[tuple[float, float]]):
    """[(cm along the path where a square begins, the field's marker)] in path order."""
    fields = [m for m in state.markers.values() if m.kind == "mines"]
    if not fields:
        return []
    out: list[tuple[float, Any]] = []
    run, here = 0.0, start
    for p in path:
        leg = LineString([here, p])
        for m in fields:
            inside = leg.intersection(Polygon(m.data["polygon"]))
            if inside.is_empty or inside.length <= 0:
                continue
            entry = min(leg.project(pt) for pt in _points(inside))
            n = math.ceil(inside.length / SQUARE - 1e-9)
            out += [(run + entry + i * SQUARE, m) for i in range(n)]
        run += math.dist(here, p)
        here = p
    return sorted(out, key=lambda s: s[0])


def _points(geom: Any) -> list[Any]:
    from shapely import Point

    return (
        [Point(c) for c in geom.coords]
        if hasattr(geom, "coords")
        else [Point(c) for g in geom.geoms for c in g.coords]
    )


def sweep(state: State, e: Element, path: list[tuple[float, float]], rng: random.Random):
    """The mines an element's move sets off: (cm where it stops or None, the worst result or
    None when no mine went off, the explanation)."""
    lines: list[str] = []
    worst = None
    for cm, m in squares(state, (e.x, e.y), path):
        c = mine.Crossing(m.data["density"], m.data["mine"], _target(e))  # type: ignore[arg-type]
        res = sample(mine.mine, state.rules, c, rng=rng)
        lines += [f"minefield square at {cm:.1f} cm:", *res.lines()]
        if res.result.name != "no_trip":
            worst = res.result.name
        if res.result.name in STOPS:
            return cm, res.result.name, lines
    return None, worst, lines
