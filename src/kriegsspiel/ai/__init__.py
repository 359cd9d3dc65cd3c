"""Bots: players that see only their side's view, its legal commands and an odds callback. Each
ruleset's bot is in its own package (`ai/<ruleset>/`), found through `ai.registry`."""

from .bot import Bot, Decision, RandomBot
from .registry import RANDOM, make_bot

__all__ = ["RANDOM", "Bot", "Decision", "RandomBot", "make_bot"]
