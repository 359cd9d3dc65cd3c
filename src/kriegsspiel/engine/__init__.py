"""Engine: ruleset-agnostic games as a seed plus an append-only event log (DESIGN: engine).

State is a fold of the events; a command is validated against the current state and, if legal,
resolved into events; `view(state, side)` is all a side may know.
"""

from .commands import IllegalCommand
from .events import Event
from .game import Game, GameRules
from .scenario import Scenario, load_scenario

__all__ = ["Event", "Game", "GameRules", "IllegalCommand", "Scenario", "load_scenario"]
