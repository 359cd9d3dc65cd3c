"""The order of direct fire in phase G (p6; errata Q7): first every stationary element, lowest
fire order first, then the better troop class; then the elements that moved, least distance
first, then fire order, then class. Elements equal on every key fire simultaneously: their
results land together (a "volley"). An element that moved over half its allowance, gives
covering fire, is stunned, retreats (p24) or is a passenger does not fire, nor does a towed
gun limbered, being set up or man-handled this turn (p33, towing.py); a Shaken one fires
only at elements that fired on it this turn (p24, orders_fire.targets)."""

from __future__ import annotations

from . import towing
from .build import fire_order, speeds
from .state import Element, State

CLASS = {"veteran": 0, "regular": 1, "conscript": 2}


def may_fire(state: State, e: Element) -> bool:
    if not e.active or e.fired or e.has("stunned") or e.has("retreat") or "cf" in e.counters:
        return False  # a retreating unit does not fire (p24)
    if towing.why_no_fire(state, e):  # limbered, being set up, man-handled (p33)
        return False
    full = speeds(state.records[e.id])[0]
    return not (full > 0 and e.moved > full / 2 + 1e-9)


def key(state: State, e: Element) -> list:
    fo, _ = fire_order(state.records[e.id])
    moved = round(e.moved, 1)
    return [0 if moved == 0 else 1, moved, fo, CLASS.get(e.troop_class, 1)]


def build(state: State) -> tuple[list[str], list[list]]:
    """(element ids in firing order, their keys)."""
    firers = [e for e in state.elements.values() if may_fire(state, e)]
    firers.sort(key=lambda e: (key(state, e), e.side, e.id))
    return [e.id for e in firers], [key(state, e) for e in firers]
