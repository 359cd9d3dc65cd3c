"""Close quarter combat, the last step of phase G (pp. 17-19): the melees and their combats
(melee_groups.py) are all rolled at once with the rules core (rules/cqc.py), each side's
teams summed; losses are simultaneous and fall on the elements of the combat, nearest the
enemy first (P282). Every platoon that fought then tests morale (p19), through the same queue
as fire losses (orders_fire.py). Touching an enemy base reveals it: each element spots the
enemies of its combat (P281), a passenger's vehicle standing for it. An open AFV whose crew
(one team, p17) falls is abandoned (P308), its passengers getting down; passengers who fall
leave their vehicle. A base that was disengaging steps back out of contact (disengage.py,
P309). A Retreat that would make a base of a combat surrender waits until both sides have
tested (cqc_morale.py, p19)."""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import exact, sample
from ....engine.events import Draft, Event
from ..rules import cqc
from . import cqc_morale, crew_fire, disengage, melee_groups
from .melee_contact import body, moved
from .state import State


def _fold_done(state: State, d: dict, e: Event) -> None:
    state.phase_data["cqc_done"] = True
    disengage.done(state)


def _fold_melee(state: State, d: dict, e: Event) -> None:
    from .orders_fire import land

    ids = [i for _, members in d["sides"] for i in members]
    for i in ids:  # each sees the enemies it fought (P281); a passenger is its vehicle
        me = body(state, state.elements[i])
        for j in ids:
            them = body(state, state.elements[j])
            if them.side != me.side and them.on_table:
                state.spotted.setdefault(me.id, {})[them.id] = them.feature
    land(state, d["results"])
    cqc_morale.record(state, d["sides"])  # its morale: both sides judged at once (p19)
    for i in ids:
        e = state.elements[i]
        if e.lost and e.transport and i in state.elements[e.transport].carrying:
            state.elements[e.transport].carrying.remove(i)  # a passenger fallen in CQC (p19)
        if e.kind == "afv" and e.lost:  # crew lost: the passengers get down (P308, P351)
            crew_fire.get_down(state, e)
    disengage.step_back(state, d.get("steps") or [])
    beaten = d.get("beaten")  # the side that lost more teams than it inflicted
    if beaten:
        state.phase_data.setdefault("lost_cqc", []).extend(
            sorted({state.elements[i].platoon for s, m in d["sides"] if s == beaten for i in m})
        )
    pending = state.phase_data.setdefault("morale", [])
    for pid in sorted({state.elements[i].platoon for i in ids}):  # both sides test (p19)
        if not any(q[0] == pid for q in pending):
            pending.append([pid, 0])


def _noted(state: State, d: dict, e: Event) -> None:
    pass  # each side's notice of a combat folded by "melee"


FOLDS = {"melees_done": _fold_done, "melee": _fold_melee, "melee_fought": _noted}


def _casualties(state: State, ids: tuple[str, ...], enemy: tuple[str, ...], n: int) -> list[str]:
    """The `n` elements of a combat's side that fall (a team each): nearest the enemy first
    (P282; the book lets the owner choose, p14)."""

    def gap(i: str) -> tuple[float, str]:
        e = state.elements[i]
        d = min(math.dist((e.x, e.y), (state.elements[j].x, state.elements[j].y)) for j in enemy)
        return d, i

    return sorted(ids, key=gap)[:n]


def _loss(state: State, i: str) -> str:
    """The result of one team lost by element `i`: an open AFV's crew is its one team (p17),
    and the AFV is abandoned with it (P308)."""
    return "crew_lost" if state.elements[i].kind == "afv" else "lost_1"


def _roles(state: State, combat: melee_groups.Combat) -> tuple[tuple, tuple]:
    """(attacker, defender) as (side, element ids): the side with more elements that charged
    in this turn attacks, else the first (P280); losses are simultaneous either way."""
    (s1, ids1), (s2, ids2) = combat.sides
    charged = {s: sum(moved(state, state.elements[i]) for i in ids) for s, ids in combat.sides}
    return ((s2, ids2), (s1, ids1)) if charged[s2] > charged[s1] else ((s1, ids1), (s2, ids2))


def sides(state: State, combat: melee_groups.Combat) -> tuple[cqc.Side, cqc.Side]:
    """The attacker's and the defender's CQC sides: each side's teams summed (p18 step 3),
    with its variables (alike, or its worst when the melee could not be split, p18 step 2)."""
    return tuple(  # type: ignore[return-value]
        cqc.worst(state.rules, [melee_groups.side_of(state, state.elements[i]) for i in ids])
        for _, ids in _roles(state, combat)
    )


def odds(state: State, combat: melee_groups.Combat):
    """The exact distribution of a combat's losses (defender's, attacker's)."""
    return exact(cqc.cqc, state.rules, *sides(state, combat))


def resolve(state: State, combat: melee_groups.Combat, rng: random.Random) -> list[Draft]:
    """One combat rolled: the umpire's record and each side's notice."""
    (attacker, a_ids), (defender, _) = _roles(state, combat)
    res = sample(cqc.cqc, state.rules, *sides(state, combat), rng=rng)
    lost = {attacker: res.result.get("attacker_lost", 0),  # teams each side loses
            defender: res.result.get("defender_lost", 0)}  # fmt: skip
    ids = dict(combat.sides)
    falls = {s: set(_casualties(state, ids[s], ids[state.enemy(s)], lost[s])) for s in ids}
    results: list[dict[str, Any]] = [
        {"target": i, "result": _loss(state, i) if i in falls[s] else "lost_0"}
        for s, members in combat.sides
        for i in members
    ]
    why = (("this melee could not be split into combats of like variables: each side fights "
            "with its worst variables (p18)",) if combat.worst else ())  # fmt: skip
    guessed = sorted({state.elements[i].name for _, m in combat.sides for i in m
                      if melee_groups.team_of(state, state.elements[i])[1]})  # fmt: skip
    lines = (
        why
        + tuple(res.lines())
        + tuple(f"placeholder used: {p}" for p in sorted(res.placeholders))
        + tuple(
            f"placeholder used: {n} fights with CQC factor {melee_groups.LOST_CQC}, its "
            "own was lost (p18, P280)"
            for n in guessed
        )  # fmt: skip
    )
    fallen = {r["target"] for r in results if r["result"] != "lost_0"}
    steps, moves = disengage.steps(state, combat, fallen)
    lines += tuple(moves) + tuple(
        f"{state.elements[i].name}: the crew of this open AFV is lost and it is abandoned "
        "(p17: an AFV crew is one team; p19, Q&A 9 p111)"
        for i in sorted(fallen) if state.elements[i].kind == "afv"
    )  # fmt: skip
    beaten = next((s for s in ids if lost[s] > lost[state.enemy(s)]), None)
    data = {"sides": [[s, list(m)] for s, m in combat.sides], "attacker": attacker,
            "worst": combat.worst, "results": results, "beaten": beaten,
            "steps": steps}  # fmt: skip
    out = [Draft("melee", data, (), lines)]
    for side, mine in combat.sides:
        theirs = ids[state.enemy(side)]
        notice = {
            "units": list(mine),
            "enemies": [state.aliases.alias(side, j) for j in theirs],
            "lost": sorted(falls[side]),
            "teams_lost": lost[side],
            "inflicted": lost[state.enemy(side)],
            "charged": side == attacker and any(moved(state, state.elements[i]) for i in a_ids),
        }
        out.append(Draft("melee_fought", notice, (side,), lines))
    return out


def automatic(state: State, rng: random.Random) -> list[Draft]:
    """Every combat of every melee at once (p18 step 6: simultaneous), then done."""
    if state.phase_data.get("cqc_done"):
        return []
    out: list[Draft] = []
    for combat in melee_groups.combats(state):
        out += resolve(state, combat, rng)
    return out + [Draft("melees_done", {}, None)]
