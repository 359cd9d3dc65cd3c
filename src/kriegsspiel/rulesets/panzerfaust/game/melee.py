"""Close quarter combat, the last step of phase G (pp. 17-19): every infantry element in base
contact with an enemy infantry element fights one melee (rules/cqc.py); the side that moved
in charged. Losses are simultaneous; each side's platoon then tests morale (p19), through the
same queue as fire losses (orders_fire.py)."""

from __future__ import annotations

import math
import random
from typing import Any

from ....chance import sample
from ....engine.events import Draft, Event
from ..rules import cqc, teams
from . import fieldworks
from .movement import CONTACT
from .state import Element, State


def pairs(state: State) -> list[tuple[str, str]]:
    """(attacker, defender) element pairs in contact; each element fights once."""
    inf = [e for e in state.elements.values() if e.active and e.kind == "infantry"]
    out, used = [], set()
    for a in sorted(inf, key=lambda e: (-e.moved, e.id)):
        if a.id in used:
            continue
        for d in sorted(inf, key=lambda e: e.id):
            if (
                d.side != a.side
                and d.id not in used
                and math.dist((a.x, a.y), (d.x, d.y)) <= CONTACT
            ):
                out.append((a.id, d.id))
                used.update((a.id, d.id))
                break
    return out


def _side(state: State, e: Element, charged: bool) -> cqc.Side:
    team = teams.team(state.rules.cat, e.type)
    return cqc.Side(
        ((team, 1),), cover=fieldworks.small_arms_cover(state, e, (e.x, e.y)), charged=charged,  # type: ignore[arg-type]
        pinned=e.has("pinned"), troop_class=e.troop_class,
    )  # fmt: skip


def _fold_done(state: State, d: dict, e: Event) -> None:
    state.phase_data["cqc_done"] = True


def _fold_melee(state: State, d: dict, e: Event) -> None:
    from .orders_fire import land

    state.phase_data.setdefault("fought", []).extend((d["attacker"], d["defender"]))
    land(state, d["results"])


def _noted(state: State, d: dict, e: Event) -> None:
    pass  # each side's notice of a melee folded by "melee"


FOLDS = {"melees_done": _fold_done, "melee": _fold_melee, "melee_fought": _noted}


def automatic(state: State, rng: random.Random) -> list[Draft]:
    if state.phase_data.get("cqc_done"):
        return []
    fought = state.phase_data.get("fought", [])
    for a_id, d_id in pairs(state):
        if a_id in fought or d_id in fought:
            continue
        a, d = state.elements[a_id], state.elements[d_id]
        res = sample(cqc.cqc, state.rules, _side(state, a, a.moved > 0),
                     _side(state, d, d.moved > 0), rng=rng)  # fmt: skip
        lost = {d.id: res.result.get("defender_lost", 0), a.id: res.result.get("attacker_lost", 0)}
        results: list[dict[str, Any]] = [
            {"target": uid, "result": f"lost_{n}"} for uid, n in lost.items()
        ]
        lines = tuple(res.lines())
        out = [Draft("melee", {"attacker": a_id, "defender": d_id, "results": results}, (), lines)]
        for mine, theirs in ((a, d), (d, a)):
            notice = {"unit": mine.id, "enemy": state.aliases.alias(mine.side, theirs.id),
                      "lost": lost[mine.id], "inflicted": lost[theirs.id]}  # fmt: skip
            out.append(Draft("melee_fought", notice, (mine.side,), lines))
        return out
    return [Draft("melees_done", {}, None)]
