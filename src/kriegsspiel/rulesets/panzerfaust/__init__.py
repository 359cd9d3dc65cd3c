"""panzerfaust ruleset (see docs/decisions/panzerfaust.md)."""

from .models import KINDS
from .options import Options

UNIT = "cm"

__all__ = ["KINDS", "UNIT", "Options"]


def game_rules(options: dict | None = None):
    """Panzerfaust's face to the game engine, with the game's options (options.py)."""
    from .game.rules import game_rules as make

    return make(options)
