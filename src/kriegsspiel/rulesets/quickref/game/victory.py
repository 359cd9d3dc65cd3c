"""Victory (scenario-defined; the sheet has no victory rules, decision Q39)."""

from __future__ import annotations

from typing import Any

from ....engine.scenario import Scenario
from .geometry_helpers import distance
from .state import State


def losses(state: State, side: str) -> float:
    units = [
        u
        for u in state.units.values()
        if u.side == side and u.reinforcement_turn <= state.turn and not u.transport
    ]
    if not units:
        return 0.0
    return sum(1 for u in units if u.removed) / len(units)


def holder(scenario: Scenario, state: State, objective_id: str) -> str | None:
    o = next(o for o in scenario.objectives if o.id == objective_id)
    present = {
        u.side for u in state.alive() if distance(u.pos, (o.x, o.y)) <= o.radius and not u.transport
    }
    return present.pop() if len(present) == 1 else None


def check(scenario: Scenario, state: State, end_of_turn: bool) -> dict[str, Any] | None:
    """The outcome if the game is decided now, else None."""
    for c in scenario.victory.conditions:
        if c.kind == "destroy" and losses(state, state.enemy(c.side)) >= (c.fraction or 1.0):
            return {
                "winner": c.side,
                "reason": f"the enemy lost {c.fraction:.0%} of its units",
                "turn": state.turn,
            }
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
        for c in scenario.victory.conditions:
            if (
                c.kind == "hold"
                and c.objectives
                and all(holder(scenario, state, o) == c.side for o in c.objectives)
            ):
                return {
                    "winner": c.side,
                    "reason": f"holds {', '.join(c.objectives)}",
                    "turn": state.turn,
                }
        winner = scenario.victory.default_winner
        return {
            "winner": winner,
            "reason": "turn limit reached" + ("" if winner else ": draw"),
            "turn": state.turn,
        }
    return None
