"""Riders and passengers in phase F (p12, pp. 25-28): an infantry element boards a vehicle of
its side within 5 cm (tank riders only on size C/D AFVs that are not open turretless SPs, at
most four teams, rules/vehicles.py; a softskin or APC up to its capacity in teams), or gets
down 4 cm behind it. Either costs a pip like any single order and half the element's move
(p12), so it cannot also fire over half its move."""

from __future__ import annotations

import math
from typing import Any

from ....data.errors import RuleError
from ....engine.commands import IllegalCommand
from ....engine.events import Event
from ..models import AFV
from ..rules.vehicles import riders_allowed
from . import fieldworks
from .build import speeds
from .state import Element, State

REACH = 5.0  # cm: how near a vehicle an element must be to board it
BEHIND = 4.0  # cm behind the vehicle where riders get down


def room(state: State, v: Element) -> str | None:
    """Why `v` cannot take one more team aboard, or None."""
    rec = state.records[v.id]
    aboard = len(v.carrying) + 1
    if isinstance(rec, AFV) and rec.chart != "apc_recon":
        try:
            riders_allowed(v.size, bool(rec.open) and rec.chart == "spg", aboard)
        except RuleError as e:
            return str(e)
        return None
    cap = getattr(rec, "capacity", None)
    if not cap:
        return f"{v.name} carries no passengers (no capacity on its chart)"
    return None if aboard <= cap else f"{v.name} is full ({cap} teams)"


def check_embark(state: State, e: Element, vid: Any) -> Element:
    v = state.elements.get(vid) if isinstance(vid, str) else None
    if v is None or v.side != e.side or not v.active or v.kind not in ("afv", "softskin"):
        raise IllegalCommand(f"{vid!r} is not a vehicle of yours on the table", "vehicle")
    if e.kind != "infantry":
        raise IllegalCommand(f"{e.name} is not infantry: it cannot ride", "unit")
    if math.dist((e.x, e.y), (v.x, v.y)) > REACH:
        raise IllegalCommand(f"{e.name} is over {REACH:g} cm from {v.name}", "vehicle")
    why = room(state, v)
    if why:
        raise IllegalCommand(why, "vehicle")
    return v


def dismount_spot(state: State, v: Element) -> tuple[float, float]:
    a = math.radians(v.facing)
    x, y = v.x - BEHIND * math.sin(a), v.y - BEHIND * math.cos(a)
    t = state.scenario.table
    return min(max(x, 0.0), t.width), min(max(y, 0.0), t.depth)


def _half(state: State, e: Element) -> float:
    return speeds(state.records[e.id])[0] / 2


def _embark(state: State, d: dict, e: Event) -> None:
    el, v = state.elements[d["unit"]], state.elements[d["vehicle"]]
    fieldworks.leave_position(state, el)  # boarding leaves its position empty (p9, P318)
    el.transport, el.x, el.y = v.id, v.x, v.y
    el.moved = max(el.moved, _half(state, el))
    v.carrying.append(el.id)


def _dismount(state: State, d: dict, e: Event) -> None:
    el = state.elements[d["unit"]]
    v = state.elements[el.transport] if el.transport else None
    if v is not None and el.id in v.carrying:
        v.carrying.remove(el.id)
    el.transport, el.x, el.y = None, d["x"], d["y"]
    el.feature = state.board.feature(el.x, el.y)
    el.moved = max(el.moved, _half(state, el))


FOLDS = {"embark": _embark, "dismount": _dismount}  # pips: orders_move folds them too
