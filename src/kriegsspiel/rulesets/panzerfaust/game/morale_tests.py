"""Morale tests the game triggers (pp. 23-24, errata Q10: at once, when the situation that
caused them is complete): a platoon that lost elements tests; a Shaken or Retreat result makes
its company HQ test as soon as every platoon test of the same event is done (p23 step 6), the
HQ's result standing for every platoon not already worse; a pinned element tests before it
moves or fires (p17). The game builds each test's variations from the state (decision P274).
A base of this phase's close combat that a Retreat would make surrender is held instead, until
every test the combat brought on is taken; then cqc_morale.py judges both sides at once (p19:
both sides' Retreat is reduced to disengaging; P335-P337)."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from ....chance import Note, Outcome, Roll, sample
from ....engine.events import Draft, Event
from ..rules import morale
from . import withdrawal
from .state import Element, Platoon, State

SURRENDER = withdrawal.SURRENDER  # cm: a unit that must retreat this near the enemy surrenders
FIGHTS = "cqc_fights"  # phase_data: the sides of each combat fought this phase (melee.py)
HELD = "cqc_retreats"  # phase_data: bases of those combats whose surrender waits (P336)


def gone(state: State, eid: str) -> bool:
    """Whether element `eid` counts as lost for a test: lost, or held to surrender after close
    combat (it is retreating either way: p23's "destroyed or retreating")."""
    return state.elements[eid].lost or eid in state.phase_data.get(HELD, ())


def _afv_platoon(state: State, p: Platoon) -> morale.Test:
    """An AFV platoon tests with its AFVs as sub-units (p23 example): -2 for each destroyed or
    disabled (hull or gun damage) since its last regroup (p24), -1 for each Shaken; an AFV
    left alone tests as itself, -6 if it is damaged (decision P274); -2 while an AFV of it
    goes on with its head-up commander killed (p17, p23; P344)."""
    members = [state.elements[m] for m in p.members if m not in p.written_off]
    alive = [m for m in members if not m.lost]
    damaged = [m for m in alive if m.has("hull_damaged") or m.has("gun_damaged")]
    alone = len(alive) == 1
    return morale.Test(
        rating=p.morale,  # type: ignore[arg-type]
        subunits_lost=sum(1 for m in members if m.lost) + (0 if alone else len(damaged)),
        subunits_shaken=sum(1 for m in alive if m.has("shaken")),
        afv=True,
        afv_damaged=alone and bool(damaged),
        commander_killed=any(m.has("commander_killed") for m in alive),
        hq_lost=p.hq is not None and state.elements[p.hq].lost,
    )


def platoon_test(state: State, p: Platoon, lost: int) -> morale.Test:
    """The platoon's test after `lost` of its elements were lost (p23). Other platoons than
    AFV ones take -3 for each team lost now (the game has no squads: decision P274)."""
    alive = [state.elements[m] for m in p.members if not state.elements[m].lost]
    if alive and all(m.kind == "afv" for m in alive):
        return _afv_platoon(state, p)
    return morale.Test(
        rating=p.morale,  # type: ignore[arg-type]
        teams_lost=lost,
        hq_lost=p.hq is not None and gone(state, p.hq),
        # it lost its melee this turn (p23, P282)
        pinned_or_lost_cqc=p.id in state.phase_data.get("lost_cqc", ()),
    )


def company_test(state: State, cid: str) -> morale.Test:
    """The company HQ's test (p23 steps 6-7), once its platoons' tests of the same event are
    done: -1 for each Shaken platoon, -2 for each Retreating or destroyed one (its sub-units:
    the platoons, not their teams); an ad-hoc company of AFV and other platoons tests as
    non-AFV (p23)."""
    c = state.companies[cid]
    plts = [state.platoons[pid] for pid in c.platoons]
    alive = [state.elements[m] for p in plts for m in p.members if not gone(state, m)]
    out = [p for p in plts if p.status == "retreat"
           or not any(state.elements[m].on_table for m in p.members)]  # fmt: skip
    return morale.Test(
        rating=c.morale,  # type: ignore[arg-type]
        subunits_shaken=sum(1 for p in plts if p.status == "shaken" and p not in out),
        subunits_lost=len(out),
        afv=bool(alive) and all(m.kind == "afv" for m in alive),
        hq_lost=c.hq is not None and gone(state, c.hq),
    )


def shaken_turns(rating: str):
    """How long a Shaken result lasts (p24): 1D6 turns, elite re-roll 5-6, poor re-roll 1-2."""
    reroll = {"elite": frozenset({5, 6}), "poor": frozenset({1, 2})}.get(rating, frozenset())
    turns = yield Roll("1d6", "shaken turns", "p24", reroll=reroll)
    yield Note(f"shaken for {turns} turn(s)", "p24")
    return Outcome(f"turns_{turns}")


def break_pin(rules: Any, e: Element):
    """A pinned element's morale test before it acts (p17, rules/morale.py `break_pin`)."""
    return (
        yield from morale.break_pin(
            rules,
            morale.Test(rating=e.morale, dug_in=e.has("dug_in")),  # type: ignore[arg-type]
        )
    )


def surrenders(state: State, e: Element) -> bool:
    """A retreating element within 20 cm of an enemy element its side observes surrenders
    (p24; fog of war, decision P272)."""
    return any(
        math.dist((e.x, e.y), (o.x, o.y)) <= SURRENDER for o in withdrawal.threats(state, e.side)
    )


# ------------------------------------------------------------------ the queue of tests
# A fold that inflicts losses appends [platoon, lost] to state.phase_data["morale"]; the game
# (rules.py) takes the tests one by one before anything else happens (errata Q10). A platoon's
# Shaken or Retreat puts its company on state.phase_data["company_tests"]: the company HQ
# tests once every platoon test then due is done (p23 step 6), once however many failed.


def testing(state: State) -> bool:
    """Whether a morale test, or a surrender for losses from near, is due now."""
    return bool(
        state.phase_data.get("morale")
        or state.phase_data.get("company_tests")
        or state.phase_data.get("surrender_due")
    )


def pending(state: State) -> bool:
    """Whether a morale test is due now, or the close combat's outcome that waits for them
    (cqc_morale.py): nothing else happens until it is taken."""
    return testing(state) or bool(held(state))


def held(state: State) -> list[str]:
    """The bases whose surrender after close combat waits, still on the table (P336)."""
    return [i for i in state.phase_data.get(HELD, ()) if state.elements[i].active]


def fought(state: State) -> set[str]:
    """The elements of the close combats fought this phase (melee.py records them)."""
    return {i for sides in state.phase_data.get(FIGHTS, ()) for _, ids in sides for i in ids}


def _held(state: State, pids: list[str], result: str) -> list[str]:
    """The bases of this phase's close combats a Retreat result for `pids` would make surrender
    (p24; p19: in CQC a Retreat surrenders): their surrender waits until both sides of their
    combat have tested (p19: both sides' Retreat is reduced to disengaging; P336)."""
    if result != "retreat":
        return []
    mine = fought(state)
    return [
        m.id
        for p in pids
        for m in (state.elements[x] for x in state.platoons[p].members)
        if m.active and m.id in mine and surrenders(state, m)
    ]


def _status(state: State, pid: str, result: str, turns: int, held=()) -> None:
    """A morale result stands for a platoon unless it already did worse (p23). A base in
    `held` that would surrender waits for the close combat's outcome (cqc_morale.py)."""
    pl = state.platoons[pid]
    if result == "ok" or morale.WORSE[result] < morale.WORSE.get(pl.status, 0):
        return
    pl.status = result
    for m in (state.elements[x] for x in pl.members):
        if not m.active:
            continue
        if result == "shaken":
            m.counters["shaken"] = max(m.counters.get("shaken", 0), turns)
        else:
            m.counters.pop("shaken", None)
            m.counters["retreat"] = 1
            if surrenders(state, m):
                if m.id not in held:
                    m.lost = True
                elif m.id not in state.phase_data.setdefault(HELD, []):
                    state.phase_data[HELD].append(m.id)
            elif state.phase == "G" and m.moved > 0 and len(m.path) > 1:
                # its move, being backtracked, turns into a retreat (p24 notes, P312)
                due = state.phase_data.setdefault("fire_retreats", [])
                if m.id not in due:
                    due.append(m.id)


def _fold(state: State, d: dict, e: Event) -> None:
    turns = d.get("turns", 1)
    if "company" in d:
        queue = state.phase_data.get("company_tests", [])
        queue[:] = [c for c in queue if c != d["company"]]
        c = state.companies[d["company"]]
        if morale.WORSE[d["result"]] >= morale.WORSE.get(c.status, 0):
            c.status = d["result"]
        for pid in c.platoons:
            _status(state, pid, d["result"], turns, d.get("held", ()))
        return
    tests = state.phase_data.get("morale", [])
    tests[:] = [q for q in tests if q[0] != d["platoon"]]
    p = state.platoons[d["platoon"]]
    _status(state, p.id, d["result"], turns, d.get("held", ()))
    if d.get("company_result"):  # a log from before the company tested apart (P274)
        _fold(state, {"company": p.company, "result": d["company_result"], "turns": turns}, e)
        return
    if d["result"] != "ok":
        queue = state.phase_data.setdefault("company_tests", [])
        if p.company not in queue:
            queue.append(p.company)


FOLDS = {"morale": _fold}


def _roll(state: State, test: morale.Test, rng: random.Random) -> tuple[str, int, list[str]]:
    res = sample(morale.morale, state.rules, test, rng=rng)
    lines = list(res.lines())
    turns = 1
    if res.result.name == "shaken":
        more = sample(shaken_turns, test.rating, rng=rng)
        turns = int(more.result.name.split("_")[1])
        lines += more.lines()
    return res.result.name, turns, lines


def _surrendering(state: State, pids: list[str], result: str, held: list[str]) -> list[str]:
    """The log lines of the elements a Retreat result makes surrender at once (p24), or, for a
    base of this phase's close combat (`held`), once both sides have tested (p19)."""
    if result != "retreat":
        return []
    return [
        f"{m.name} would surrender (an enemy it observes is within 20 cm, p24); in close "
        "combat that waits until both sides have tested (p19)"
        if m.id in held
        else f"{m.name} surrenders: an enemy it observes is within 20 cm (p24)"
        for p in pids
        if morale.WORSE.get(state.platoons[p].status, 0) < morale.WORSE["retreat"]
        for m in (state.elements[x] for x in state.platoons[p].members)
        if m.active and surrenders(state, m)
    ]


def _hold(data: dict[str, Any], held: list[str]) -> dict[str, Any]:
    """The test's event data naming the bases whose surrender waits (P336), if any."""
    return data | {"held": held} if held else data


def automatic(state: State, rng: random.Random) -> list[Draft]:
    """The next morale test due, if any: a surrender for losses from near first (p24), then
    every platoon test, then company tests."""
    gone = withdrawal.surrender_due(state)
    if gone:
        return gone
    queue = state.phase_data.get("morale")
    if queue:
        pid, lost, *more = queue[0]
        p = state.platoons[pid]
        test = platoon_test(state, p, lost)
        why = "(p23)"
        if more and more[0].get("flame"):  # a flame attack reached it (p23, P311)
            test = replace(test, flame_or_air=True)
            why = "after a flame attack (p23: even with no loss; -2 under flame attack)"
        result, turns, lines = _roll(state, test, rng)
        data: dict[str, Any] = {"platoon": pid, "result": result}
        if result == "shaken":
            data["turns"] = turns
        if result != "ok":
            lines.append(f"a {result} platoon: its company HQ tests once its platoons have (p23)")
        held = _held(state, [pid], result)
        lines += _surrendering(state, [pid], result, held)
        data = _hold(data, held)
        return [Draft("morale", data, (p.side,), (f"{p.name} tests morale {why}", *lines))]
    companies = state.phase_data.get("company_tests")
    if companies:
        c = state.companies[companies[0]]
        result, turns, lines = _roll(state, company_test(state, c.id), rng)
        data = {"company": c.id, "result": result}
        if result == "shaken":
            data["turns"] = turns
        if result != "ok":
            lines.append(f"the HQ's {result} stands for every platoon not already worse (p23)")
        held = _held(state, list(c.platoons), result)
        lines += _surrendering(state, list(c.platoons), result, held)
        data = _hold(data, held)
        return [Draft("morale", data, (c.side,), (f"{c.name} HQ tests morale (p23)", *lines))]
    return []


def new_turn(state: State) -> None:
    """A Shaken result wears off when its turns have run (p24): a platoon, or company, none of
    whose elements still carries the Shaken counter is steady again."""
    for p in state.platoons.values():
        if p.status == "shaken" and not any(state.elements[m].has("shaken") for m in p.members):
            p.status = "ok"
    for c in state.companies.values():
        if c.status == "shaken" and all(state.platoons[p].status == "ok" for p in c.platoons):
            c.status = "ok"
