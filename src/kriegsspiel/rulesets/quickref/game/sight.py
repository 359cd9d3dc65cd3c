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


def concealing(board: Board, x: float, y: float) -> str | None:
    """The terrain row at a point that conceals a unit there (LOS "YES", foxholes, bunkers)."""
    for f in board.features_at(x, y):
        if f.row in ("foxholes", "bunkers") or (f.row and board.terrain(f.row).blocks_los):
            return f.row
    return None


def concealed(board: Board, u: Unit) -> bool:
    return u.hidden or concealing(board, u.x, u.y) is not None


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


def _witnesses(
    board: Board, state: State, side: str, targets: list[Unit], only_by: Unit | None = None
) -> dict[str, str]:
    """For each of `targets` that `side` observes now, the first own unit that sees it (`sees`
    for every pair, with each target's own facts worked out once); with `only_by`, that unit
    alone looks."""
    if not targets:
        return {}
    looking = [only_by] if only_by is not None else state.alive(side)
    mine = [(u.id, u.pos, EYE[u.kind]) for u in looking if not u.transport]
    out = {}
    for t in targets:
        if t.transport or not t.alive:
            continue
        reach = math.inf if revealed(state, t) or not concealed(board, t) else SPOT_RANGE
        tx, ty = there = t.pos
        for uid, at, eye in mine:
            if math.hypot(at[0] - tx, at[1] - ty) <= reach and board.los(at, there, eye):
                out[t.id] = uid
                break
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
        state.witness[side] = _witnesses(board, state, side, state.alive(state.enemy(side)))
        _look(state, side)
        known = state.last_known.setdefault(side, {})
        for uid in list(known):
            if not state.units[uid].alive:
                known.pop(uid)


def _look(state: State, side: str) -> None:
    """`seen` and the last-known markers of what the side's witnesses show (in id order)."""
    seen = sorted(state.witness[side])
    for uid in seen:
        _mark(state, side, state.units[uid])
    state.seen[side] = seen


def refresh_after_move(board: Board, state: State, mover: Unit) -> None:
    """`refresh` after one unit moved. Nothing else that sight depends on has changed since
    the last look (positions, cover, the revealed and hidden flags, the turn), so an enemy
    seen by an own unit other than the mover, still standing, is still seen, and one that no
    own unit saw can only have come into the mover's sight: its own side looks again with
    every unit only at the enemies the mover was witness to, the other side only at the
    mover."""
    side, other = mover.side, state.enemy(mover.side)
    old = state.witness.get(side, {})
    kept, again, unseen = {}, [], []
    for t in state.alive(other):
        w = old.get(t.id)
        if t.transport:
            continue
        if w is None:
            unseen.append(t)  # no one else saw it before, no one else sees it now
        elif w != mover.id and _standing(state, state.units[w]):
            kept[t.id] = w
        else:
            again.append(t)
    kept.update(_witnesses(board, state, side, again))
    kept.update(_witnesses(board, state, side, unseen, only_by=mover))
    state.witness[side] = kept
    _look(state, side)
    watched = dict(state.witness.get(other, {}))
    watched.pop(mover.id, None)
    watched.update(_witnesses(board, state, other, [mover]))
    state.witness[other] = watched
    if mover.id in watched:
        _mark(state, other, mover)
    state.seen[other] = sorted(watched)


def _standing(state: State, u: Unit) -> bool:
    """Whether a unit can look: on the table, not removed, not carried."""
    return u.alive and u.reinforcement_turn <= state.turn and not u.transport
