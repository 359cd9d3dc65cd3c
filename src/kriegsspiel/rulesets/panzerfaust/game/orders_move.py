"""Phase F (pp. 6-7): platoons move alternately, the side with the lowest troop class on the
table first (tie: the lower 1D6), the side with more platoons moving several per turn
(option `platoon_ratio`, decision P145). A platoon's turn: single orders to its elements
(1 pip each from its company, +1 out of command radius) or one group order for the whole
platoon (move / leap-frog / defend, 1 pip), then `end_platoon`. Spending a company's last pip
on one element ends its movement (p7). Compulsory moves (Retreat, a threatened Shaken
platoon's withdrawal: withdrawal.py) cost nothing and are made for the player when the phase
begins, a Retreat result given later in the phase at once. A Shaken element's orders may not
take it nearer to the enemy (p24). A pinned element must pass a morale test to move (p17).
"""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import Note, Outcome, Roll, sample
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ....engine.flow import ActivationQueue
from ..rules import pips
from . import (
    along_move,
    arrivals,
    command,
    disengage,
    fieldworks,
    floors,
    hatches,
    mines,
    morale_tests,
    mortar_debark,
    movement,
    orders_cover,
    overrun,
    rally,
    regroup,
    rider_alarm,
    riders,
    towing,
    withdrawal,
)
from .build import speed_placeholder
from .commands import (
    Camouflage,
    Climb,
    CloseDown,
    DebarkMortar,
    Dig,
    Disengage,
    Dismount,
    Embark,
    EmbarkMortar,
    EndPlatoon,
    Exit,
    Group,
    Limber,
    Move,
    OpenUp,
    Overrun,
    Rally,
    Regroup,
    SetUpMortar,
    Unlimber,
)
from .state import Element, Platoon, State

COMMANDS = {
    "move": Move,
    "group": Group,
    "end_platoon": EndPlatoon,
    "dismount": Dismount,
    "embark": Embark,
    "exit": Exit,
    "rally": Rally,
    "overrun": Overrun,
    "regroup": Regroup,
    "dig": Dig,
    "camouflage": Camouflage,
    "limber": Limber,
    "unlimber": Unlimber,
    "disengage": Disengage,
    "climb": Climb,
    "debark_mortar": DebarkMortar,
    "set_up_mortar": SetUpMortar,
    "embark_mortar": EmbarkMortar,
    "close_down": CloseDown,
    "open_up": OpenUp,
}
check = towing.check  # a scenario's limbered guns (build time)
RANK = {"conscript": 0, "regular": 1, "veteran": 2}
DIRECTIONS = 8
MANHANDLE_WAYS = 2  # a man-handled gun is offered its full rate ahead and back


# ----------------------------------------------------------------------------- folds
def _order(state: State, d: dict, e: Event) -> None:
    state.queue = ActivationQueue.start(d["first"], d["counts"], d.get("ratio", True))


def _place(state: State, el: Element, path: list[list[float]], facing: float) -> float:
    """Move `el` along a traced path (cm counted on from its earlier moves this turn); the
    cm it had moved before."""
    start = el.moved
    el.path = el.path + [[x, y, round(c + start, 3)] for x, y, c in path]
    el.moved = round(start + path[-1][2], 3)
    el.x, el.y, el.facing = path[-1][0], path[-1][1], facing
    if el.turret is not None:
        el.turret = facing
    el.feature = state.board.feature(el.x, el.y)
    el.floor = floors.after_move(state, el)
    for rider in el.carrying:
        r = state.elements[rider]
        r.x, r.y, r.facing = el.x, el.y, facing
    if el.towing:
        towing.follow(state, el)
    return start


def _looked_at(state: State, starts: dict[str, float]) -> None:
    """The enemy looks at each mover along its new stretch (along_move.py), once all the
    elements of the order stand where they end."""
    state.cache.pop("screens", None)
    for uid, start in starts.items():
        along_move.glimpse(state, state.elements[uid], start)


def _move(state: State, d: dict, e: Event) -> None:
    starts = {}
    for m in d["moves"]:
        starts[m["unit"]] = _place(state, state.elements[m["unit"]], m["path"], m["facing"])
    _looked_at(state, starts)
    _spend(state, d)


def _spend(state: State, d: dict) -> None:
    c = state.companies[d["company"]]
    c.spent += d["cost"]
    if d.get("finishes"):
        c.finished = True
    state.phase_data["platoon"] = d["platoon"]
    if d.get("order"):
        state.platoons[d["platoon"]].order = d["order"]


def _pin_test(state: State, d: dict, e: Event) -> None:
    if d["acts"]:  # the move that follows pays the pip
        state.elements[d["unit"]].counters.pop("pinned", None)
    else:
        _spend(state, d)


def _platoon_done(state: State, d: dict, e: Event) -> None:
    p = state.platoons[d["platoon"]]
    p.moved = True
    state.phase_data.pop("platoon", None)
    assert state.queue is not None
    state.queue.activated(p.side)


def _retreat(state: State, d: dict, e: Event) -> None:
    _looked_at(state, withdrawal.fold(state, d["moves"], _place))
    state.phase_data["retreated"] = True


def _arrived(state: State, d: dict, e: Event) -> None:
    state.phase_data["arrived"] = True


def _mine_hits(state: State, d: dict, e: Event) -> None:
    from .orders_fire import land

    land(state, d["results"])
    for r in d["results"]:
        el = state.elements[r["target"]]
        if r.get("cm") is not None and [el.x, el.y] == r["at"]:  # stopped there: no further
            along_move.cut(state, el.id, r["cm"])


def _exited(state: State, d: dict, e: Event) -> None:
    el = state.elements[d["unit"]]
    el.exited = d["edge"]
    for rider in el.carrying:
        state.elements[rider].exited = d["edge"]
    gun = towing.partner(state, el)
    if gun is not None and gun.limbered:
        gun.exited = d["edge"]  # towed off with it (p33: one unit)


def _rally(state: State, d: dict, e: Event) -> None:
    rally.fold(state, {**d, "platoon": d["platoon"]}, e)
    _spend(state, {**d, "platoon": state.elements[d["unit"]].platoon})


def _disengage(state: State, d: dict, e: Event) -> None:
    disengage.fold(state, d, e)
    _spend(state, d)


def _climb(state: State, d: dict, e: Event) -> None:
    floors.fold(state, d, e)
    _spend(state, d)


def _ride(state: State, d: dict, e: Event) -> None:
    riders.FOLDS[e.type](state, d, e)
    _spend(state, d)


def _works(state: State, d: dict, e: Event) -> None:
    fieldworks.BEGIN[e.type](state, d, e)
    _spend(state, d)


def _tow_job(state: State, d: dict, e: Event) -> None:
    towing.start(state, d)
    _spend(state, d)


def _mortar_job(state: State, d: dict, e: Event) -> None:
    mortar_debark.FOLDS[e.type](state, d, e)
    _spend(state, d)


FOLDS = {
    **arrivals.FOLDS,
    **overrun.FOLDS,
    **fieldworks.FOLDS,
    **{kind: _works for kind in fieldworks.BEGIN},
    "rally": _rally,
    "exited": _exited,
    "embark": _ride,
    "dismount": _ride,
    "tow_job": _tow_job,
    **{kind: _mortar_job for kind in mortar_debark.FOLDS},
    "crew_parts": lambda state, d, e: _crew(state, d, e),
    "crew_joins": lambda state, d, e: _crew(state, d, e),
    "disengage": _disengage,
    "climb": _climb,
    "hatch": hatches.fold,
    "mine_check": lambda state, d, e: None,
    "mine_hits": _mine_hits,
    "arrivals_done": _arrived,
    "movement_order": _order,
    "first_to_move": lambda state, d, e: None,
    "move": _move,
    "pin_test": _pin_test,
    "platoon_moved": _platoon_done,
    "retreat_move": _retreat,
    **rider_alarm.FOLDS,
}


# ----------------------------------------------------------------------------- queries
def movable(state: State, p: Platoon) -> bool:
    """A platoon with anything on the table, riders included (they may get down)."""
    return any(state.elements[m].on_table for m in p.members)


def actors(state: State) -> list[str]:
    q = state.queue
    if q is None or q.done or state.phase_data.get("overrun"):
        return []
    side = q.to_act()
    return [side] if side else []


def _current(state: State, side: str) -> list[Platoon]:
    """The platoons `side` may command now: the one it is moving, or any still to move."""
    cur = state.phase_data.get("platoon")
    if cur is not None:
        return [state.platoons[cur]]
    return [
        p for p in state.platoons.values() if p.side == side and not p.moved and movable(state, p)
    ]


def can_move(state: State, e: Element) -> str | None:
    """Why `e` cannot be given a move order now, or None."""
    if not e.active:
        return f"{e.name} is not on the table"
    if e.moved > 0:
        return f"{e.name} has already moved this turn"
    if e.has("hull_damaged"):
        return f"{e.name} is immobilised (p31)"
    if e.has("stunned"):
        return f"{e.name} is stunned and cannot move this turn (p31)"
    if e.has("retreat"):
        return f"{e.name} is retreating: its move is compulsory (p24)"
    if "cf" in e.counters:
        return f"{e.name} is giving covering fire and may do nothing else (p17)"
    why = (
        towing.why_not_move(state, e)
        or disengage.why_not_move(state, e)
        or mortar_debark.why_not_move(state, e)
        or rider_alarm.why_not_move(state, e)
    )
    if why:
        return why
    if movement.reach(state, e) <= 0:
        return f"{e.name} cannot move"
    return None


REACH_MEMO = 100_000  # straight moves priced, kept per game


def _reaches(state: State, e: Element, xy: tuple[float, float]) -> bool:
    """Whether `e` may move straight to `xy` this turn (on the table, within its allowance)."""
    if not state.board.on_table(*xy):
        return False
    # the templates ask again at every decision; the answer depends only on the element's
    # record (fixed for the game), where it stands, the point and what it tows
    memo = state.cache.setdefault("reaches", {})
    key = (e.id, e.x, e.y, xy, towing.tow_factor(state, e)[0] if e.towing else 1.0,
           rider_alarm.share(state, e))  # fmt: skip
    hit = memo.get(key)
    if hit is None:
        if len(memo) > REACH_MEMO:
            memo.clear()
        if e.kind == "gun":
            hit = memo[key] = towing.manhandle_refusal(state, e, [xy]) is None
            return hit
        budget = movement.allowance(state, e, [xy]) + 1e-6
        hit = memo[key] = movement.cost(state, (e.x, e.y), [xy], budget) <= budget
    return hit


def _cost(state: State, e: Element, group: bool) -> tuple[int, bool]:
    """(pips, out of radius) of an order for `e` (p7)."""
    out = not command.in_radius(state, e)
    return pips.order_cost(state.rules, pips.Order(out_of_radius=out)), out


def legal(state: State, side: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    t = state.scenario.table
    for p in _current(state, side):
        out.append({"type": "end_platoon", "platoon": p.id})
        out += regroup.templates(state, p)
        out += hatches.templates(state, [state.elements[m] for m in p.members])  # free (P341)
        c = state.companies[p.company]
        left = c.pips - c.spent
        if c.finished or left <= 0:
            continue
        out.append({"type": "group", "platoon": p.id, "order": "defend"})
        out += _ride_templates(state, side, p, left)
        out += _tow_templates(state, p, left)
        out += _mortar_templates(state, p, left)
        out += _exit_templates(state, p, left)
        out += _melee_templates(state, p, left)
        out += [
            t for t in fieldworks.templates(state, side, p)
            if t["type"] == "dig" or _cost(state, state.elements[t["unit"]], False)[0] <= left
        ]  # fmt: skip
        every = [state.elements[m] for m in p.members if can_move(state, state.elements[m]) is None]
        members = [m for m in every if m.kind != "gun"]  # guns: single orders (P275)
        slowest = min((movement.reach(state, m) for m in members), default=0.0)
        for i in range(DIRECTIONS if members else 0):
            a = 2 * math.pi * i / DIRECTIONS
            for share in (0.5, 1.0):
                dx = round(slowest * share * math.sin(a), 2)
                dy = round(slowest * share * math.cos(a), 2)
                if all(_reaches(state, m, (m.x + dx, m.y + dy))
                       and not withdrawal.approaches(state, m, (m.x + dx, m.y + dy))
                       for m in members):  # fmt: skip
                    for order in ("move", "leapfrog"):
                        out.append(
                            {"type": "group", "platoon": p.id, "order": order, "dx": dx, "dy": dy}
                        )
        for e in every:
            if _cost(state, e, False)[0] > left:
                continue
            full = movement.reach(state, e)
            ways = MANHANDLE_WAYS if e.kind == "gun" else DIRECTIONS
            for i in range(ways):
                a = 2 * math.pi * i / ways + (math.radians(e.facing) if e.kind == "gun" else 0.0)
                for share in (1.0,) if e.kind == "gun" else (0.5, 1.0):
                    x = round(min(max(e.x + full * share * math.sin(a), 0.0), t.width), 2)
                    y = round(min(max(e.y + full * share * math.cos(a), 0.0), t.depth), 2)
                    if (x, y) != (e.x, e.y) and _reaches(state, e, (x, y)) \
                            and not withdrawal.approaches(state, e, (x, y)):  # fmt: skip
                        out.append({"type": "move", "unit": e.id, "path": [[x, y]]})
            out += overrun.templates(state, side, e)
    return out


def _melee_templates(state: State, p: Platoon, left: int) -> list[dict[str, Any]]:
    """Disengage and climb orders (disengage.py, floors.py) the company can pay for."""
    mine = [state.elements[x] for x in p.members]
    payable = [m for m in mine if m.active and _cost(state, m, False)[0] <= left]
    return disengage.templates(state, payable) + floors.templates(state, payable)


def _exit_templates(state: State, p: Platoon, left: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in (state.elements[x] for x in p.members):
        if can_move(state, m) is None and _cost(state, m, False)[0] <= left:
            for edge, at in EDGE_POINT.items():
                end = at(m, state.scenario.table)
                if _reaches(state, m, end) and not withdrawal.approaches(state, m, end):
                    out.append({"type": "exit", "unit": m.id, "edge": edge})
    return out


def _tow_templates(state: State, p: Platoon, left: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in (state.elements[x] for x in p.members):
        if m.kind == "gun" and _cost(state, m, False)[0] <= left:
            out += towing.templates(state, m)
    return out


def _mortar_templates(state: State, p: Platoon, left: int) -> list[dict[str, Any]]:
    """Mortar carriers' orders to set their mortars up off the vehicle or load them
    (mortar_debark.py) that the company can pay for."""
    mine = [state.elements[x] for x in p.members]
    payable = [m for m in mine if m.active and _cost(state, m, False)[0] <= left]
    return mortar_debark.templates(state, payable)


def _ride_templates(state: State, side: str, p: Platoon, left: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in (state.elements[x] for x in p.members):
        if m.lost or m.x is None or m.moved > 0 or mortar_debark.refuses_rider(state, m):
            continue
        if m.kind == "gun":
            if m.crew_in and towing.why_not_rejoin(state, m) is None \
                    and _cost(state, m, False)[0] <= left:  # fmt: skip
                out.append({"type": "dismount", "unit": m.id})
            continue
        if m.transport is not None:
            if _cost(state, state.elements[m.transport], False)[0] <= left:
                out.append({"type": "dismount", "unit": m.id})
        elif m.kind == "infantry" and _cost(state, m, False)[0] <= left:
            for v in state.side_elements(side):
                if v.active and v.kind in ("afv", "softskin"):
                    try:
                        board(state, m, v.id)
                    except IllegalCommand:
                        continue
                    out.append({"type": "embark", "unit": m.id, "vehicle": v.id})
    return out


# ----------------------------------------------------------------------------- commands
def _platoon(state: State, side: str, pid: Any, field: str = "platoon") -> Platoon:
    p = state.platoons.get(pid) if isinstance(pid, str) else None
    if p is None or p.side != side:
        raise IllegalCommand(f"{pid!r} is not a platoon of yours", field)
    if p not in _current(state, side):
        cur = state.phase_data.get("platoon")
        why = f"platoon {cur} is moving now" if cur else f"{p.name} has already moved"
        raise IllegalCommand(f"{p.name} cannot move now: {why}", field)
    return p


def _pips(state: State, p: Platoon, cost: int, field: str) -> bool:
    """Check the company can pay; True when this order spends its last pip."""
    c = state.companies[p.company]
    if c.finished:
        raise IllegalCommand(f"{c.name} has finished its movement this turn (p7)", field)
    left = c.pips - c.spent
    if cost > left:
        raise IllegalCommand(
            f"{c.name} has {left} pip(s) left; this order costs {cost} (p7)", field
        )
    return cost == left


def _path_of(state: State, e: Element, raw: list, field: str = "path") -> list[tuple[float, float]]:
    path = [(float(x), float(y)) for x, y in raw]
    for x, y in path:
        if not state.board.on_table(x, y):
            raise IllegalCommand(f"({x:g}, {y:g}) is off the table", field)
    return path


def _check_reach(state: State, e: Element, path: list[tuple[float, float]], field: str) -> None:
    if withdrawal.approaches(state, e, path[-1]):
        raise IllegalCommand(
            f"{e.name} is Shaken: it may not move nearer to the enemy (p24)", field
        )
    if e.kind == "gun":  # man-handled (p33)
        why = towing.manhandle_refusal(state, e, path)
        if why:
            raise IllegalCommand(why, field)
        return
    full = movement.allowance(state, e, path)
    cost = movement.cost(state, (e.x, e.y), path)
    if e.kind == "infantry" and cost > full and movement.charges(state, e, path):
        full = movement.CHARGE
    if cost > full + 1e-6:
        raise IllegalCommand(
            f"{e.name} moves at most {full:g} cm here; this path costs {cost:.1f} cm", field
        )


def _step(state: State, e: Element, path: list[tuple[float, float]], facing: float | None) -> dict:
    start = (e.x, e.y)
    return {
        "unit": e.id,
        "path": movement.trace(start, path),
        "facing": facing if facing is not None else movement.facing_of(start, path, e.facing),
    }


def resolve(state: State, side: str, cmd: dict[str, Any], rng: random.Random) -> list[Draft]:
    kind = cmd["type"]
    if kind == "end_platoon":
        p = _platoon(state, side, cmd.get("platoon"))
        return [Draft("platoon_moved", {"platoon": p.id}, (side,))]
    if kind == "group":
        return _group(state, side, cmd, rng)
    if kind in ("dismount", "embark"):
        return _ride_order(state, side, cmd)
    if kind in ("limber", "unlimber"):
        return _tow_order(state, side, cmd)
    if kind in ("debark_mortar", "embark_mortar", "set_up_mortar"):
        return _mortar_order(state, side, cmd)
    if kind == "exit":
        return _exit(state, side, cmd)
    if kind in ("disengage", "climb"):
        return _melee_order(state, side, cmd)
    if kind in ("close_down", "open_up"):
        return _hatch_order(state, side, cmd)
    if kind == "overrun":
        return overrun.order(state, side, cmd, rng)
    if kind == "regroup":  # no pip: the platoons stay where they are (p24, P273)
        plats = regroup.check(state, side, cmd.get("platoons") or [])
        p = _platoon(state, side, plats[0].id, "platoons")
        return [
            regroup.draft(state, side, plats),
            Draft("platoon_moved", {"platoon": p.id}, (side,)),
        ]
    if kind in ("dig", "camouflage"):
        return _works_order(state, side, cmd)
    if kind == "rally":
        hq, target = rally.check(state, side, cmd.get("unit"), cmd.get("platoon"))
        p = _platoon(state, side, hq.platoon, "unit")
        cost, _ = _cost(state, hq, False)
        last = _pips(state, p, cost, "unit")
        base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
        return [rally.draft(state, side, base, hq, target, rng)]
    e = command.own(state, side, cmd.get("unit"))
    p = _platoon(state, side, e.platoon, "unit")
    why = can_move(state, e)
    if why:
        raise IllegalCommand(why, "unit")
    path = _path_of(state, e, cmd["path"])
    _check_reach(state, e, path, "path")
    cost, _ = _cost(state, e, False)
    last = _pips(state, p, cost, "unit")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
    if e.has("pinned"):
        res = sample(morale_tests.break_pin, state.rules, e, rng=rng)
        acts = res.result.name == "acts"
        data = base | {"unit": e.id, "acts": acts}
        drafts = [Draft("pin_test", data, (side,), tuple(res.lines()))]
        if not acts:
            return drafts
        drafts += orders_cover.fire_on(state, e, rng)  # it breaks cover: the CF fires (p17)
        if orders_cover.killed(drafts):
            return drafts
    else:
        drafts = []
    step = _step(state, e, path, cmd.get("facing"))
    move = base | {"moves": [step]}
    note = speed_placeholder(state.records[e.id])
    told = ((f"placeholder used: {note}",) if note else ()) + fieldworks.leaving(state, e)
    told += fieldworks.taking(state, e, path[-1])
    if e.towing:
        told += tuple(x for x in towing.tow_factor(state, e)[1:] if x)
    return drafts + [Draft("move", move, (side,), told)] + _mined(state, side, e, path, step, rng)


def _melee_order(state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
    """Disengage from close combat (disengage.py) or go up or down a floor (floors.py): a
    single order of 1 pip, +1 out of command radius (p7)."""
    e = command.own(state, side, cmd.get("unit"))
    p = _platoon(state, side, e.platoon, "unit")
    if cmd["type"] == "disengage":
        check = disengage.why_not(state, e)
    else:
        check = floors.why_not(state, e, cmd.get("floor"))
    if check:
        raise IllegalCommand(check, "unit" if cmd["type"] == "disengage" else "floor")
    cost, _ = _cost(state, e, False)
    last = _pips(state, p, cost, "unit")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
    if cmd["type"] == "disengage":
        return disengage.order(state, side, e, base)
    return floors.order(state, side, e, int(cmd["floor"]), base)


def _hatch_order(state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
    """Close down or open up an AFV of the platoon moving now (hatches.py): free (P341)."""
    e = command.own(state, side, cmd.get("unit"))
    p = _platoon(state, side, e.platoon, "unit")
    closed = cmd["type"] == "close_down"
    why = hatches.why_not(state, e, closed)
    if why:
        raise IllegalCommand(why, "unit")
    return hatches.order(state, side, e, closed, p.id)


def _works_order(state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
    """Dig in a platoon's teams (a group order, 1 pip) or camouflage an element's position (a
    single order, 1 pip, +1 out of command radius): fieldworks.py (p7, p9, p39)."""
    if cmd["type"] == "dig":
        p = _platoon(state, side, cmd.get("platoon"))
        fieldworks.diggers(state, p)  # refusals before the pips
        _pips(state, p, 1, "platoon")  # a group order: its last pip ends nothing (p7)
        base = {"platoon": p.id, "company": p.company, "cost": 1, "finishes": False}
        return fieldworks.dig(state, p, base)
    e = command.own(state, side, cmd.get("unit"))
    p = _platoon(state, side, e.platoon, "unit")
    why = fieldworks.why_no_camouflage(state, side, e)
    if why:
        raise IllegalCommand(why, "unit")
    cost, _ = _cost(state, e, False)
    last = _pips(state, p, cost, "unit")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
    return fieldworks.camouflage(state, side, e, list(cmd.get("helpers") or []), base)


EDGE_POINT = {
    "north": lambda e, t: (e.x, t.depth),
    "south": lambda e, t: (e.x, 0.0),
    "east": lambda e, t: (t.width, e.y),
    "west": lambda e, t: (0.0, e.y),
}


def _exit(state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
    """Leave the table by an edge within this move (1 pip); it counts for `exit` victory."""
    e = command.own(state, side, cmd.get("unit"))
    p = _platoon(state, side, e.platoon, "unit")
    why = can_move(state, e)
    if why:
        raise IllegalCommand(why, "unit")
    edge = cmd["edge"]
    end = EDGE_POINT[edge](e, state.scenario.table)
    if not _reaches(state, e, end):
        raise IllegalCommand(f"{e.name} cannot reach the {edge} edge this move", "edge")
    if withdrawal.approaches(state, e, end):
        raise IllegalCommand(
            f"{e.name} is Shaken: it may not move nearer to the enemy (p24)", "edge"
        )
    cost, _ = _cost(state, e, False)
    last = _pips(state, p, cost, "unit")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
    step = _step(state, e, [end], None)
    return [Draft("move", base | {"moves": [step]}, (side,)),
            Draft("exited", {"unit": e.id, "edge": edge}, (side,))]  # fmt: skip


def board(state: State, e: Element, vid: Any) -> Element:
    """The vehicle `vid` that `e` may board now (riders.py), or IllegalCommand with the reason:
    none boards an AFV standing for its tank riders to get down (p28, rider_alarm.py)."""
    v = riders.check_embark(state, e, vid)
    why = rider_alarm.why_not_board(state, v)
    if why:
        raise IllegalCommand(why, "vehicle")
    return v


def _ride_order(state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
    """Board a vehicle or get down from it (riders.py): a single order of 1 pip (p7)."""
    uid = cmd.get("unit")
    e = state.elements.get(uid) if isinstance(uid, str) else None
    if e is None or e.side != side or e.lost or e.x is None:
        raise IllegalCommand(f"{uid!r} is not an element of yours on the table", "unit")
    p = _platoon(state, side, e.platoon, "unit")
    if e.kind == "gun":
        return _crew_order(state, side, cmd, e, p)
    why = mortar_debark.refuses_rider(state, e)
    if why:
        raise IllegalCommand(why, "unit")
    if e.moved > 0:
        raise IllegalCommand(f"{e.name} has already moved this turn", "unit")
    if cmd["type"] == "dismount":
        if e.transport is None:
            raise IllegalCommand(f"{e.name} is not aboard a vehicle", "unit")
        v = state.elements[e.transport]
    else:
        if e.transport is not None:
            raise IllegalCommand(f"{e.name} is already aboard {e.transport}", "unit")
        v = board(state, e, cmd.get("vehicle"))
    cost, _ = _cost(state, v if e.transport else e, False)
    last = _pips(state, p, cost, "unit")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
    if cmd["type"] == "embark":
        return [Draft("embark", base | {"unit": e.id, "vehicle": v.id}, (side,))]
    x, y = riders.dismount_spot(state, v)
    return [Draft("dismount", base | {"unit": e.id, "x": x, "y": y}, (side,))]


def _crew_order(state: State, side: str, cmd: dict, gun: Element, p: Platoon) -> list[Draft]:
    """A gun's crew boards another vehicle than its gun's tower, or gets down beside its gun
    (p34, P316): a single order of 1 pip (+1 out of command radius) for the gun."""
    if cmd["type"] == "embark":
        v, note = towing.why_not_part(state, gun, cmd.get("vehicle"))
        why = (f"{gun.name}'s crew rides apart, in {v.name}: the gun neither sets up nor fires "
               "until crew and gun are together (p34)",) + ((note,) if note else ())  # fmt: skip
    else:
        refusal = towing.why_not_rejoin(state, gun)
        if refusal:
            raise IllegalCommand(refusal, "unit")
        v, why = (
            state.elements[gun.crew_in or ""],
            (f"{gun.name}'s crew gets down beside it (p34)",),
        )
    cost, _ = _cost(state, gun, False)
    last = _pips(state, p, cost, "unit")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
    kind = "crew_parts" if cmd["type"] == "embark" else "crew_joins"
    return [Draft(kind, base | {"unit": gun.id, "vehicle": v.id}, (side,), why)]


def _crew(state: State, d: dict, e: Event) -> None:
    state.elements[d["unit"]].crew_in = d["vehicle"] if e.type == "crew_parts" else None
    _spend(state, d)


def _tow_order(state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
    """Limber, unlimber, set up or pack up a towed gun (towing.py): a single order of 1 pip
    (+1 out of command radius, p7) for the gun, whatever time the work takes (P275)."""
    gun = command.own(state, side, cmd.get("unit"))
    p = _platoon(state, side, gun.platoon, "unit")
    job, why = towing.plan(state, gun, cmd)
    cost, _ = _cost(state, gun, False)
    last = _pips(state, p, cost, "unit")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
    return [Draft("tow_job", base | job, (side,), tuple(why))]


def _mortar_order(state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
    """A mortar carrier's crew gets its mortar down and sets it up, or packs it up and loads
    it (mortar_debark.py): a single order of 1 pip (+1 out of command radius, p7) for the
    carrier, whatever time the work takes (P346); a mortar team its carrier's loss put down
    sets it up, an order for the team (P351)."""
    v = command.own(state, side, cmd.get("unit"))
    p = _platoon(state, side, v.platoon, "unit")
    kind, data, why = mortar_debark.plan(state, v, cmd["type"])
    cost, _ = _cost(state, v, False)
    last = _pips(state, p, cost, "unit")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": last}
    return [Draft(kind, base | data, (side,), tuple(why))]


def _mined(state: State, side: str, e: Element, path, step: dict, rng) -> list[Draft]:
    """Mines set off along the move (mines.py): the mover learns the result; an element
    destroyed or immobilised is left where it was hit (the umpire's `mine_hits` lands it)."""
    cm, result, lines = mines.sweep(state, e, path, rng)
    if not lines:
        return []
    # a mine that went off is the mover's to know; squares crossed unharmed tell it nothing
    seen_by = (side,) if result else ()
    out = [Draft("mine_check", {"unit": e.id, "result": result or "no_trip"}, seen_by,
                 tuple(lines))]  # fmt: skip
    if cm is not None:
        at = movement.point_at(step["path"], cm)
        stop = round(e.moved + cm, 3)  # cm along its whole move this turn
        out.append(Draft("mine_hits", {"results": [{"target": e.id, "result": result,
                                                    "at": list(at), "cm": stop}]}, ()))  # fmt: skip
    return out


def _group(state: State, side: str, cmd: dict[str, Any], rng: random.Random) -> list[Draft]:
    p = _platoon(state, side, cmd.get("platoon"))
    order, dx, dy = cmd["order"], float(cmd.get("dx") or 0.0), float(cmd.get("dy") or 0.0)
    members = [state.elements[m] for m in p.members if state.elements[m].active]
    cost = 1
    last = _pips(state, p, cost, "platoon")
    base = {"platoon": p.id, "company": p.company, "cost": cost, "finishes": False, "order": order}
    moves = []
    if order != "defend":
        if dx == 0 and dy == 0:
            raise IllegalCommand("a group move needs dx or dy", "dx")
        # a group move leaves guns where they are: man-handling is a single order (P275)
        movers = [m for m in members if m.kind != "gun" and can_move(state, m) is None]
        if order == "leapfrog":
            movers = movers[::2]  # p7: half the platoon moves, the rest stays
        if not movers:
            raise IllegalCommand(f"no element of {p.name} can move now", "platoon")
        for m in movers:
            path = [(m.x + dx, m.y + dy)]
            if not state.board.on_table(*path[0]):
                raise IllegalCommand(f"{m.name} would leave the table", "dx")
            _check_reach(state, m, path, "dx")
            moves.append(_step(state, m, path, None))
    del last
    mined = [
        d
        for m in moves
        for d in _mined(state, side, state.elements[m["unit"]],
                        [tuple(pt[:2]) for pt in m["path"][1:]], m, rng)
    ]  # fmt: skip
    return [
        Draft("move", base | {"moves": moves}, (side,)),
        *mined,
        Draft("platoon_moved", {"platoon": p.id}, (side,)),
    ]


# ----------------------------------------------------------------------------- automatic
def _compulsory(state: State, by_side: dict[str, list[dict]], rng: random.Random) -> list[Draft]:
    """Retreat and withdrawal moves (withdrawal.py), one event per side (its own to see), and
    the mines they set off: an element a mine stops stays where it was hit."""
    out: list[Draft] = []
    for side, moves in by_side.items():
        mined: list[Draft] = []
        for m in moves:
            el = state.elements[m["unit"]]
            hits = _mined(state, side, el, [tuple(m["path"][-1][:2])], m, rng)
            if any(d.type == "mine_hits" for d in hits):
                m.pop("exited", None)  # stopped on the way: neither off the table nor taken
                m.pop("surrendered", None)
            mined += hits
        lines = tuple(m.pop("note") for m in moves)
        out += [Draft("retreat_move", {"moves": moves}, (side,), lines), *mined]
    return out


def _first(state: State):
    """Which side moves a platoon first (p6): the lowest troop class on the table; a tie is
    broken by 1D6 each, the lower starting (re-rolled while equal)."""
    low = {}
    for s in state.sides:
        classes = [RANK[e.troop_class] for e in state.side_elements(s) if e.active]
        low[s] = min(classes, default=9)
    a, b = state.sides
    if low[a] != low[b]:
        first = a if low[a] < low[b] else b
        yield Note(f"{first} has the lowest troop class on the table and moves first", "p6")
        return Outcome(first)
    while True:
        ra = yield Roll("1d6", f"{a} moves first on the lower", "p6")
        rb = yield Roll("1d6", f"{b} moves first on the lower", "p6")
        if ra != rb:
            return Outcome(a if ra < rb else b)


def enter(state: State) -> None:
    pass


def _stranded(state: State) -> list[Draft]:
    """A platoon the queue counted when the phase began but with nothing left on the table (its
    last element rode off by an edge on another platoon's vehicle) gives up its turn, free, so
    that the alternation goes on (p6)."""
    q = state.queue
    if q is None or q.done or state.phase_data.get("platoon") is not None:
        return []
    side = q.to_act()
    if not side or _current(state, side):
        return []
    idle = sorted(p.id for p in state.platoons.values() if p.side == side and not p.moved)
    return [Draft("platoon_moved", {"platoon": idle[0]}, (side,))] if idle else []


def automatic(state: State, rng: random.Random) -> list[Draft]:
    if state.phase_data.get("overrun"):
        return overrun.automatic(state, rng)
    if not state.phase_data.get("arrived"):
        return [*arrivals.due(state), Draft("arrivals_done", {}, ())]
    down = rider_alarm.due(state)  # p28: riders fired upon last turn get down (P357)
    if down:
        return down
    first = not state.phase_data.get("retreated")
    by_side = withdrawal.compulsory(state, first)
    if by_side or first:
        return _compulsory(state, by_side, rng) or [Draft("retreat_move", {"moves": []}, ())]
    if state.queue is not None:
        return _stranded(state)
    counts = {
        s: sum(1 for p in state.platoons.values() if p.side == s and movable(state, p))
        for s in state.sides
    }
    if not any(counts.values()):
        return []
    res = sample(_first, state, rng=rng)
    ratio = state.rules.opts.platoon_ratio == "ratio"
    data = {"first": res.result.name, "counts": counts, "ratio": ratio}
    # the platoon counts set the queue (umpire's); the sides learn who moves first and why
    return [
        Draft("movement_order", data, (), tuple(res.lines())),
        Draft("first_to_move", {"side": res.result.name}, None, tuple(res.lines())),
    ]
