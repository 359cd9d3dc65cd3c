"""quickref: the one-page d10 quick-reference rules (seed 002_d45d373124c70bfa.txt).

Inches, d10 and 2d10. Decisions where the sheet is silent or damaged: docs/decisions/quickref.md.
"""

from .models import KINDS
from .options import Options

UNIT = "inch"

__all__ = ["KINDS", "UNIT", "Options"]


def game_rules(options: dict | None = None):
    """The quickref face to the game engine, with the game's options (options.py)."""
    from .game.rules import game_rules as make

    return make(options)
