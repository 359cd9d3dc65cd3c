"""Floors of buildings for house-to-house fighting (p19, P307).

A building feature may have `attributes.floors` (default 1: the ground floor only); an
infantry team placed in it may stand on a `floor` (0 the ground, 1 the first upper floor...).
Every infantry base in the same building and on the same floor is in close combat with every
enemy there (p17, p19, melee_contact.py); bases on different floors do not touch. A
`climb {unit, floor}` order in phase F takes a base one floor up or down: it is its move for
the turn (placeholder: the book prices no stairs), so on the new floor it fights as having
entered this turn, without the hard cover only the defender of that floor claims (p19).
A base that leaves the building is on the ground again.

Sight and fire from upper floors (p8, p17, p32; P329-P330): a piece's eye (and body) stands
`board.EYE` above the ground, and one `board.STOREY` (placeholder) higher per floor, so the
terrain's heights decide what it sees over (`eye`); from three floors up (p8 note 4) or from
ground as high (option `high_observer`) it observes x1.5 (`high`)."""

from __future__ import annotations

from typing import Any

from ....engine.events import Draft, Event
from . import melee_contact
from .board import EYE, STOREY
from .state import Element, State

HIGH = 3  # floors up for the observer's height advantage (p8 note 4)


def level(floor: int) -> float:
    """How high above the ground a piece on `floor` sees and is seen from (P329)."""
    return EYE + floor * STOREY


def eye(state: State, e: Element) -> float:
    """How high above the ground `e` sees and is seen from: its floor's height (P329)."""
    if not e.floor:
        return EYE
    return level(melee_contact.floor(state, e))


def eye_at(state: State, e: Element, x: float, y: float) -> float:
    """`eye` for `e` were it at (x, y) on its floor (a point of its path): its floor's height
    inside a building that has that floor, else the ground's."""
    if not e.floor:
        return EYE
    b = melee_contact.building(state, x, y)
    return level(e.floor) if b is not None and e.floor < melee_contact.floors(b) else EYE


def high(state: State, e: Element) -> bool:
    """Whether `e` observes with the height advantage (x1.5, p8 note 4): three floors up or
    higher, or (option `high_observer=floors_hills`, P329) on ground at least as high as
    three storeys (a hill: "terrain features of equivalent height")."""
    if e.floor >= HIGH and melee_contact.floor(state, e) >= HIGH:
        return True
    if state.rules.opts.high_observer != "floors_hills" or e.x is None:
        return False
    return state.board.ground(e.x, e.y) >= HIGH * STOREY - 1e-9


def _building(state: State, e: Element) -> Any:
    return None if e.x is None else melee_contact.building(state, e.x, e.y)


def check_placed(state: State, e: Element) -> None:
    """A scenario's `floor` needs infantry in a building with that many floors (build time)."""
    if not e.floor:
        return
    b = _building(state, e)
    if e.kind != "infantry" or b is None or e.floor >= melee_contact.floors(b):
        raise ValueError(
            f"{e.id}: floor {e.floor} needs an infantry team in a building with more floors "
            "(attributes.floors, p19)"
        )


def after_move(state: State, e: Element) -> int:
    """The floor `e` is on after a move: the same inside a building that has it, else 0."""
    if not e.floor:
        return 0
    b = _building(state, e)
    return e.floor if b is not None and e.floor < melee_contact.floors(b) else 0


def why_not(state: State, e: Element, floor: Any) -> str | None:
    """Why `e` may not climb to `floor` now."""
    from .orders_move import can_move

    if e.kind != "infantry" or not e.active:
        return f"{e.name} is not infantry on foot: only they fight floor by floor (p19)"
    b = _building(state, e)
    if b is None:
        return f"{e.name} is not in a building"
    if not isinstance(floor, int) or not 0 <= floor < melee_contact.floors(b):
        return f"the building {b.id} has floors 0 to {melee_contact.floors(b) - 1}"
    if e.has("pinned"):
        return f"{e.name} is pinned: only a move that breaks the pin may take it on (p17)"
    if abs(floor - e.floor) != 1:
        return f"{e.name} is on floor {e.floor}: it goes one floor up or down a turn"
    return can_move(state, e)


def templates(state: State, members: list[Element]) -> list[dict[str, Any]]:
    out = []
    for e in members:
        if e.kind != "infantry" or _building(state, e) is None:
            continue
        for f in (e.floor - 1, e.floor + 1):
            if why_not(state, e, f) is None:
                out.append({"type": "climb", "unit": e.id, "floor": f})
    return out


def order(state: State, side: str, e: Element, floor: int, base: dict) -> list[Draft]:
    from .movement import reach  # movement -> towing -> riders -> build -> floors

    cm = round(reach(state, e), 3)
    note = (f"{e.name} goes to floor {floor}: its move this turn (placeholder: the stairs take "
            "a whole move; p19)",)  # fmt: skip
    return [Draft("climb", base | {"unit": e.id, "floor": floor, "cm": cm}, (side,), note)]


def fold(state: State, d: dict, ev: Event) -> None:
    e = state.elements[d["unit"]]
    e.floor = d["floor"]
    e.moved = max(e.moved, d["cm"])
    e.path = [[e.x, e.y, 0.0], [e.x, e.y, e.moved]]
