"""A Retreat result in the direct fire phase (p24, Morale Test Notes): fire in phase G
backtracks the units it hits to where they were on their move (p6), so a unit that breaks
then does not complete the move it made in phase F: it makes a retreat instead, at once.

Decision P312 (option `fire_phase_retreat`): `instead` (default) puts each element of a
platoon given a Retreat in phase G that moved this turn back where its move began, and walks
its retreat from there (withdrawal.compulsory_move: toward its own edge, or away from an
observed enemy in the way; surrender within 20 cm of one), free of pips, mines swept like any
move; what it had moved is forgotten (the move was never completed), and the enemy's glimpses
of that move go with it. An element that did not move this turn, or one that cannot move,
retreats in the next phase F as before. `next_turn`: every retreat waits for phase F.
Only enemies the side observes steer or stop the move (fog of war, P272)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ....engine.events import Draft, Event
from . import along_move, withdrawal
from .state import State


def _instead(state: State) -> bool:
    return state.rules.opts.fire_phase_retreat == "instead"


def due(state: State, rng: random.Random) -> list[Draft]:
    """The retreats that replace this turn's moves of the elements that broke in phase G."""
    ids = state.phase_data.get("fire_retreats")
    if not ids or state.phase != "G":
        return []
    if not _instead(state):
        return [Draft("fire_retreat", {"moves": []}, ())]
    from .orders_move import _mined

    by_side: dict[str, list[dict[str, Any]]] = {}
    mined: list[Draft] = []
    for uid in ids:
        el = state.elements[uid]
        if not el.active or not el.has("retreat") or len(el.path) < 2:
            continue
        x, y = el.path[0][0], el.path[0][1]
        back = replace(el, x=x, y=y, moved=0.0, path=[], feature=state.board.feature(x, y))
        m = withdrawal.compulsory_move(state, back, "retreat")
        if m is None:
            continue  # it cannot move (immobilised): it stays where fire left it
        m["note"] = (f"{el.name} breaks under fire and does not complete its move (p24 notes, "
                     f"P312); from where its move began: {m['note']}")  # fmt: skip
        hits = _mined(state, el.side, back, [tuple(m["path"][-1][:2])], m, rng)
        if any(d.type == "mine_hits" for d in hits):
            m.pop("exited", None)
            m.pop("surrendered", None)
        mined += hits
        by_side.setdefault(el.side, []).append(m)
    if not by_side:  # nothing can move: the list is cleared
        return [Draft("fire_retreat", {"moves": []}, ())]
    out = []
    for side, moves in by_side.items():
        lines = tuple(m.pop("note") for m in moves)
        out.append(Draft("fire_retreat", {"moves": moves}, (side,), lines))
    return out + mined


def _fold(state: State, d: dict, e: Event) -> None:
    from .orders_move import _looked_at, _place

    state.phase_data.pop("fire_retreats", None)
    for m in d["moves"]:
        el = state.elements[m["unit"]]
        along_move.cut(state, el.id, 0.0)  # the move it had made was never completed
        x, y = el.path[0][0], el.path[0][1]
        el.x, el.y, el.moved, el.path = x, y, 0.0, []
        el.feature = state.board.feature(x, y)
    _looked_at(state, withdrawal.fold(state, d["moves"], _place))


FOLDS = {"fire_retreat": _fold}
