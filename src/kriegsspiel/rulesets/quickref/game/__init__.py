"""quickref played as a game: state, turn sequence, commands, fog of war, victory."""

from .rules import QuickrefGame

__all__ = ["QuickrefGame"]
