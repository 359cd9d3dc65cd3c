"""Rallying (p24) in phase F: a higher HQ of the same company (the company HQ, or the platoon's
own HQ for a sub-unit), not itself Shaken or retreating, within 5 cm of an element of a Shaken
or Retreating platoon, makes it test morale again; OK restores it. One attempt per platoon a
turn, 1 pip like any single order (decision P154; the book's three tries over three moves are
the same one try a turn)."""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import sample
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ..rules import morale
from .state import State

REACH = 5.0  # cm (p24)


def check(state: State, side: str, hq_id: Any, pid: Any) -> tuple[Any, Any]:
    hq = state.elements.get(hq_id) if isinstance(hq_id, str) else None
    if hq is None or hq.side != side or not hq.active or hq.hq is None:
        raise IllegalCommand(f"{hq_id!r} is not an HQ of yours on the table", "unit")
    p = state.platoons.get(pid) if isinstance(pid, str) else None
    if p is None or p.side != side:
        raise IllegalCommand(f"{pid!r} is not a platoon of yours", "platoon")
    if p.status == "ok":
        raise IllegalCommand(f"{p.name} needs no rallying", "platoon")
    if hq.company != p.company or (hq.hq != "company" and hq.platoon == p.id):
        raise IllegalCommand(f"{hq.name} cannot rally {p.name} (p24: a higher HQ of its company)",
                             "unit")  # fmt: skip
    if hq.has("shaken") or hq.has("retreat"):
        raise IllegalCommand(f"{hq.name} is itself under poor morale (p24)", "unit")
    if state.phase_data.get("rallied", {}).get(p.id):
        raise IllegalCommand(f"{p.name} has had its rally test this turn", "platoon")
    near = any(
        math.dist((hq.x, hq.y), (m.x, m.y)) <= REACH
        for m in (state.elements[x] for x in p.members) if m.active and m.id != hq.id
    )  # fmt: skip
    if not near:
        raise IllegalCommand(f"{hq.name} is not within {REACH:g} cm of {p.name}", "unit")
    return hq, p


def roll(state: State, p: Any, rng: random.Random) -> tuple[str, tuple[str, ...]]:
    res = sample(morale.morale, state.rules, morale.Test(rating=p.morale), rng=rng)  # type: ignore[arg-type]
    return res.result.name, tuple(res.lines())


def fold(state: State, d: dict, e: Event) -> None:
    state.phase_data.setdefault("rallied", {})[d["platoon"]] = True
    if d["result"] != "ok":
        return
    p = state.platoons[d["platoon"]]
    p.status = "ok"
    for m in (state.elements[x] for x in p.members):
        m.counters.pop("shaken", None)
        m.counters.pop("retreat", None)


def draft(state: State, side: str, base: dict, hq: Any, p: Any, rng: random.Random) -> Draft:
    result, lines = roll(state, p, rng)
    return Draft("rally", base | {"unit": hq.id, "platoon": p.id, "result": result}, (side,), lines)
