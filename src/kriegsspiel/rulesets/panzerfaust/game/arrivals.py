"""Platoons that arrive later (pp. 4-5): on their turn, at the start of phase F, their teams
come on at the arrival point, or at the middle of their edge, side by side 5 cm apart and 2 cm
inside the edge, facing into the table (decision P153), and move with the rest of phase F.
Riders come on aboard their vehicle. The schedule is the pre-game's (game/pregame.py), else the
forces blocks' `arrivals` and the scenario's `reinforcements` (whole forces blocks, built off the
table by game/build.py). Arriving elements are the owner's to see: the enemy learns of them only
when one of its elements observes them (p8)."""

from __future__ import annotations

from typing import Any

from ....engine.events import Draft, Event
from .state import State

INSIDE = 2.0  # cm in from the edge
SPACING = 5.0  # cm between arriving elements
FACING = {"north": 180.0, "south": 0.0, "east": 270.0, "west": 90.0}


def schedule(state: State) -> list[dict[str, Any]]:
    if state.pregame is not None:
        return [a for a in state.pregame.get("arrivals", []) if a.get("platoons")]
    out = []
    for side in state.sides:
        for a in getattr(state.scenario.forces_of(side), "arrivals", None) or ():
            out.append({"side": side, "turn": a.turn, "edge": a.edge, "point": a.point,
                        "platoons": list(a.platoons)})  # fmt: skip
    for i, r in enumerate(state.scenario.reinforcements):  # the scenario's own block (pp. 4-5)
        block = state.scenario.arrival_forces(i)
        out.append({"side": r.side, "turn": r.turn, "edge": r.edge, "point": None,
                    "platoons": [p.id for c in block.companies for p in c.platoons]})  # fmt: skip
    return out


def _spot(state: State, edge: str, point: Any, i: int, n: int) -> tuple[float, float]:
    t = state.scenario.table
    offset = (i - (n - 1) / 2) * SPACING
    if point is not None:
        cx, cy = point
    else:
        cx, cy = {"north": (t.width / 2, t.depth - INSIDE), "south": (t.width / 2, INSIDE),
                  "east": (t.width - INSIDE, t.depth / 2), "west": (INSIDE, t.depth / 2)}[edge]  # fmt: skip
    if edge in ("north", "south"):
        return min(max(cx + offset, 0.0), t.width), cy
    return cx, min(max(cy + offset, 0.0), t.depth)


def due(state: State) -> list[Draft]:
    """This turn's arrivals, one event per side (its own to see)."""
    out = []
    for a in schedule(state):
        if a["turn"] != state.turn:
            continue
        side = a["side"]
        edge = a.get("edge") or next(s.edge for s in state.scenario.sides if s.id == side)
        teams = [m for pid in a["platoons"] for m in state.platoons[pid].members]
        drivers = [m for m in teams if state.elements[m].transport is None]
        placed = []
        for i, uid in enumerate(drivers):
            x, y = _spot(state, edge or "south", a.get("point"), i, len(drivers))
            placed.append({"unit": uid, "x": x, "y": y, "facing": FACING.get(edge or "", 0.0)})
        out.append(Draft("arrive", {"side": side, "placed": placed}, (side,)))
    return out


def _arrive(state: State, d: dict, e: Event) -> None:
    for p in d["placed"]:
        el = state.elements[p["unit"]]
        el.x, el.y, el.facing = p["x"], p["y"], p["facing"]
        if el.turret is not None:
            el.turret = p["facing"]
        el.feature = state.board.feature(el.x, el.y)
        for rider in el.carrying:
            r = state.elements[rider]
            r.x, r.y, r.facing = el.x, el.y, el.facing


FOLDS = {"arrive": _arrive}
