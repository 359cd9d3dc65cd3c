"""Who sees whom: the quickref sheet has no spotting rules, so these are decisions (Q31-Q33).

- A unit in the open is seen by any enemy unit with line of sight (terrain with LOS "YES"
  blocks sight through it; hills block by height).
- A unit in concealing terrain (a feature whose LOS column is YES, or foxholes), or a scenario
  `hidden` unit that has not yet been revealed, is seen only by an enemy within `SPOT_RANGE`
  inches with line of sight.
- A unit that fires or assaults is revealed to the enemy for the rest of the turn and the next.
"""

from __future__ import annotations

import math

from .board import Board
from .state import State, Unit

SPOT_RANGE = 10.0  # inches (decision Q32)
EYE = {"vehicle": 1.0, "infantry": 0.5}


def distance(a: Unit, b: Unit) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def concealed(board: Board, u: Unit) -> bool:
    if u.hidden:
        return True
    for f in board.features_at(u.x, u.y):
        if f.row in ("foxholes", "bunkers") or (f.row and board.terrain(f.row).blocks_los):
            return True
    return False


def revealed(state: State, u: Unit) -> bool:
    return u.fired_turn > 0 and u.fired_turn >= state.turn - 1


def sees(board: Board, state: State, observer: Unit, target: Unit) -> bool:
    if not (observer.alive and target.alive) or observer.transport:
        return False
    if not board.los(observer.pos, target.pos, EYE[observer.kind]):
        return False
    if revealed(state, target):
        return True
    if concealed(board, target):
        return distance(observer, target) <= SPOT_RANGE
    return True


def seen_by(board: Board, state: State, side: str, only: Unit | None = None) -> set[str]:
    """Enemy unit ids that `side` observes now (`sees` for every pair, with each target's
    own facts worked out once); with `only`, just whether that one enemy is observed."""
    mine = [(u.pos, EYE[u.kind]) for u in state.alive(side) if not u.transport]
    out = set()
    for t in [only] if only is not None else state.alive(state.enemy(side)):
        if t.transport or not t.alive:
            continue
        reach = math.inf if revealed(state, t) or not concealed(board, t) else SPOT_RANGE
        if any(
            math.hypot(at[0] - t.x, at[1] - t.y) <= reach and board.los(at, t.pos, eye)
            for at, eye in mine
        ):
            out.add(t.id)
    return out


def _mark(state: State, side: str, u: Unit) -> None:
    state.last_known.setdefault(side, {})[u.id] = {
        "x": u.x,
        "y": u.y,
        "facing": u.facing,
        "turn": state.turn,
        "type": u.type,
        "name": u.name,
        "kind": u.kind,
    }


def refresh(board: Board, state: State) -> None:
    """Recompute what each side sees and update its last-known markers."""
    for side in state.sides:
        seen = sorted(seen_by(board, state, side))  # marks kept in a fixed order
        for uid in seen:
            _mark(state, side, state.units[uid])
        known = state.last_known.setdefault(side, {})
        for uid in list(known):
            if not state.units[uid].alive:
                known.pop(uid)
        state.seen[side] = seen


def refresh_after_move(board: Board, state: State, mover: Unit) -> None:
    """`refresh` after one unit moved: its own side looks again from scratch, the other side
    only at the mover (nothing else it sees has changed: positions, cover, the revealed and
    hidden flags and the turn of the last full refresh are as they were)."""
    side, other = mover.side, state.enemy(mover.side)
    seen = sorted(seen_by(board, state, side))  # marks kept in a fixed order
    for uid in seen:
        _mark(state, side, state.units[uid])
    state.seen[side] = seen
    watched = set(state.seen.get(other, [])) - {mover.id}
    if seen_by(board, state, other, only=mover):
        watched.add(mover.id)
        _mark(state, other, mover)
    state.seen[other] = sorted(watched)
