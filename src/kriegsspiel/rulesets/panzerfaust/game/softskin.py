"""Small arms at a softskin and its passengers (p17): an element with no gun that can fire at
vehicles fires its small arms at a softskin in reach, +1 row for a target in a softskin
(rules/infantry_fire). The teams' worth of casualties fall on the passengers first; a
softskin that takes casualties of at least half its carrying capacity, loaded or empty, is
destroyed, and the passengers still alive get down beside it at once (worked example #8:
capacity 2, one team lost)."""

from __future__ import annotations

from . import arms, riders, wrecks
from .state import Element, State


def by_small_arms(state: State, e: Element, t: Element, dist: float) -> bool:
    """Whether `e` fires small arms at the softskin `t` (it has no gun for vehicles)."""
    if t.kind != "softskin" or arms.main_gun(state, e) is not None:
        return False
    team = arms.small_arms(state, e)
    return team is not None and dist <= arms.reach(state, team)


def capacity(state: State, t: Element) -> int:
    cap = getattr(state.records[t.id], "capacity", None)
    return int(getattr(cap, "value", cap) or 0)


def casualties(state: State, t: Element, n: int) -> bool:
    """`n` teams' worth of casualties on the softskin `t` (a fold): passengers die first; at
    half its capacity or more it is destroyed and the survivors get down. True if destroyed."""
    for pid in list(t.carrying[:n]):
        state.elements[pid].lost = True
        t.carrying.remove(pid)
    if 2 * n < max(capacity(state, t), 1):
        return False
    t.lost = True
    wrecks.leave(state, t)
    x, y = riders.dismount_spot(state, t)
    for pid in t.carrying:
        p = state.elements[pid]
        p.transport, p.x, p.y = None, x, y
        p.feature = state.board.feature(x, y)
    t.carrying = []
    return True
