"""What every phase shares: sides ending their part of an "all" phase (`end_phase`), the
phase's own scratch data, and the element look-ups commands need (own, observed enemy)."""

from __future__ import annotations

from typing import Any

from ....engine.commands import IllegalCommand
from ....engine.events import Draft, Event
from .commands import EndPhase
from .state import Element, State

END = {"end_phase": EndPhase}


def data(state: State) -> dict[str, Any]:
    """The current phase's scratch data (cleared when a phase begins)."""
    return state.phase_data


def waiting(state: State) -> list[str]:
    """Sides that have not yet ended their part of the phase."""
    done = state.phase_data.get("done", [])
    return [s for s in state.sides if s not in done]


def end_phase(state: State, side: str) -> list[Draft]:
    return [Draft("phase_done", {"side": side, "phase": state.phase})]


def fold_done(state: State, d: dict, e: Event) -> None:
    state.phase_data.setdefault("done", []).append(d["side"])


def own(state: State, side: str, uid: Any, field: str = "unit") -> Element:
    e = state.elements.get(uid) if isinstance(uid, str) else None
    if e is None or e.side != side or not e.on_table:
        raise IllegalCommand(f"{uid!r} is not an element of yours on the table", field)
    return e


def observed(state: State, side: str, alias: Any, field: str = "target") -> Element:
    """The enemy element behind an alias `side` observes now."""
    uid = state.aliases.resolve(side, alias) if isinstance(alias, str) else None
    if uid is None or uid not in state.seen.get(side, ()):
        raise IllegalCommand(f"{alias!r} is not an enemy element you observe", field)
    return state.elements[uid]


def seen_once(state: State, side: str, alias: Any, field: str = "target") -> Element:
    """An enemy element `side` observes now or saw earlier (it has a last-known marker)."""
    uid = state.aliases.resolve(side, alias) if isinstance(alias, str) else None
    if uid is None or not (uid in state.seen.get(side, ()) or uid in state.last_seen.get(side, {})):
        raise IllegalCommand(f"{alias!r} is not an enemy element you have observed", field)
    return state.elements[uid]
