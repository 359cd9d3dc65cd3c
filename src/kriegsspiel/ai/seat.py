"""An AI seat for the web server (or any face): play one side until it is not its turn."""

from __future__ import annotations

from typing import Any

from ..engine import Game
from .bot import Bot
from .harness import act
from .registry import make_bot

MAX_STEPS = 2000


def run_ai(game: Game, side: str, profile: str = "balanced", bot: Bot | None = None) -> list[Any]:
    """Give `side`'s commands while it is among the sides to act; returns the new events.

    When both sides act in a phase, the AI acts first and ends its part of the phase."""
    bot = bot or make_bot(game.scenario.ruleset, profile)
    events: list[Any] = []
    for _ in range(MAX_STEPS):
        if game.outcome is not None or side not in game.rules.active_sides(game.state):
            break
        events += act(game, side, bot)
    return events


def run_ai_seats(game: Game, sides: list[str], profile: str = "balanced") -> list[Any]:
    """Play every side in `sides` until none of them is to act (a step where an AI side ends
    its part can make another AI side active); returns the new events. NotImplementedError
    if the ruleset has no bot for `profile`."""
    if not sides:
        return []
    bot = make_bot(game.scenario.ruleset, profile)
    events: list[Any] = []
    for _ in range(MAX_STEPS):
        before = len(events)
        for side in sides:
            events += run_ai(game, side, profile, bot)
        if len(events) == before:
            break
    return events
