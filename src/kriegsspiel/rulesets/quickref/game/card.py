"""What a player reads about a unit and the table (issue 15 item 9), from its side's knowledge.

- `unit_card`: the unit's chart data (gun bands with to-hit and penetration, armour, speed,
  SA, special notes, sheet L1-L7) and its state with a short reminder of what each state means
  for play. An enemy's card exists only while the side observes it, and tells only what the
  side sees (`view.PUBLIC` flags); an own unit's card tells everything.
- `sight_check`: may this own unit see a point of the table? Terrain and the unit alone
  answer it (decisions Q31-Q33): enemy pieces are never consulted.
"""

from __future__ import annotations

import math
from typing import Any

from ....engine.commands import IllegalCommand
from ..models import Gun, Infantry, Vehicle
from ..tables import Rules
from .board import Board
from .sight import EYE, SPOT_RANGE, concealing
from .state import State, Unit
from .units import allowance, record, unit_sa
from .view import PUBLIC

# a state flag -> what it means at the table (the project's own words; sheet page)
REMINDERS = {
    "suppressed": "Suppressed: its small-arms strength drops, it may not call fire or use an "
    "AT weapon, and it may only move away from the enemy; it recovers when the next turn "
    "starts (L2).",
    "damaged": "Damaged: moves at three quarters of its speed (L2).",
    "tracked": "Tracked: cannot move (L2).",
    "buttoned": "Buttoned up: its shots take the buttoned-up to-hit penalty (+1), and "
    "infantry assault it at -5 rather than -4 (L1, L7).",
    "removed": "Out of action: removed from play.",
    "fired": "Has fired this turn: one attack a turn; firing reveals it to the enemy for "
    "this turn and the next (Q33).",
    "moved_half": "Moved up to half its move: its shots take the movement penalty (L1).",
    "moved_over_half": "Moved over half its move: its shots take the larger movement "
    "penalty, or it may not fire at all, as the game's option says (L1).",
    "hidden": "Hidden: the enemy has not found it yet; it is revealed when it fires (Q33).",
    "transport": "Carried: rides in a vehicle and neither sees nor is seen (Q40).",
}


def _gun(g: Gun, unit: str) -> dict[str, Any]:
    names = ("short", "long") if len(g.range) == 2 else ("range",)
    bands = []
    for i, name in enumerate(names):
        bands.append(
            {
                "band": name,
                "up_to": g.range[i],
                "to_hit": g.to_hit[i] if g.to_hit else None,
                "pen": g.pen[i] if g.pen else None,
            }
        )
    return {"bands": bands, "he": g.he, "unit": unit}


def _data(rules: Rules, u: Unit) -> dict[str, Any]:
    rec = record(rules, u)
    out: dict[str, Any] = {"record": rec.id, "record_name": rec.name}
    if isinstance(rec, Vehicle):
        out["category"] = rec.category.replace("_", " ")
        if rec.gun is not None:
            out["gun"] = _gun(rec.gun, "inch")
        out["alt_guns"] = {k: _gun(g, "inch") for k, g in rec.alt_guns.items()}
        if rec.armour is not None:
            out["armour"] = {"front": rec.armour.front, "side": rec.armour.side}
        out["speed"] = rec.speed
        out["sa"] = rec.mg
        notes = []
        if rec.open_topped:
            notes.append("open-topped: infantry assault it with an unmodified roll (L7)")
        if rec.wheeled:
            notes.append("wheeled: takes the wheeled road bonus (L2)")
        if rec.flame:
            notes.append(f"flamethrower, strength {rec.flame} (L2)")
        out["special"] = notes
    else:
        assert isinstance(rec, Infantry)
        out["category"] = rec.kind.replace("_", " ")
        out["sa"] = rec.sa
        out["sa_ranges"] = rec.range
        out["assault"] = rec.assault
        out["speed"] = float(rules.const("infantry-move"))
        notes = []
        if rec.calls_fire:
            notes.append("may call for indirect fire (L4)")
        if rec.mg:
            notes.append(f"{rec.mg.upper()} team (L2)")
        if rec.hmg_at is not None:
            notes.append("HMG: close-range anti-tank attack (L2)")
        if rec.at_weapon:
            notes.append(f"anti-tank weapon: {rec.at_weapon} (L1)")
        out["special"] = notes
    out["source"] = rec.source.model_dump(mode="json")
    out["provenance"] = str(getattr(rec.provenance, "value", rec.provenance))
    if rec.notes:
        out["special"].append(rec.notes)
    return out


def _states(state: State, u: Unit, own: bool) -> list[str]:
    flags = [
        k for k in ("suppressed", "damaged", "tracked", "buttoned", "removed") if getattr(u, k)
    ]
    if own:
        if u.fired_turn == state.turn and u.fired_phase:
            flags.append("fired")
        if u.moved in ("half", "over_half"):
            flags.append(f"moved_{u.moved}")
        if u.hidden:
            flags.append("hidden")
        if u.transport:
            flags.append("transport")
    return flags


def unit_card(rules: Rules, state: State, side: str, unit_id: str) -> dict[str, Any]:
    """The card of an own unit, or of an enemy unit the side observes now; the same refusal
    for an unknown id and an unseen enemy, so the answer tells nothing of hidden pieces."""
    u = state.units.get(unit_id) if isinstance(unit_id, str) else None
    own = u is not None and u.side == side and u.reinforcement_turn <= state.turn
    if u is None or not (own or unit_id in state.seen.get(side, [])):
        raise IllegalCommand(f"no unit {unit_id!r} that {side} knows of", "unit")
    flags = _states(state, u, own)
    card = {
        "unit": u.id,
        "name": u.name,
        "side": u.side,
        "own": own,
        "data": _data(rules, u),
        "state": flags,
        "reminders": [REMINDERS[f] for f in flags],
        "public": {k: getattr(u, k) for k in PUBLIC},
    }
    if own:
        card["now"] = {"move_allowance": allowance(rules, u), "sa": unit_sa(rules, u)}
    return card


def sight_check(
    board: Board, state: State, side: str, unit_id: str, x: float, y: float
) -> dict[str, Any]:
    """Could this own unit see a piece at (x, y)? Line of sight over the terrain from the unit
    at its eye height, and whether a piece there would be concealed (seen only within
    `SPOT_RANGE`); no enemy piece is looked at."""
    u = state.units.get(unit_id) if isinstance(unit_id, str) else None
    if u is None or u.side != side or not u.alive or u.reinforcement_turn > state.turn:
        raise IllegalCommand(f"no unit {unit_id!r} of {side} on the table", "unit")
    if not (math.isfinite(x) and math.isfinite(y)):
        raise IllegalCommand("x and y must be finite numbers", "x")
    if not (0 <= x <= board.width and 0 <= y <= board.depth):
        raise IllegalCommand(f"({x:g}, {y:g}) is off the table", "x")
    dist = math.hypot(x - u.x, y - u.y)
    if u.transport:
        return {
            "sees": False,
            "clear_line": False,
            "distance": round(dist, 1),
            "reason": "it is carried and sees nothing",
        }
    clear = board.los(u.pos, (x, y), EYE[u.kind])
    cover = concealing(board, x, y)
    if not clear:
        reason = "terrain blocks the line of sight"
    elif cover and dist > SPOT_RANGE:
        reason = (
            f"clear line, but a unit in {cover} there is seen only within "
            f'{SPOT_RANGE:g}" (or once it fires)'
        )
    elif cover:
        reason = f'clear line; a unit in {cover} there is within {SPOT_RANGE:g}" and seen'
    else:
        reason = "clear line of sight"
    sees = clear and (cover is None or dist <= SPOT_RANGE)
    return {"sees": sees, "clear_line": clear, "distance": round(dist, 1), "reason": reason}
