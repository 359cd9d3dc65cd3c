"""Victory (scenario-defined; the sheet has no victory rules, decision Q39): the engine's
predicates (engine/victory.py) over quickref's units."""

from __future__ import annotations

from typing import Any

from ....engine import victory
from ....engine.scenario import Scenario
from .state import State


def statuses(state: State) -> list[victory.PieceStatus]:
    """Quickref's units as the predicates see them: a passenger neither holds ground nor
    counts for losses, and a reinforcement counts from the turn it arrives."""
    turn, status = state.turn, victory.PieceStatus
    # by position (present, counts, lost): a named tuple builds faster so than by keyword,
    # and every step's end builds one per unit
    return [
        status(u.id, u.side, u.x, u.y, here and not u.removed, here, u.removed)
        for u in state.units.values()
        for here in (u.reinforcement_turn <= turn and not u.transport,)
    ]


def losses(state: State, side: str) -> float:
    return victory.loss_share(statuses(state), side)


def holder(scenario: Scenario, state: State, objective_id: str) -> str | None:
    o = next(o for o in scenario.objectives if o.id == objective_id)
    return victory.holder(o, statuses(state))


def check(scenario: Scenario, state: State, end_of_turn: bool) -> dict[str, Any] | None:
    """The outcome if the game is decided now, else None."""
    pieces = statuses(state)
    verdict = victory.decide(scenario, pieces, state.turn, end_of_turn=False)
    if verdict is not None:
        return verdict
    for side in state.sides:
        if not state.alive(side) and not any(
            u.reinforcement_turn > state.turn for u in state.units.values() if u.side == side
        ):
            return {
                "winner": state.enemy(side),
                "reason": f"{side} has no units left",
                "turn": state.turn,
            }
    if end_of_turn and state.turn >= scenario.victory.turn_limit:
        return victory.at_limit(scenario, pieces, state.turn)
    return None
