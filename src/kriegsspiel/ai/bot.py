"""The bot interface (DESIGN: ai/). A bot is given deep copies of JSON data and an odds callback
bound to its own side, never the Game or its state, and answers with a traced decision."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, Protocol

Odds = Callable[[dict[str, Any]], dict[str, Any]]
# keys of a legal template that describe it and are not part of the command
TEMPLATE_ONLY = ("max", "withdraw_only", "infantry", "target_hint")


class Decision:
    """A command to give and why: the chosen score, the alternatives and their scores. A bot
    may give the trace as a function that writes it: it is called when the trace is first
    read (wording every decision costs time that a simulation, which reads none, saves)."""

    __slots__ = ("command", "_trace")

    def __init__(
        self,
        command: dict[str, Any],
        trace: dict[str, Any] | Callable[[], dict[str, Any]] | None = None,
    ):
        self.command = command
        self._trace = {} if trace is None else trace

    @property
    def trace(self) -> dict[str, Any]:
        if callable(self._trace):
            self._trace = self._trace()
        return self._trace

    def __repr__(self) -> str:
        return f"Decision({self.command!r}, {self.trace!r})"


class Bot(Protocol):
    """decide(view, legal, odds) -> Decision. May keep memory between calls of one game."""

    def decide(self, view: dict[str, Any], legal: list[dict[str, Any]], odds: Odds) -> Decision: ...


def command_of(template: dict[str, Any]) -> dict[str, Any]:
    """A legal template without its descriptive keys."""
    return {k: v for k, v in template.items() if k not in TEMPLATE_ONLY}


class RandomBot:
    """A random-legal player for any ruleset: picks a legal template at random (the baseline a
    competent bot must beat). A template that is a whole command is given as it is; a move
    template with a `max` distance and no `path` (quickref's) gets a random one-point path."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def decide(self, view: dict[str, Any], legal: list[dict[str, Any]], odds: Odds) -> Decision:
        t = self.rng.choice(legal)
        cmd = command_of(t)
        if cmd["type"] == "move" and "max" in t and "path" not in cmd:
            u = next(u for u in view["units"] if u["id"] == cmd["unit"])
            a = self.rng.uniform(0, 2 * math.pi)
            d = self.rng.uniform(0, t["max"])
            w, h = view["table"]["width"], view["table"]["depth"]
            x = min(max(u["x"] + d * math.sin(a), 0), w)
            y = min(max(u["y"] + d * math.cos(a), 0), h)
            cmd["path"] = [[x, y]]
        return Decision(cmd, {"why": "random legal choice", "alternatives": len(legal)})
