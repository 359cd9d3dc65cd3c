"""The turn of p6 as data: phases A-I, each with the module (or object) that handles it.

A handler has:
- `COMMANDS: dict[str, type[BaseModel]]` the command types it accepts (commands.py models);
- `FOLDS: dict[str, fold]` the event types it folds, `fold(state, data, event)` in place;
- `actors(state) -> list[str]` the sides that may command now ([] when it waits for none);
- `legal(state, side) -> list[dict]` the command templates `side` may give now;
- `resolve(state, side, cmd, rng) -> list[Draft]` a command into events (IllegalCommand);
- `automatic(state, rng) -> list[Draft]` events the phase produces by itself now;
- optional `enter(state)` folded when the phase begins (no dice), `note(state) -> str | None`
  (a line for the phase's start event).
The phase ends when `actors` is empty and `automatic` returns nothing: rules.py then moves on.
To add a phase's rules, write `game/<module>.py` and change its line in `TABLE`.
"""

from __future__ import annotations

from typing import Any

from ....engine.flow import Phase, PhaseCycle
from . import (
    orders_air,
    orders_cover,
    orders_fire,
    orders_indirect,
    orders_move,
    orders_pips,
    setup,
    written_orders,
)

SETUP = Phase("setup", "Set-up", actors="all")
TABLE: list[tuple[Phase, Any]] = [
    (
        Phase("A", "A: orders for artillery and aircraft", actors="all"),
        written_orders,
    ),
    (Phase("B", "B: movement pips", actors="none", automatic=True), orders_pips),
    (
        Phase("C", "C: air strikes declared", actors="all"),
        orders_air.INCOMING,
    ),
    (Phase("D", "D: covering fire", actors="all"), orders_cover),
    (
        Phase("E", "E: indirect fire call-down", actors="all"),
        orders_indirect.CALLS,
    ),
    (Phase("F", "F: movement", actors="active"), orders_move),
    (Phase("G", "G: direct fire and CQC", actors="active"), orders_fire),
    (
        Phase("H", "H: indirect fire lands", actors="none", automatic=True),
        orders_indirect.LANDS,
    ),
    (
        Phase("I", "I: aircraft and AA", actors="all"),
        orders_air.ATTACKS,
    ),
]

PHASES = PhaseCycle([p for p, _ in TABLE])
HANDLERS: dict[str, Any] = {SETUP.id: setup} | {p.id: h for p, h in TABLE}


def handler(phase_id: str) -> Any:
    return HANDLERS[phase_id]


def phase(phase_id: str) -> Phase:
    return SETUP if phase_id == SETUP.id else PHASES[phase_id]


def command_models() -> dict[str, Any]:
    """Every command type of every phase (a type may serve several phases)."""
    out: dict[str, Any] = {}
    for h in HANDLERS.values():
        out.update(h.COMMANDS)
    return out


def folds() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for h in HANDLERS.values():
        for kind, fn in h.FOLDS.items():
            if out.get(kind, fn) is not fn:
                raise ValueError(f"two phase handlers fold the event {kind!r}")
            out[kind] = fn
    return out
