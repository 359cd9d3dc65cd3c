"""The quickref turn sequence (sheet L7) as data: phases, who acts in each, what ends them."""

from __future__ import annotations

from dataclasses import dataclass

from .state import State


@dataclass(frozen=True)
class Phase:
    id: str
    title: str
    actors: str  # "both", "a", "b", "none" (automatic)
    commands: tuple[str, ...] = ()
    idle: str = "nothing to do in this step"  # why a side with no legal order ends it at once


MOVES_DONE = "all moves done: no unit left that may move"
AUTOMATIC = "the umpire plays this step"  # a phase no side acts in

PHASES: tuple[Phase, ...] = (
    Phase("initiative", "Initiative", "both", ("initiative", "hatches"), "no choice to make"),
    Phase(
        "arty_fire",
        "Indirect fire: attacks plotted last turn",
        "both",
        ("hold",),
        "no fire mission falls this turn",
    ),
    Phase(
        "arty_adjust",
        "Indirect fire: adjust fire",
        "both",
        ("adjust",),
        "no fire mission to adjust",
    ),
    Phase(
        "arty_plot",
        "Indirect fire: plot for next turn",
        "both",
        ("call_fire",),
        "no observer can call a battery",
    ),
    Phase(
        "fire_suppressive",
        "Fire: suppressive fire",
        "both",
        ("fire",),
        "no unit can fire suppressively",
    ),
    Phase("fire_all", "Fire: all fire", "both", ("fire",), "no unit can fire"),
    Phase("move_a1", "Move: side A moves half", "a", ("move", "dismount"), MOVES_DONE),
    Phase("move_b", "Move: side B moves all", "b", ("move", "dismount"), MOVES_DONE),
    Phase("move_a2", "Move: side A moves the other half", "a", ("move", "dismount"), MOVES_DONE),
    Phase("adjusted_fire", "Adjusted fire", "none"),
    Phase(
        "close_assault", "Close assault", "both", ("assault",), "no unit is in contact to assault"
    ),
    Phase("aircraft", "Aircraft", "none"),
)
BY_ID = {p.id: p for p in PHASES}
ORDER = [p.id for p in PHASES]


def phase(state: State) -> Phase | None:
    return BY_ID.get(state.phase)


def actors(state: State) -> list[str]:
    """Sides that act in the current phase and have not ended it."""
    p = phase(state)
    if p is None or state.side_a is None and p.actors in ("a", "b"):
        return []
    if p.actors == "none":
        return []
    if p.actors == "both":
        sides = list(state.sides)
    else:
        b = state.enemy(state.side_a)
        sides = [state.side_a if p.actors == "a" else b]
    return [s for s in sides if s not in state.done]


def next_phase(state: State) -> tuple[int, str]:
    """(turn, phase) after the current one."""
    if state.phase == "setup":
        return 1, ORDER[0]
    i = ORDER.index(state.phase)
    if i + 1 < len(ORDER):
        return state.turn, ORDER[i + 1]
    return state.turn + 1, ORDER[0]
