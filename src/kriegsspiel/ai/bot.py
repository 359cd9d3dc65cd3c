"""The bot interface (DESIGN: ai/). A bot is given deep copies of JSON data and an odds callback
bound to its own side, never the Game or its state, and answers with a traced decision."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cache
from typing import Any, Literal, Protocol, get_args, get_origin

from pydantic import BaseModel

from ..engine import registry

Odds = Callable[[dict[str, Any]], dict[str, Any]]


@cache
def hints_for(ruleset: str | None) -> tuple[str, ...]:
    """The keys of a ruleset's legal templates that describe a template and are not part of
    the command (its registry entry's `extra["template_only"]`)."""
    try:
        return tuple(registry.entry(str(ruleset)).extra.get("template_only", ()))
    except LookupError:
        return ()


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


class NoLegalCommand(RuntimeError):
    """A bot was asked to act where its side has no legal command. The rules must offer a
    pass or end command, or move on by themselves, in any step where a side is to act; this
    names the step so that the rules' gap can be found."""

    def __init__(self, where: str):
        super().__init__(f"no legal command to choose from: {where}")


def where(view: dict[str, Any], side: str | None = None) -> str:
    """The step a view shows, in words: scenario, turn, phase, side to act."""
    game = view.get("game") or {}
    who = side or ", ".join(view.get("active") or ()) or "?"
    return (
        f"{game.get('scenario', '?')}, turn {view.get('turn', '?')}, "
        f"{view.get('phase_title') or view.get('phase', '?')}, {who} to act"
    )


class Bot(Protocol):
    """decide(view, legal, odds) -> Decision. May keep memory between calls of one game."""

    def decide(self, view: dict[str, Any], legal: list[dict[str, Any]], odds: Odds) -> Decision: ...


def command_of(template: dict[str, Any], hints: tuple[str, ...]) -> dict[str, Any]:
    """A legal template without its descriptive keys (`hints`: see `hints_for`)."""
    return {k: v for k, v in template.items() if k not in hints}


class RandomBot:
    """A random-legal player for any ruleset: picks a legal template at random (the baseline a
    competent bot must beat).

    With the ruleset's command models (GameRules hook `command_models`), a template keeps only
    its model's fields, and a required field it lacks is drawn at random: a choice of a
    Literal, a number within the field's bounds, a coordinate `x`/`y` on the table. A move
    template with a `max` distance and no `path` gets a random one-point path."""

    def __init__(self, seed: int = 0, models: dict[str, type[BaseModel]] | None = None):
        self.rng = random.Random(seed)
        self.models = dict(models or {})

    def decide(self, view: dict[str, Any], legal: list[dict[str, Any]], odds: Odds) -> Decision:
        if not legal:  # second line: the harness refuses this step first
            raise NoLegalCommand(where(view))
        t = self.rng.choice(legal)
        model = self.models.get(t["type"])
        if model is None:
            cmd = command_of(t, hints_for(view.get("ruleset")))
        else:
            cmd = {k: v for k, v in t.items() if k in model.model_fields}
        if cmd["type"] == "move" and "max" in t and "path" not in cmd:
            u = next(u for u in view["units"] if u["id"] == cmd["unit"])
            a = self.rng.uniform(0, 2 * math.pi)
            d = self.rng.uniform(0, t["max"])
            w, h = view["table"]["width"], view["table"]["depth"]
            x = min(max(u["x"] + d * math.sin(a), 0), w)
            y = min(max(u["y"] + d * math.cos(a), 0), h)
            cmd["path"] = [[x, y]]
        elif model is not None:
            self._fill(cmd, model, view)
        return Decision(cmd, {"why": "random legal choice", "alternatives": len(legal)})

    def _fill(self, cmd: dict[str, Any], model: type[BaseModel], view: dict[str, Any]) -> None:
        """Draw the required fields the template left to the player."""
        table = view.get("table") or {}
        for name, f in model.model_fields.items():
            if name in cmd or not f.is_required():
                continue
            if get_origin(f.annotation) is Literal:
                cmd[name] = self.rng.choice(get_args(f.annotation))
            elif f.annotation is bool:
                cmd[name] = self.rng.random() < 0.5
            elif f.annotation in (int, float):
                lo, hi = _bounds(f, name, table)
                if lo is None or hi is None:
                    continue  # nothing to draw from: the rules will say what is missing
                cmd[name] = (
                    self.rng.randint(int(lo), int(hi))
                    if f.annotation is int
                    else (self.rng.uniform(lo, hi))
                )


def _bounds(f: Any, name: str, table: dict[str, Any]) -> tuple[float | None, float | None]:
    """A number field's bounds: its constraints, else the table for coordinates x and y."""
    lo = hi = None
    for m in f.metadata:
        lo = getattr(m, "ge", None) if getattr(m, "ge", None) is not None else lo
        hi = getattr(m, "le", None) if getattr(m, "le", None) is not None else hi
    size = {"x": table.get("width"), "y": table.get("depth")}.get(name)
    if size is not None:
        lo, hi = (0.0 if lo is None else lo), (size if hi is None else hi)
    return lo, hi
