"""What one side may know (DESIGN: views). Own units in full; enemy units only while observed;
last-known markers otherwise; own plots only. The umpire sees everything; spectators, during
play, the table and the public log only."""

from __future__ import annotations

import copy
from dataclasses import asdict
from operator import attrgetter
from typing import Any

from ....engine.events import SPECTATOR, UMPIRE
from . import orders_arty
from .sequence import BY_ID, actors
from .state import State, Unit

PUBLIC = (
    "id",
    "side",
    "type",
    "kind",
    "name",
    "x",
    "y",
    "facing",
    "stands",
    "suppressed",
    "tracked",
    "damaged",
    "buttoned",
    "attached_mg",
)


def _kept(cache: dict[int, tuple[Any, Any]], obj: Any, make) -> Any:
    """`make(obj)`, worked out once per live object (keyed by identity, at most 64 kept)."""
    hit = cache.get(id(obj))
    if hit is None or hit[0] is not obj:
        if len(cache) >= 64:
            cache.clear()
        hit = cache[id(obj)] = (obj, make(obj))
    return hit[1]


# per scenario object: its parts that no event changes, as dumped once (read-only: shared by
# every view of that scenario)
_STATIC: dict[int, tuple[Any, dict[str, Any]]] = {}


def _static_parts(sc) -> dict[str, Any]:
    return {
        "sides": [{"id": s.id, "name": s.name, "nation": s.nation} for s in sc.sides],
        "table": sc.table.model_dump(),
        "terrain": [f.model_dump() for f in sc.terrain],
        "objectives": [o.model_dump() for o in sc.objectives],
    }


def _static(sc) -> dict[str, Any]:
    return _kept(_STATIC, sc, _static_parts)


# per options object (frozen, every value a scalar): its dump, copied into each view
_OPTIONS: dict[int, tuple[Any, dict[str, Any]]] = {}


def _options(opts) -> dict[str, Any]:
    return dict(_kept(_OPTIONS, opts, lambda o: o.model_dump()))


_PUBLIC = attrgetter(*PUBLIC)


def public_unit(u: Unit) -> dict[str, Any]:
    return dict(zip(PUBLIC, _PUBLIC(u), strict=True))


def view(game, state: State, side: str) -> dict[str, Any]:
    sc = game.scenario(state)
    umpire = side == UMPIRE
    spectator = side == SPECTATOR
    if umpire:
        own = [u.to_dict() for u in state.units.values() if u.reinforcement_turn <= state.turn]
        enemies: list[dict[str, Any]] = []
        last: list[dict[str, Any]] = []
        missions = [asdict(m) for m in state.missions.values()]
        artillery = None
    elif spectator:
        # no pieces while the game is live: even one the enemy observes would tell its owner,
        # watching as a spectator, that it is observed (engine/spectate.py serves the full
        # game once it is over, or N turns behind as an option)
        own, enemies, last, missions = [], [], [], []
        artillery = None
    else:
        own = [
            u.to_dict()
            for u in state.units.values()
            if u.side == side and u.reinforcement_turn <= state.turn
        ]
        enemies = [public_unit(state.units[i]) for i in state.seen.get(side, [])]
        seen = set(state.seen.get(side, []))
        last = [
            {"id": uid, **mark}
            for uid, mark in state.last_known.get(side, {}).items()
            if uid not in seen and state.units[uid].alive
        ]
        missions = [asdict(m) for m in state.missions.values() if m.side == side]
        artillery = _artillery(game, state, side)
    p = BY_ID.get(state.phase)
    # the envelope (engine/envelope.py) and the quickref section; side_a, initiative_winner
    # and missions stay at the top too while faces and bots still read them there
    section = {
        "side_a": state.side_a,
        "initiative_winner": state.initiative_winner,
        "missions": missions,
        "artillery": artillery,
    }
    return {
        "ruleset": "quickref",
        "you": side,
        "turn": state.turn,
        "turn_limit": sc.victory.turn_limit,
        "phase": state.phase,
        "phase_title": p.title if p else state.phase,
        "side_a": state.side_a,
        "initiative_winner": state.initiative_winner,
        "active": actors(state) if state.result is None else [],
        **_static(sc),
        "units": own,
        "enemies": enemies,
        "last_known": last,
        "missions": missions,
        "legal": game.legal_commands(state, side) if not (umpire or spectator) else [],
        "result": copy.deepcopy(state.result),
        "options": _options(game.rules.opts),
        "prompt": None,
        "quickref": section,
    }


def _artillery(game, state: State, side: str) -> dict[str, Any]:
    """The side's batteries with the missions each has left, and, in the plot step, which of its
    units may call for fire now (sheet L4): what the page needs to offer a call for fire."""
    sc = game.scenario(state)
    out = []
    for a in sc.artillery:
        if a.side != side:
            continue
        used = sum(1 for m in state.missions.values() if m.side == side and m.battery == a.battery)
        rec = game.rules.cat.get("artillery", a.battery)
        left = None if a.missions is None else max(0, a.missions - used)
        out.append({"battery": a.battery, "name": getattr(rec, "name", a.battery), "left": left})
    plot = state.phase == "arty_plot" and side in actors(state)
    callers = orders_arty.observers(game.rules, state, side) if plot and out else []
    return {"batteries": out, "observers": callers}
