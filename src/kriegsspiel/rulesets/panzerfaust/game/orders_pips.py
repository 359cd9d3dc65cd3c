"""Phase B (p7): every company with its HQ on the table rolls 1D6 movement pips, veterans
re-rolling 1-2 and conscripts 5-6 (rules/pips.py). The roll is its owner's to see."""

from __future__ import annotations

import random
from typing import Any

from ....chance import sample
from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from ..rules import pips
from .state import State

COMMANDS: dict[str, Any] = {}


def _fold(state: State, d: dict, e: Event) -> None:
    c = state.companies[d["company"]]
    c.pips, c.spent, c.finished = d["pips"], 0, False
    state.phase_data.setdefault("rolled", []).append(c.id)


FOLDS = {"pips": _fold}


def actors(state: State) -> list[str]:
    return []


def legal(state: State, side: str) -> list[dict[str, Any]]:
    return []


def resolve(state: State, side: str, cmd: dict, rng: random.Random) -> list[Draft]:
    raise IllegalCommand("phase B takes no commands: the pips are rolled for you", "type")


def automatic(state: State, rng: random.Random) -> list[Draft]:
    rolled = state.phase_data.get("rolled", [])
    out = []
    for c in state.companies.values():
        if c.id in rolled or not any(
            state.elements[m].on_table for p in c.platoons for m in state.platoons[p].members
        ):
            continue
        res = sample(pips.movement_pips, state.rules, c.troop_class, rng=rng)
        n = int(res.result.name.split("_")[1])
        out.append(Draft("pips", {"company": c.id, "pips": n}, (c.side,), tuple(res.lines())))
    return out
