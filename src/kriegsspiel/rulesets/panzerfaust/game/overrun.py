"""Overruns (p111, Q&A 1; decisions P288-P289): in phase F an AFV of the platoon that moves may
be ordered (`overrun {unit, target, path?}`, 1 pip like a move, p7) to drive over an enemy
infantry element (or gun, option `overrun_guns`) its side observes, in reach of its move and not
in a building. The path (default: straight onto the target) catches the target and at most one
more observed enemy element whose centre it passes within 3 cm of (the book: one team, two at
most). p25 holds the movement rates the order is priced with; the overrun itself is Q&A 1.

1. The AFV drives up to the first element it catches (half a base short of its centre).
2. Every element of the caught elements' platoons that has an AT weapon (an AT gun or weapon
   team, a flamethrower, Molotovs), may fire, did not move or moved less than the AFV, and
   reaches it there fires first, at point-blank range, with the ordinary rolls (pp. 19-21,
   29-31); that is its fire this turn. Hits land, and the AFV's platoon tests morale if it
   lost or was damaged (pp. 23-24).
3. An AFV that survives unharmed in its tracks (not destroyed, immobilised or stunned) and whose
   platoon did not become Shaken or Retreating in that test drives on along its path. Each
   caught element is then: dug in - unharmed (heads down); infantry whose 5 cm walk (p12) is
   more than the AFV's cross-country move in that ground (P143 shares) - steps aside unharmed;
   otherwise removed. No roll decides it; the log says which case applied.
Mines on the path go off as on any move (p39, mines.py): on the approach and on the drive on.
"""

from __future__ import annotations

import math
import random
from typing import Any

from shapely import LineString, Point

from ....chance import sample
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from . import arms, command, fire_order, flame, movement, turn
from .build import speed_placeholder, speeds
from .state import Element, State

REACH = 3.0  # cm: placeholder (P288): a path this close to a base's centre drives over it
HALF_BASE = 2.0  # cm: the AFV stops this far short of the first caught base's centre
MOST = 2  # p111 Q&A 1: one team, two at the most
WALK = 5.0  # cm: infantry walk (p12)
BUILDING = "inside_building"
P = "p111 Q&A 1"


def kinds(state: State) -> tuple[str, ...]:
    return ("infantry", "gun") if state.rules.opts.overrun_guns else ("infantry",)


def _line(traced: list[list[float]]) -> Any:
    pts = [(p[0], p[1]) for p in traced]
    return LineString(pts) if len(pts) > 1 and traced[-1][2] > 0 else Point(pts[0])


def caught(state: State, e: Element, traced: list[list[float]], t: Element) -> list[tuple[Element, float]]:  # fmt: skip
    """(element, cm along the path) of what the path drives over: the target and at most one
    more enemy element `e`'s side observes, of the kinds that can be overrun (P288)."""
    line = _line(traced)
    hits = []
    for oid in sorted(state.seen.get(e.side, ())):
        o = state.elements[oid]
        if not o.active or o.kind not in kinds(state):
            continue
        pt = Point(o.x, o.y)
        if line.distance(pt) <= REACH + 1e-9:
            cm = line.project(pt) if isinstance(line, LineString) else 0.0
            hits.append((o, cm))
    hits.sort(key=lambda h: (h[1], h[0].id))
    mine = [h for h in hits if h[0].id == t.id]
    others = [h for h in hits if h[0].id != t.id][: MOST - 1]
    return sorted(mine + others, key=lambda h: (h[1], h[0].id)) if mine else []


def in_building(state: State, xy: tuple[float, float]) -> bool:
    return any(state.board.kinds[f.id].sight == BUILDING for f in state.board.at(*xy))


def why_not(state: State, e: Element, t: Element, traced: list[list[float]]) -> str | None:
    """Why `e` cannot overrun `t` along the traced path, or None (p111 Q&A 1)."""
    if e.kind != "afv":
        return f"{e.name} is not an AFV: only AFVs overrun ({P})"
    if t.kind not in kinds(state):
        what = "infantry and guns" if state.rules.opts.overrun_guns else "infantry"
        return f"only {what} can be overrun ({P}; P289)"
    if in_building(state, (t.x, t.y)):
        return f"the target is in a building, where {e.name} cannot drive ({P}, P288)"
    if not caught(state, e, traced, t):
        return f"the path does not drive over the target (within {REACH:g} cm of it, P288)"
    return None


def templates(state: State, side: str, e: Element) -> list[dict[str, Any]]:
    """Overrun orders `e` may be given now: straight onto each observed target in reach."""
    if e.kind != "afv":
        return []
    from .orders_move import _reaches

    out = []
    for oid in sorted(state.seen.get(side, ())):
        t = state.elements[oid]
        if not t.active or t.kind not in kinds(state) or in_building(state, (t.x, t.y)):
            continue
        if math.dist((e.x, e.y), (t.x, t.y)) > speeds(state.records[e.id])[1]:
            continue
        if _reaches(state, e, (t.x, t.y)):
            out.append({"type": "overrun", "unit": e.id, "target": state.aliases.alias(side, oid)})
    return out


# ----------------------------------------------------------------------------- the order
def order(state: State, side: str, cmd: dict[str, Any], rng: random.Random) -> list[Draft]:
    """Check an overrun order and resolve steps 1-2 (the approach and the fire it draws)."""
    from . import orders_move as om

    e = command.own(state, side, cmd.get("unit"))
    p = om._platoon(state, side, e.platoon, "unit")
    why = om.can_move(state, e)
    if why:
        raise IllegalCommand(why, "unit")
    if e.kind != "afv":
        raise IllegalCommand(f"{e.name} is not an AFV: only AFVs overrun ({P})", "unit")
    t = turn.observed(state, side, cmd.get("target"))
    raw = cmd.get("path") or [[t.x, t.y]]
    path = om._path_of(state, e, raw)
    full = om._step(state, e, path, cmd.get("facing"))
    why = why_not(state, e, t, full["path"])
    if why:
        raise IllegalCommand(why, "target" if "path" not in why else "path")
    om._check_reach(state, e, path, "path")
    cost, _ = om._cost(state, e, False)
    last = om._pips(state, p, cost, "unit")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
    victims = caught(state, e, full["path"], t)
    stop = max(0.0, victims[0][1] - HALF_BASE)
    approach, rest = _split(full["path"], stop)
    step = {"unit": e.id, "path": approach,
            "facing": movement.facing_of((e.x, e.y), [tuple(q[:2]) for q in approach[1:]] or
                                         [(e.x, e.y)], e.facing)}  # fmt: skip
    note = speed_placeholder(state.records[e.id])
    told = (f"placeholder used: {note}",) if note else ()
    drafts = [Draft("move", base | {"moves": [step]}, (side,), told)]
    drafts += om._mined(state, side, e, [tuple(q[:2]) for q in approach[1:]], step, rng)
    xy = (approach[-1][0], approach[-1][1])
    ghost = Element(**{**e.__dict__, "x": xy[0], "y": xy[1], "facing": step["facing"],
                       "moved": stop, "counters": dict(e.counters)})  # fmt: skip
    ghost.feature = state.board.feature(*xy)
    drafts += _reaction(state, e, ghost, [v for v, _ in victims], rng)
    pending = {"unit": e.id, "victims": [v.id for v, _ in victims], "rest": rest,
               "facing": full["facing"], "status": p.status}  # fmt: skip
    return drafts + [Draft("overrun_pending", pending, ())]


def _split(traced: list[list[float]], cm: float) -> tuple[list[list[float]], list[list[float]]]:
    """The traced path cut `cm` from its start: (approach, the rest traced from the cut)."""
    cut = movement.point_at(traced, cm)
    head = [q for q in traced if q[2] < cm - 1e-9]
    approach = [*head, [round(cut[0], 3), round(cut[1], 3), round(cm, 3)]]
    if len(approach) == 1:
        approach = [approach[0], list(approach[0])]
    tail = [(q[0], q[1]) for q in traced if q[2] > cm + 1e-9]
    return approach, movement.trace(cut, tail) if tail else []


def reactors(state: State, afv: Element, victims: list[Element], stop: float) -> list[Element]:
    """The elements that fire first (Q&A 1): of the caught elements' platoons, those with an AT
    weapon that may fire and moved less than the AFV (or not at all)."""
    platoons = {v.platoon for v in victims}
    out = []
    for m in sorted(state.elements.values(), key=lambda m: m.id):
        if m.platoon not in platoons or m.side == afv.side or not fire_order.may_fire(state, m):
            continue
        if m.moved > 0 and m.moved >= stop:
            continue
        if arms.main_gun(state, m) is None and flame.weapon(state, m) not in (
            "man_pack",
            "molotov",
        ):
            continue
        out.append(m)
    return out


def _reaction(state: State, e: Element, ghost: Element, victims: list[Element], rng) -> list[Draft]:
    from .orders_fire import _can_hit, _placeholders, _resolution

    xy = (ghost.x, ghost.y)
    results, drafts = [], []
    for m in reactors(state, e, victims, ghost.moved):
        flamed = flame.weapon(state, m) in ("man_pack", "molotov")
        why = (flame.why_not if flamed else _can_hit)(state, m, ghost, xy)
        if why:
            continue
        fn, situation = _resolution(state, m, ghost, xy, flamed)
        res = sample(fn, state.rules, situation, rng=rng)
        r = res.result.name
        lines = (f"{m.name} fires first at the AFV overrunning its position ({P})",
                 *res.lines(), *_placeholders(res))  # fmt: skip
        hit = {"target": e.id, "result": r, "at": None, "src": m.id}
        if flamed and r != "miss":
            hit["flame"] = True  # the AFV's unit tests morale even if unharmed (p23, P311)
        results.append(hit)
        mine = {"unit": m.id, "target": state.aliases.alias(m.side, e.id), "result": r,
                "flame": flamed}  # fmt: skip
        seen = m.id in state.seen.get(e.side, ())
        theirs = {
            "unit": e.id,
            "result": r,
            "by": state.aliases.alias(e.side, m.id) if seen else None,
        }
        drafts += [Draft("overrun_fire", mine, (m.side,), lines),
                   Draft("overrun_fired_on", theirs, (e.side,), lines)]  # fmt: skip
    if results:
        drafts.append(Draft("overrun_hits", {"results": results}, ()))
    return drafts


# ----------------------------------------------------------------------------- step 3
def _halted(state: State, d: dict, e: Element) -> str | None:
    if e.lost:
        return "destroyed"
    if e.has("hull_damaged"):
        return "immobilised"
    if e.has("stunned"):
        return "stunned"
    status = state.platoons[e.platoon].status
    if status != d["status"] and status in ("shaken", "retreat"):
        return f"its platoon is {status}"
    return None


def fate(state: State, afv: Element, v: Element) -> tuple[str, str]:
    """What driving over `v` does (Q&A 1): (result, why)."""
    if v.has("dug_in"):
        return "unharmed", f"{v.name} is dug in: heads down, the AFV passes over ({P})"
    there = speeds(state.records[afv.id])[0] * state.board.slow(v.x, v.y)
    if v.kind == "infantry" and there + 1e-9 < WALK:
        return "stepped_aside", (f"{v.name} walks {WALK:g} cm here, more than {afv.name}'s "
                                 f"{there:g} cm: it steps aside ({P}; ground P143)")  # fmt: skip
    return "destroyed", f"{v.name} is caught in the open and removed ({P})"


def automatic(state: State, rng: random.Random) -> list[Draft]:
    """Step 3, once the reaction fire and any morale test it caused are over."""
    d = state.phase_data["overrun"]
    e = state.elements[d["unit"]]
    halt = _halted(state, d, e)
    if halt:
        line = f"{e.name} does not drive over the position: {halt} ({P})"
        return [Draft("overrun", {"unit": e.id, "path": [], "facing": e.facing, "halted": halt,
                                  "caught": []}, (e.side,), (line,))]  # fmt: skip
    caught_, lost, lines, notices = [], [], [], []
    for v in (state.elements[i] for i in d["victims"]):
        if not v.active:
            continue
        r, why = fate(state, e, v)
        lines.append(why)
        caught_.append({"target": state.aliases.alias(e.side, v.id), "result": r})
        if r == "destroyed":
            lost.append({"target": v.id, "result": "destroyed", "at": None, "src": e.id})
        by = state.aliases.alias(v.side, e.id) if e.id in state.seen.get(v.side, ()) else None
        notices.append(Draft("overrun_suffered", {"unit": v.id, "result": r, "by": by},
                             (v.side,), (why,)))  # fmt: skip
    data = {"unit": e.id, "path": d["rest"], "facing": d["facing"], "halted": None,
            "caught": caught_}  # fmt: skip
    out = [Draft("overrun", data, (e.side,), tuple(lines)), *notices]
    if lost:
        out.append(Draft("overrun_hits", {"results": lost}, ()))
    if d["rest"]:  # the drive on crosses mines like any move (p39; mines.py)
        from .orders_move import _mined

        rest = [(q[0], q[1]) for q in d["rest"][1:]]
        out += _mined(state, e.side, e, rest, {"path": d["rest"]}, rng)
    return out


# ----------------------------------------------------------------------------- folds
def _pending(state: State, d: dict, e: Event) -> None:
    state.phase_data["overrun"] = d


def _fired(state: State, d: dict, e: Event) -> None:
    m = state.elements[d["unit"]]
    m.fired = True
    target = state.aliases.resolve(m.side, d["target"])
    if d.get("flame") and d["result"] != "miss" and target:
        state.elements[target].counters["flamed"] = 1


def _hits(state: State, d: dict, e: Event) -> None:
    from .orders_fire import land

    land(state, d["results"])


def _drove(state: State, d: dict, e: Event) -> None:
    from .orders_move import _looked_at, _place

    state.phase_data.pop("overrun", None)
    el = state.elements[d["unit"]]
    rest = d["path"]
    if not rest or el.lost:
        return
    start = el.moved
    _place(state, el, rest, d["facing"])
    el.path[-len(rest) :] = [[x, y, round(start + cm, 3)] for x, y, cm in rest]
    _looked_at(state, {el.id: start})  # the enemy sees it drive on (along_move.py, P283)


def _noted(state: State, d: dict, e: Event) -> None:
    pass  # a side's notice of what the umpire's events fold


FOLDS = {
    "overrun_pending": _pending,
    "overrun_fire": _fired,
    "overrun_fired_on": _noted,
    "overrun_hits": _hits,
    "overrun": _drove,
    "overrun_suffered": _noted,
}
