"""Closing down and opening up an AFV (p8-9, p17; decision P341): `close_down {unit}` and
`open_up {unit}` in phase F, for an AFV of the platoon moving now (or one still to move, which
then moves now). The order is free (the book prices no pip for it), once per AFV per turn, and
may be given whatever the company's pips.

A closed-down AFV (the `closed_down` counter, seen on the model) observes with a 60 degree arc
and at half range, and sees muzzle flashes at half range (p8-9, sight.py); a fully enclosed one
cannot be hurt by small arms (p17, crew_fire.py). An open-topped AFV closed down keeps its heads
down for sight only: its crew is exposed to small arms all the same (p8 note 1, p17). An AFV
whose head-up commander was killed stays closed down for the rest of the game (p17). A scenario
may place an AFV closed down (`closed_down: true`)."""

from __future__ import annotations

from typing import Any

from ....engine.events import Draft, Event
from .state import Element, State

DONE = "hatched"  # phase_data: the AFVs that closed down or opened up this turn


def why_not(state: State, e: Element, closed: bool) -> str | None:
    """Why `e` may not close down (`closed`) or open up now, or None."""
    if e.kind != "afv" or not e.active:
        return f"{e.name} is not an AFV on the table: only AFVs close down (p8)"
    if e.id in state.phase_data.get(DONE, ()):
        return f"{e.name} has already closed down or opened up this turn (P341)"
    if closed and e.has("closed_down"):
        return f"{e.name} is already closed down"
    if not closed and e.has("commander_killed"):
        return (
            f"{e.name}'s commander was killed: it stays closed down for the rest of the game (p17)"
        )
    if not closed and not e.has("closed_down"):
        return f"{e.name} is already open, its commander head-up"
    return None


def templates(state: State, members: list[Element]) -> list[dict[str, Any]]:
    """The close_down / open_up orders the elements `members` may be given now."""
    out = []
    for e in members:
        if e.kind != "afv":
            continue
        closed = not e.has("closed_down")
        if why_not(state, e, closed) is None:
            out.append({"type": "close_down" if closed else "open_up", "unit": e.id})
    return out


def order(state: State, side: str, e: Element, closed: bool, platoon: str) -> list[Draft]:
    """The order, checked by the caller for its platoon (orders_move.py)."""
    note = (
        f"{e.name} closes down: a 60 degree arc of vision and half the observation range "
        "(p8-9); small arms cannot reach a fully enclosed AFV's crew (p17)"
        if closed
        else f"{e.name} opens up, its commander head-up: he may be fired at, in hard cover (p17)"
    )
    data = {"unit": e.id, "closed": closed, "platoon": platoon}
    return [Draft("hatch", data, (side,), (note,))]


def fold(state: State, d: dict, ev: Event) -> None:
    e = state.elements[d["unit"]]
    if d["closed"]:
        e.counters["closed_down"] = 1
    else:
        e.counters.pop("closed_down", None)
    state.phase_data.setdefault(DONE, []).append(e.id)
    state.phase_data["platoon"] = d["platoon"]  # its platoon is the one moving now
