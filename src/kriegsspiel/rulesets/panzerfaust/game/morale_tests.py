"""Morale tests the game triggers (pp. 23-24, errata Q10: at once, when the situation that
caused them is complete): a platoon that lost elements tests, and a Shaken or Retreat result
makes its company HQ test at once (rules/morale.py `cascade`); a pinned element tests before
it moves or fires (p17). The game builds each test's variations from the state."""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import Note, Outcome, Roll, sample
from ....engine.events import Draft, Event
from ..rules import morale
from .state import Element, Platoon, State

SURRENDER = 20.0  # cm: a unit that must retreat this close to the enemy surrenders (p24)


def _test(state: State, members: list[Element], rating: str, lost: int, hq_lost: bool) -> Any:
    afv = bool(members) and all(m.kind == "afv" for m in members)
    shaken = sum(1 for m in members if m.has("shaken"))
    return morale.Test(
        rating=rating,  # type: ignore[arg-type]
        teams_lost=0 if afv else lost,
        subunits_lost=lost if afv else 0,
        subunits_shaken=shaken,
        afv=afv,
        afv_damaged=any(m.has("hull_damaged") or m.has("gun_damaged") for m in members),
        hq_lost=hq_lost,
    )


def platoon_test(state: State, p: Platoon, lost: int) -> tuple[Any, Any]:
    """(the platoon's test, its company HQ's test) after `lost` elements of it were lost."""
    members = [state.elements[m] for m in p.members]
    hq_lost = p.hq is not None and state.elements[p.hq].lost
    c = state.companies[p.company]
    unit = _test(state, [m for m in members if not m.lost], p.morale, lost, hq_lost)
    company = [state.elements[m] for pid in c.platoons for m in state.platoons[pid].members]
    gone = sum(1 for pid in c.platoons if state.platoons[pid].status != "ok")
    parent = _test(state, [m for m in company if not m.lost], c.morale, 0,
                   c.hq is not None and state.elements[c.hq].lost)  # fmt: skip
    parent = morale.Test(**{**parent.__dict__, "subunits_lost": gone})
    return unit, parent


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
    """A retreating element within 20 cm of an enemy element surrenders (p24)."""
    return any(
        math.dist((e.x, e.y), (o.x, o.y)) <= SURRENDER
        for o in state.elements.values()
        if o.side != e.side and o.active
    )


# ------------------------------------------------------------------ the queue of tests
# A fold that inflicts losses appends [platoon, lost] to state.phase_data["morale"]; the
# game (rules.py) takes the tests one by one before anything else happens (errata Q10).


def _status(state: State, pid: str, result: str, turns: int) -> None:
    """A morale result stands for a platoon unless it already did worse (p23)."""
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
            m.counters["retreat"] = 1
            if surrenders(state, m):
                m.lost = True


def _fold(state: State, d: dict, e: Event) -> None:
    pending = state.phase_data.get("morale", [])
    pending[:] = [q for q in pending if q[0] != d["platoon"]]
    p = state.platoons[d["platoon"]]
    turns = d.get("turns", 1)
    _status(state, p.id, d["result"], turns)
    company = d.get("company_result")
    if company:
        state.companies[p.company].status = company
        for pid in state.companies[p.company].platoons:
            _status(state, pid, company, turns)


FOLDS = {"morale": _fold}


def automatic(state: State, rng: random.Random) -> list[Draft]:
    """The next morale test due, if any."""
    pending = state.phase_data.get("morale")
    if not pending:
        return []
    pid, lost = pending[0]
    p = state.platoons[pid]
    unit, parent = platoon_test(state, p, lost)
    res = sample(morale.cascade, state.rules, unit, parent, rng=rng)
    parts = res.result.name.split("_")  # platoon_<r> or platoon_<r>_company_<r>
    result = parts[1]
    company = parts[3] if len(parts) > 3 else None
    lines = list(res.lines())
    data: dict[str, Any] = {"platoon": pid, "result": result, "company_result": company}
    if "shaken" in (result, company):
        more = sample(shaken_turns, p.morale, rng=rng)
        data["turns"] = int(more.result.name.split("_")[1])
        lines += more.lines()
    return [Draft("morale", data, (p.side,), tuple(lines))]
