"""Regrouping (p24): platoons of one company that have lost half their strength or more and are
not under poor morale gather within a 10 cm radius and stay there two moves, stationary, not
firing and free from enemy fire; they are then reorganised into as few platoons as their
survivors fill to full strength, and their losses no longer count against their morale tests.

In the game (decision P273): `regroup {platoons}` in phase F, the first named being a platoon
that may move now; it costs no pip and is that platoon's move. The other platoons named must
simply not move when their turn comes. The regroup breaks (logged, with why) as soon as one of
its elements moves, fires, is fired at or pinned, or a platoon falls to poor morale; it
completes at the start of phase F two turns later. The book has no counter for it: the side's
own view lists its regroups (`panzerfaust.regroups`), the enemy is told nothing.
"""

from __future__ import annotations

import math
from typing import Any

import shapely

from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from .state import Element, Platoon, State

RADIUS = 10.0  # cm (p24)
MOVES = 2  # moves stationary (p24)


def strength(p: Platoon) -> int:
    """The platoon's full strength: its elements, less losses a regroup wrote off."""
    return len(p.members) - len(p.written_off)


def _members(state: State, p: Platoon) -> list[Element]:
    return [state.elements[m] for m in p.members if m not in p.written_off]


def why_not(state: State, p: Platoon) -> str | None:
    """Why platoon `p` may not regroup now, or None (p24)."""
    members = _members(state, p)
    alive = [m for m in members if m.active]
    if not alive:
        return f"{p.name} has no element on the table"
    lost = sum(1 for m in members if m.lost)
    if 2 * lost < strength(p):
        return f"{p.name} has lost {lost} of {strength(p)}: less than half (p24)"
    if p.status != "ok" or any(m.has("shaken") or m.has("retreat") for m in alive):
        return f"{p.name} is under poor morale (p24)"
    if any(p.id in g["platoons"] for g in state.regroups.values()):
        return f"{p.name} is regrouping already"
    if any(m.moved > 0 or m.fired for m in alive):
        return f"{p.name} has moved or fired this turn: regrouping units stay still (p24)"
    if any(m.has("pinned") for m in alive):
        return f"{p.name} is pinned: regrouping units must be free from enemy fire (p24)"
    return None


def spread(state: State, plats: list[Platoon]) -> float:
    """The radius of the smallest circle holding every element of these platoons on the table."""
    pts = [(m.x, m.y) for p in plats for m in _members(state, p) if m.active]
    return float(shapely.minimum_bounding_radius(shapely.MultiPoint(pts)))


def check(state: State, side: str, pids: Any) -> list[Platoon]:
    """The platoons of a `regroup` order, or IllegalCommand with the reason."""
    plats: list[Platoon] = []
    for pid in pids:
        p = state.platoons.get(pid) if isinstance(pid, str) else None
        if p is None or p.side != side:
            raise IllegalCommand(f"{pid!r} is not a platoon of yours", "platoons")
        if p in plats:
            raise IllegalCommand(f"{p.name} is named twice", "platoons")
        plats.append(p)
    if len(plats) < 2:
        raise IllegalCommand("a regroup needs two platoons or more (p24)", "platoons")
    if len({p.company for p in plats}) > 1:
        raise IllegalCommand("only platoons of the same company regroup together (p24)",
                             "platoons")  # fmt: skip
    for p in plats:
        why = why_not(state, p)
        if why:
            raise IllegalCommand(why, "platoons")
    r = spread(state, plats)
    if r > RADIUS + 1e-6:
        raise IllegalCommand(f"their elements spread over a {r:.1f} cm radius; a regroup "
                             f"gathers them within {RADIUS:g} cm (p24)", "platoons")  # fmt: skip
    return plats


def templates(state: State, p: Platoon) -> list[dict[str, Any]]:
    """`regroup` orders platoon `p` may give now: with each partner it could regroup with."""
    if why_not(state, p) is not None:
        return []
    out = []
    for q in state.platoons.values():
        if (q.company == p.company and q.id != p.id and why_not(state, q) is None
                and spread(state, [p, q]) <= RADIUS):  # fmt: skip
            out.append({"type": "regroup", "platoons": [p.id, q.id]})
    return out


def draft(state: State, side: str, plats: list[Platoon]) -> Draft:
    at = {m.id: [m.x, m.y] for p in plats for m in _members(state, p) if m.active}
    data = {"id": f"rg-{plats[0].id}-{state.turn}", "side": side, "company": plats[0].company,
            "platoons": [p.id for p in plats], "since": state.turn, "at": at}  # fmt: skip
    names = ", ".join(p.name for p in plats)
    return Draft("regroup", data, (side,), (
        f"{names} begin to regroup: {MOVES} moves stationary, no firing, free from enemy fire "
        "(p24)",))  # fmt: skip


# ------------------------------------------------------------------ under way
def fired_on(state: State, ids: list[str]) -> None:
    """Fire landed on these elements (orders_fire.land): a regroup they are in is broken."""
    if not state.regroups:
        return
    hit = set(ids)
    for g in state.regroups.values():
        if hit & set(g["at"]):
            g["under_fire"] = True


def _broken(state: State, g: dict[str, Any]) -> str | None:
    for pid in g["platoons"]:
        p = state.platoons[pid]
        if p.status != "ok":
            return f"{p.name} fell to poor morale"
    for uid, xy in g["at"].items():
        e = state.elements[uid]
        if g.get("under_fire") or e.has("pinned") or e.lost:
            return f"{e.name} came under enemy fire"
        if not e.active or e.moved > 0 or math.dist((e.x, e.y), xy) > 1e-6:
            return f"{e.name} moved"
        if e.fired:
            return f"{e.name} fired"
        if e.has("shaken") or e.has("retreat"):
            return f"{e.name} fell to poor morale"
    return None


def _merge(state: State, g: dict[str, Any], gid: str) -> dict[str, Any]:
    """The reorganisation (p24): the survivors fill the platoons in the order named, each up to
    its full strength, so they make as few platoons as they can; a platoon takes its own HQ if
    it survives, else another platoon's, and other platoon HQs go last, to lead a later one."""
    plats = [state.platoons[pid] for pid in g["platoons"]]
    pool = [m for p in plats for m in _members(state, p) if m.on_table]
    assign: dict[str, list[str]] = {p.id: [] for p in plats}
    for p in plats:
        if not pool:
            break
        hq = next((m for m in pool if m.id == p.hq), None) or next(
            (m for m in pool if m.hq == "platoon"), None
        )
        rest = [m for m in pool if m is not hq]
        rest.sort(key=lambda m: m.hq == "platoon")  # ordinary elements first (stable)
        take = ([hq] if hq else []) + rest
        take = take[: strength(p)]
        assign[p.id] = [m.id for m in take]
        pool = [m for m in pool if m not in take]
    own = {p.id: p.hq for p in plats}
    hqs = {pid: own[pid] if own[pid] in ids else next(
               (m for m in ids if state.elements[m].hq == "platoon"), None)
           for pid, ids in assign.items()}  # fmt: skip
    return {"id": gid, "members": assign, "hq": hqs}


def _start(state: State, d: dict, e: Event) -> None:
    state.regroups[d["id"]] = {k: d[k] for k in ("side", "company", "platoons", "since", "at")}


def _stop(state: State, d: dict, e: Event) -> None:
    state.regroups.pop(d["id"], None)


def _done(state: State, d: dict, e: Event) -> None:
    g = state.regroups.pop(d["id"])
    plats = [state.platoons[pid] for pid in g["platoons"]]
    lost = {p.id: [m for m in p.members if state.elements[m].lost] for p in plats}
    for p in plats:
        p.members = lost[p.id] + list(d["members"][p.id])
        p.written_off = list(lost[p.id])  # no penalty for these losses any more (p24)
        if d["hq"].get(p.id):
            p.hq = d["hq"][p.id]
        for m in d["members"][p.id]:
            state.elements[m].platoon = p.id


FOLDS = {"regroup": _start, "regroup_broken": _stop, "regrouped": _done}


def automatic(state: State) -> list[Draft]:
    """A regroup broken since the last command, or one complete at the start of phase F."""
    for gid, g in state.regroups.items():
        why = _broken(state, g)
        if why:
            return [Draft("regroup_broken", {"id": gid, "why": why}, (g["side"],),
                          (f"the regroup is broken: {why} (p24)",))]  # fmt: skip
    if state.phase != "F" or state.phase_data.get("arrived"):
        return []
    for gid, g in state.regroups.items():
        if state.turn >= g["since"] + MOVES:
            d = _merge(state, g, gid)
            lines = tuple(
                f"{state.platoons[pid].name}: {len(ids)} element(s), losses written off (p24)"
                for pid, ids in d["members"].items()
            )
            return [Draft("regrouped", d, (g["side"],), lines)]
    return []


def view(state: State, side: str) -> list[dict[str, Any]]:
    """The side's own regroups under way: platoons, the turn begun, moves done of two."""
    return [
        {"id": gid, "platoons": list(g["platoons"]), "since": g["since"],
         "moves": min(state.turn - g["since"] + 1, MOVES), "of": MOVES}
        for gid, g in state.regroups.items() if g["side"] == side
    ]  # fmt: skip
