"""Command radius (p7) as the game state sees it.

An element is in command when a chain of its own company's elements, each within the
radius of the last, links it to its platoon HQ and that HQ to the company HQ
(rules/pips.py `in_command`); the radius is its HQ's (radio or not, halved for infantry
squads under radio command). Compulsory moves of bad morale are withdrawal.py's.
"""

from __future__ import annotations

from ..rules import pips
from .state import Element, State
from .turn import own

__all__ = ["in_radius", "own"]


def _radius(state: State, hq: Element, infantry: bool) -> float:
    return pips.command_radius(state.rules, hq.radio, state.nations.get(hq.side, ""), False,
                               halved=infantry)  # fmt: skip


COMMAND_MEMO = 10_000  # command chains kept per game


def _linked(state: State, hq_id: str | None, members: list[str], e: Element) -> bool:
    if hq_id is None or hq_id == e.id:
        return True
    hq = state.elements[hq_id]
    if not hq.active:
        return False
    units = {m: (state.elements[m].x, state.elements[m].y) for m in members
             if state.elements[m].active}  # fmt: skip
    if e.id not in units:
        return False
    radius = _radius(state, hq, e.kind == "infantry")
    # every member of a company asks for the same chain: worked out once per placing
    memo = state.cache.setdefault("in_command", {})
    key = (hq_id, radius, tuple(units.items()))
    inside = memo.get(key)
    if inside is None:
        if len(memo) > COMMAND_MEMO:
            memo.clear()
        inside = memo[key] = pips.in_command(state.rules, units, hq_id, radius)
    return e.id in inside


def in_radius(state: State, e: Element) -> bool:
    """Whether `e` is within command radius of its platoon HQ and that of its company HQ.
    Kept until the next event (rules.VOLATILE "radius": the answer follows the places)."""
    memo = state.cache.setdefault("radius", {})
    hit = memo.get(e.id)
    if hit is None:
        hit = memo[e.id] = _in_radius(state, e)
    return hit


def _in_radius(state: State, e: Element) -> bool:
    p = state.platoons[e.platoon]
    c = state.companies[e.company]
    if not _linked(state, p.hq, p.members, e):
        return False
    if p.hq is None:
        return True
    company = [m for pid in c.platoons for m in state.platoons[pid].members]
    return _linked(state, c.hq, company, state.elements[p.hq])
