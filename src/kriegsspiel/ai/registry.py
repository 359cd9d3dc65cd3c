"""Bots by ruleset (DESIGN: ai/): each ruleset's bot lives in its package `kriegsspiel.ai.<id>`,
which registers a factory when imported; this registry imports that package on the first
look-up, so the ai/ root names no ruleset. The random-legal bot plays every ruleset."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..engine.registry import game_rules
from .bot import Bot, RandomBot

RANDOM = "random"  # the profile name that stands for the random-legal bot

BotFactory = Callable[[str, int], Bot]  # (profile, seed) -> a fresh bot for one game
_BOTS: dict[str, BotFactory] = {}


def register_bot(ruleset: str, factory: BotFactory) -> None:
    _BOTS[ruleset.casefold()] = factory


def bot_factory(ruleset: str) -> BotFactory | None:
    """The ruleset's registered bot factory, or None if it has no bot package."""
    key = ruleset.casefold()
    if key not in _BOTS:
        name = f"{__package__}.{key}"
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return _BOTS.get(key)


def default_profile(ruleset: str) -> str:
    """The profile a side plays when none is named: `balanced` for a ruleset with a bot,
    else the random-legal bot."""
    return "balanced" if bot_factory(ruleset) else RANDOM


def command_models(ruleset: str) -> dict[str, Any]:
    """The ruleset's command models (GameRules hook `command_models`), or none."""
    try:
        rules = game_rules(ruleset)
    except (LookupError, NotImplementedError):
        return {}
    hook = getattr(rules, "command_models", None)
    return dict(hook()) if hook else {}


def make_bot(ruleset: str, profile: str = "balanced", seed: int = 0) -> Bot:
    """A bot for `ruleset` playing `profile` ("random": the random-legal bot, which works
    from the ruleset's command models)."""
    if profile == RANDOM:
        return RandomBot(seed, command_models(ruleset))
    factory = bot_factory(ruleset)
    if factory is None:
        raise NotImplementedError(
            f"not implemented: a bot for the {ruleset} ruleset (profile {profile!r}); "
            f"use the {RANDOM!r} profile"
        )
    return factory(profile, seed)
