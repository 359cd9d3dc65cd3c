"""Move orders (turn step Move: A half, B all, A half). Allowance, terrain (L7 chart movement
column, decision Q36 for how fractions and flat penalties combine), roads, restrictions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ....engine.commands import IllegalCommand
from ....engine.events import Draft
from ....geometry.reach import reach_cells
from ..tables import Rules
from .board import Board
from .geometry_helpers import bearing, distance, path_length
from .state import State, Unit
from .units import allowance, record, wheeled

EPS = 1e-6


def move_limit(
    rules: Rules, board: Board, u: Unit, path: list[tuple[float, float]]
) -> tuple[float, list[str]]:
    """Longest move this path allows the unit in one full Move, and why (explanation lines).

    allowance x (road bonus if the whole path is on road) x the most restrictive fraction of the
    terrain the path touches - the flat penalty of each distinct feature it touches: entered,
    crossed or started in (decision Q36)."""
    why = []
    base = allowance(rules, u)
    why.append(f'allowance {base:g}"')
    vehicle = u.kind == "vehicle"
    if vehicle and board.on_road(path):
        bonus = rules.const("road-bonus-wheeled" if wheeled(rules, u) else "road-bonus-tracked")
        base *= 1 + bonus
        why.append(f"whole move on road: +{bonus:.0%}")
    fraction, flat = 1.0, 0.0
    for f in board.path_terrain(path):
        if f.row is None:
            continue
        t = board.terrain(f.row)
        if vehicle and t.vehicles_prohibited and not f.spec.attributes.get("ford"):
            raise IllegalCommand(f"vehicles may not enter or cross {t.name} ({f.id})", "path")
        if vehicle and f.row == "stream" and not f.spec.attributes.get("ford"):
            raise IllegalCommand(
                f"vehicles cross {f.id} only at a ford or bridge (decision Q27)", "path"
            )
        frac = t.move_fraction_vehicle if vehicle else t.move_fraction_infantry
        pen = t.move_penalty_vehicle if vehicle else t.move_penalty_infantry
        if frac < fraction:
            fraction = frac
            why.append(f"{t.name}: x{frac:g}")
        if pen:
            flat += pen
            why.append(f'{t.name}: -{pen:g}"')
    return max(0.0, base * fraction - flat), why


@dataclass(frozen=True)
class MovePlan:
    """A move the rules accept: the full path (from the unit), its length, the most the unit
    may move on it now, why (explanation lines) and the end facing."""

    unit: Unit
    path: list[tuple[float, float]]
    length: float
    cap: float
    why: list[str]
    facing: float


def plan_move(
    rules: Rules, board: Board, state: State, side: str, cmd: dict[str, Any], own
) -> MovePlan:
    """The legality check of a move order (raises IllegalCommand): the one check the order,
    its preview and the reach area all use."""
    u = own(state, side, cmd.get("unit"))
    raw = cmd.get("path")
    if not isinstance(raw, list) or not raw:
        raise IllegalCommand("move needs 'path': a list of [x, y] points", "path")
    try:
        pts = [(float(p[0]), float(p[1])) for p in raw]
    except (TypeError, ValueError, IndexError):
        raise IllegalCommand("each path point must be [x, y] numbers", "path") from None
    if distance(pts[0], u.pos) > EPS:
        pts = [u.pos, *pts]
    for x, y in pts:
        if not board.on_table(x, y):
            raise IllegalCommand(f"point ({x:g}, {y:g}) is off the table", "path")
    rec = record(rules, u)
    if u.kind == "vehicle" and not (getattr(rec, "speed", 0) or 0):
        raise IllegalCommand(f"{u.name} cannot move (speed 0)", "unit")
    if u.tracked:
        raise IllegalCommand(f"{u.name} is tracked and cannot move", "unit")
    length = path_length(pts)
    limit, why = move_limit(rules, board, u, pts)
    moved = u.moved_this_turn
    if state.phase == "move_a1":
        cap = limit / 2 - moved
        why.append("side A: at most half in the first half-move")
    else:
        cap = limit - moved
        if moved:
            why.append(f'already moved {moved:.1f}" this turn')
    if length > cap + EPS:
        raise IllegalCommand(
            f'{u.name} may move {max(cap, 0):.1f}" on this path '
            f'({"; ".join(why)}); the path is {length:.1f}"',
            "path",
        )
    if u.suppressed:
        _withdraw_only(state, u, pts)
    facing = cmd.get("facing")
    if facing is None:
        facing = bearing(pts[-2], pts[-1]) if length > EPS else u.facing
    return MovePlan(u, pts, length, cap, why, float(facing) % 360)


def resolve_move(
    rules: Rules, board: Board, state: State, side: str, cmd: dict[str, Any], own
) -> list[Draft]:
    plan = plan_move(rules, board, state, side, cmd, own)
    u, length = plan.unit, plan.length
    full = allowance(rules, u) or 1.0
    data = {
        "unit": u.id,
        "path": [list(p) for p in plan.path],
        "distance": round(length, 3),
        "facing": plan.facing,
        "fraction": round((u.moved_this_turn + length) / full, 3),
    }
    return [
        Draft(
            "move",
            data,
            (side,),
            (f'{u.name} moves {length:.1f}" of {plan.cap:.1f}" ({"; ".join(plan.why)})',),
        )
    ]


def preview_move(
    rules: Rules, board: Board, state: State, side: str, cmd: dict[str, Any], own
) -> dict[str, Any]:
    """The cost of a move before it is given: legal or not (the reason), and per leg its length
    and the terrain it touches. Facing is free in these rules (no pivot cost: decision Q45)."""
    try:
        plan = plan_move(rules, board, state, side, cmd, own)
    except IllegalCommand as exc:
        return {"ok": False, "reason": exc.reason, "field": exc.field}
    legs = []
    for a, b in zip(plan.path, plan.path[1:], strict=False):
        names = sorted(
            {board.terrain(f.row).name for f in board.path_terrain([a, b]) if f.row is not None}
        )
        legs.append(
            {"from": list(a), "to": list(b), "length": round(distance(a, b), 2), "terrain": names}
        )
    return {
        "ok": True,
        "unit": plan.unit.id,
        "distance": round(plan.length, 2),
        "cap": round(plan.cap, 2),
        "legs": legs,
        "why": plan.why,
        "facing": round(plan.facing, 1),
        "pivots": "free",
    }


def reach(
    rules: Rules, board: Board, state: State, side: str, unit: Any, own, cell: float = 1.0
) -> dict[str, Any]:
    """Where the unit can go now by one straight leg: the centres of the grid cells whose
    straight move `plan_move` accepts (terrain fractions, flat penalties, roads, prohibited
    ground and the half-move all count), on a grid of `cell` table units."""
    u = own(state, side, unit)
    full = 0.0 if u.tracked else allowance(rules, u)
    bonus = max(rules.const("road-bonus-wheeled"), rules.const("road-bonus-tracked"))
    radius = max(0.0, full * (1 + bonus) - u.moved_this_turn)

    def ok(p: tuple[float, float]) -> bool:
        try:
            plan_move(rules, board, state, side, {"unit": u.id, "path": [list(p)]}, own)
        except IllegalCommand:
            return False
        return True

    cells = reach_cells(u.pos, radius, cell, (0.0, 0.0, board.width, board.depth), ok)
    return {"unit": u.id, "cell": cell, "cells": [list(c) for c in cells]}


def _withdraw_only(state: State, u: Unit, pts: list[tuple[float, float]]) -> None:
    """A suppressed unit may only withdraw: never closer to an enemy its side observes (Q37).
    Only enemies the side sees count, so a refusal tells nothing of unseen ones (issue 13)."""
    watchers = [state.units[i] for i in state.seen.get(u.side, [])]
    for w in watchers:
        if not w.alive:
            continue
        if distance(pts[-1], w.pos) < distance(u.pos, w.pos) - EPS:
            raise IllegalCommand(
                f"{u.name} is suppressed: it may only withdraw, not close on {w.name} (L2 Sp)",
                "path",
            )
