"""Applying fire, HE and assault results to units (sheet L2 Sp/Rt/H/KIA, L2 Tank Hit Effect).

Results of one fire step are applied together at its end (decision Q34), in the order rolled;
morale tests are rolled then. Each change is an `update` event the owner always sees and the
enemy sees while it observes the unit.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from ....chance import sample
from ....engine.events import Draft
from ..infantry_effects import InfantryState, apply_result
from ..models import Infantry
from ..tables import Rules
from .board import Board
from .orders_arty import visible_to
from .state import State, Unit
from .units import allowance, record

SYMBOL = {"none": "-", "suppressed": "Sp", "retreat": "Rt", "hit": "H", "kia": "KIA"}


def _infantry_state(rules: Rules, u: Unit) -> InfantryState:
    rec = record(rules, u)
    independent = isinstance(rec, Infantry) and rec.kind == "mg_team"
    return InfantryState(
        u.stands, u.damaged, u.suppressed, u.attached_mg, independent, False, False
    )


def _apply_symbols(rules: Rules, unit: InfantryState, symbols: list[str]):
    for s in symbols:
        unit = yield from apply_result(rules, unit, s)
    return unit


def _retreat_point(
    board: Board, rules: Rules, u: Unit, origin: list[float] | None
) -> tuple[float, float]:
    """Half a move straight away from the attack's origin, kept on the table (decision Q37)."""
    dist = allowance(rules, u) / 2
    ox, oy = origin if origin else (u.x, u.y - 1)
    dx, dy = u.x - ox, u.y - oy
    norm = math.hypot(dx, dy) or 1.0
    x = min(max(u.x + dx / norm * dist, 0.0), board.width)
    y = min(max(u.y + dy / norm * dist, 0.0), board.depth)
    return round(x, 3), round(y, 3)


def result_drafts(
    rules: Rules, board: Board, state: State, entry: dict[str, Any], rng: random.Random
) -> list[Draft]:
    u = state.units.get(entry["target"])
    if u is None or not u.alive:
        return []
    changes: dict[str, Any] = {}
    lines: list[str] = []
    if entry["kind"] == "infantry" or (
        u.kind == "vehicle"
        and entry["outcome"] in SYMBOL
        and entry["outcome"] not in ("hit", "kia")
    ):
        parts = entry.get("parts") or [entry["outcome"]]
        symbols = [SYMBOL[p] for p in parts if p in SYMBOL]
        if u.kind == "vehicle":
            symbols = [s for s in symbols if s in ("Sp", "Rt")]
            before = InfantryState(1, u.damaged, u.suppressed)
        else:
            before = _infantry_state(rules, u)
        res = sample(_apply_symbols, rules, before, symbols, rng=rng)
        after: InfantryState = res.result
        lines += res.lines()
        if after.removed:
            changes["removed"] = True
        else:
            for f in ("damaged", "suppressed", "attached_mg"):
                if getattr(after, f) != getattr(before, f):
                    changes[f] = getattr(after, f)
            if after.stands != before.stands and u.kind == "infantry":
                changes["stands"] = after.stands
            if after.retreat:
                x, y = _retreat_point(
                    board, rules, replace(u, damaged=after.damaged), entry.get("from")
                )
                changes["x"], changes["y"] = x, y
                lines.append(f"{u.name} retreats to ({x:.1f}, {y:.1f})")
    else:
        outcome = entry["outcome"]
        if outcome == "ko":
            changes["removed"] = True
        elif outcome == "damaged":
            if u.damaged and rules.opts.repeat_damaged == "ko":
                changes["removed"] = True
                lines.append("a second Damaged result destroys it (decision Q9)")
            else:
                changes["damaged"] = True
        elif outcome == "tracked":
            changes["tracked"] = True
    if not changes:
        return []
    moved = {k: changes.pop(k) for k in ("x", "y") if k in changes}
    out = []
    if changes:
        out.append(
            Draft(
                "update",
                {"unit": u.id, "set": changes, "cause": entry.get("attack")},
                visible_to(state, u),
                tuple(lines),
            )
        )
    if moved:
        # where a retreating unit goes is the owner's secret; the enemy sees it only if it
        # still observes the unit afterwards (through its view, not through this event)
        out.append(
            Draft(
                "update",
                {"unit": u.id, "set": moved, "cause": "retreat"},
                (u.side,),
                () if changes else tuple(lines),
            )
        )
    return out
