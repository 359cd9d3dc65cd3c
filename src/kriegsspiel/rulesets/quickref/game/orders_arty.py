"""Indirect fire (sheet L4): call for fire in the plot step, drift next turn, hold guns for
adjustment, adjust, and the burst falling on every unit under it."""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import sample
from ....engine.commands import IllegalCommand
from ....engine.events import Draft
from .. import he_fire
from ..models import Artillery, Infantry
from ..tables import Rules
from .board import Board
from .geometry_helpers import distance
from .state import Mission, State, Unit
from .units import is_armoured, record

ADJUST_LIMIT = 6.0  # inches from the plotted point (decision Q22)
RUSSIAN = "ussr"


def observer_ok(rules: Rules, state: State, u: Unit) -> bool:
    rec = record(rules, u)
    return isinstance(rec, Infantry) and (rec.calls_fire or u.radio) and not u.suppressed


def batteries(scenario, side: str, state: State | None = None) -> list[str]:
    """The side's batteries; with a state, only those with missions left."""
    out = []
    for a in scenario.artillery:
        if a.side != side:
            continue
        if state is not None and a.missions is not None:
            used = sum(
                1 for m in state.missions.values() if m.side == side and m.battery == a.battery
            )
            if used >= a.missions:
                continue
        out.append(a.battery)
    return out


def may_call(rules: Rules, state: State, u: Unit) -> str | None:
    """Why this unit cannot call for fire now, or None if it may (L4; decision Q25)."""
    if not observer_ok(rules, state, u):
        return (
            f"{u.name} cannot call for fire (needs an FO, a command stand or a "
            "radio, and must not be suppressed)"
        )
    if state.calls.get(u.id) == state.turn:
        return f"{u.name} has already called for fire this turn"
    if any(m.observer == u.id and not m.done for m in state.missions.values()):
        return f"{u.name} already has a mission in progress (decision Q25)"
    return None


def observers(rules: Rules, state: State, side: str) -> list[str]:
    """The side's units on the table that may call for fire now (the quick test first: most
    units are no observers, and `may_call` words why)."""
    return [
        u.id
        for u in state.alive(side)
        if not u.transport and observer_ok(rules, state, u) and may_call(rules, state, u) is None
    ]


def check_call(
    rules: Rules, board: Board, scenario, state: State, side: str, cmd: dict[str, Any], own
) -> tuple[Unit, str, float, float]:
    """The legality check of a call for fire (raises IllegalCommand): observer, battery with
    missions left, an aim point on the table that the observer sees. Rolls nothing, so the
    order and its preview share it."""
    u = own(state, side, cmd.get("observer"), "observer")
    why = may_call(rules, state, u)
    if why is not None:
        raise IllegalCommand(why, "observer")
    battery = cmd.get("battery")
    have = batteries(scenario, side)
    if battery not in have:
        raise IllegalCommand(
            f"battery {battery!r} is not available; you have {have or 'none'}", "battery"
        )
    try:
        x, y = float(cmd["x"]), float(cmd["y"])
    except (KeyError, TypeError, ValueError):
        raise IllegalCommand("call_fire needs numeric 'x' and 'y' of the aim point", "x") from None
    if not board.on_table(x, y):
        raise IllegalCommand("the aim point is off the table", "x")
    if not board.los(u.pos, (x, y)):
        raise IllegalCommand(f"{u.name} cannot see the aim point", "x")
    used = sum(1 for m in state.missions.values() if m.side == side and m.battery == battery)
    limit = next(a.missions for a in scenario.artillery if a.side == side and a.battery == battery)
    if limit is not None and used >= limit:
        raise IllegalCommand(f"battery {battery} has fired all {limit} missions", "battery")
    return u, battery, x, y


def preview_call(
    rules: Rules, board: Board, scenario, state: State, side: str, cmd: dict[str, Any], own
) -> dict[str, Any]:
    """Whether a call for fire would be accepted (its reason if not); no dice are rolled."""
    try:
        u, battery, x, y = check_call(rules, board, scenario, state, side, cmd, own)
    except IllegalCommand as exc:
        return {"ok": False, "reason": exc.reason, "field": exc.field}
    art = rules.cat.get("artillery", battery)
    return {
        "ok": True,
        "observer": u.id,
        "battery": battery,
        "x": x,
        "y": y,
        "battery_name": getattr(art, "name", battery),
    }


def resolve_call(
    rules: Rules,
    board: Board,
    scenario,
    state: State,
    side: str,
    cmd: dict[str, Any],
    own,
    rng: random.Random,
) -> list[Draft]:
    u, battery, x, y = check_call(rules, board, scenario, state, side, cmd, own)
    nation = scenario.side(side).nation
    res = sample(he_fire.call_for_fire, rules, nation == RUSSIAN, rng=rng)
    art = rules.cat.get("artillery", battery)
    assert isinstance(art, Artillery)
    data = {
        "observer": u.id,
        "battery": battery,
        "x": x,
        "y": y,
        "ok": bool(res.result),
        # numbered per side: a mission's name tells nothing of the other side's calls
        "mission": f"{side}-m{1 + sum(m.side == side for m in state.missions.values())}",
        "strength": art.strength,
        "trained": record(rules, u).kind in ("fo", "command"),
    }
    return [Draft("call_fire", data, (side,), tuple(res.lines()))]


def mission_of(state: State, side: str, mid: Any) -> Mission:
    m = state.missions.get(mid) if isinstance(mid, str) else None
    if m is None or m.side != side or m.done:
        raise IllegalCommand(f"no mission {mid!r} of yours in progress", "mission")
    return m


def resolve_hold(rules: Rules, state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
    m = mission_of(state, side, cmd.get("mission"))
    art = rules.cat.get("artillery", m.battery)
    if not isinstance(art, Artillery) or art.kind != "gun":
        raise IllegalCommand("only gun missions may be held for adjustment (L4)", "mission")
    if m.due_turn != state.turn:
        raise IllegalCommand("this mission is not due this turn", "mission")
    return [Draft("hold", {"mission": m.id}, (side,))]


def resolve_adjust(board: Board, state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
    m = mission_of(state, side, cmd.get("mission"))
    if not m.held:
        raise IllegalCommand("only held gun missions can be adjusted", "mission")
    try:
        x, y = float(cmd["x"]), float(cmd["y"])
    except (KeyError, TypeError, ValueError):
        raise IllegalCommand("adjust needs numeric 'x' and 'y'", "x") from None
    if distance((x, y), (m.x, m.y)) > ADJUST_LIMIT:
        raise IllegalCommand(
            f'adjust at most {ADJUST_LIMIT:g}" from the plotted point (decision Q22)', "x"
        )
    obs = state.units.get(m.observer)
    if obs is None or not obs.alive or obs.suppressed or not board.los(obs.pos, (x, y)):
        raise IllegalCommand("the observer cannot see the new point", "x")
    return [Draft("adjust", {"mission": m.id, "x": x, "y": y}, (side,))]


def drift_drafts(rules: Rules, state: State, rng: random.Random) -> list[Draft]:
    """At the start of the artillery fire step every mission due now rolls for drift."""
    out = []
    for m in state.missions.values():
        if m.due_turn != state.turn or m.done or m.drifted or m.adjusted:
            continue
        res = sample(he_fire.drifts, rules, m.trained, rng=rng)
        x, y = m.x, m.y
        lines = list(res.lines())
        if res.result:
            direction = rng.randint(1, 10) * 36
            dist = rng.randint(1, 10)
            x += dist * math.sin(math.radians(direction))
            y += dist * math.cos(math.radians(direction))
            lines.append(f'drift {dist}" towards {direction} degrees (decision Q22)')
        out.append(
            Draft(
                "drift",
                {"mission": m.id, "drifted": bool(res.result), "x": x, "y": y},
                (m.side,),
                tuple(lines),
            )
        )
    return out


def burst_drafts(
    rules: Rules, board: Board, state: State, m: Mission, rng: random.Random
) -> list[Draft]:
    """The burst falls: every unit whose centre is within the burst radius takes the HE."""
    radius = rules.opts.burst_radius
    out = [
        Draft(
            "burst",
            {"mission": m.id, "x": m.x, "y": m.y, "radius": radius},
            None,
            (f"mission {m.id} ({m.battery}, HE {m.strength}) falls at ({m.x:.1f}, {m.y:.1f})",),
        )
    ]
    for u in state.alive():
        if u.transport or distance(u.pos, (m.x, m.y)) > radius:
            continue
        if is_armoured(rules, u):
            rec = record(rules, u)
            t = he_fire.vehicle_target(
                rec,
                board.cover(u.x, u.y, "he"),
                any(f.row == "hulldown" for f in board.features_at(u.x, u.y)),
                u.suppressed,
            )
            kind = "vehicle"
        elif u.kind == "vehicle":
            t = he_fire.HETarget("soft", board.cover(u.x, u.y, "he"), u.suppressed)
            kind = "vehicle"
        else:
            t = he_fire.HETarget("infantry", board.cover(u.x, u.y, "he"), u.suppressed)
            kind = "infantry"
        res = sample(he_fire.he_effect, rules, m.strength, t, rng=rng)
        hit = {
            "target": u.id,
            "kind": kind,
            "outcome": res.result.name,
            "mission": m.id,
            "parts": list(res.result.get("parts", ())),
            "attack": "he",
            "from": [m.x, m.y],
        }
        out.append(Draft("hit", hit, visible_to(state, u), tuple(res.lines())))
    return out


def visible_to(state: State, u: Unit) -> tuple[str, ...] | None:
    """The owner always; the enemy only while it observes the unit (fog of war)."""
    enemy = state.enemy(u.side)
    return None if u.id in state.seen.get(enemy, []) else (u.side,)
