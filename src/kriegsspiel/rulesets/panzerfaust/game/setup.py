"""The set-up before turn 1 (pp4-5): the scenario places the forces; hidden deployment and
dummies come with the pre-game (branch pfscen, game/pregame.py). Nothing to command yet."""

from __future__ import annotations

import random
from typing import Any

from ....engine.commands import IllegalCommand
from ....engine.events import Draft
from .state import State

COMMANDS: dict[str, Any] = {}
FOLDS: dict[str, Any] = {}


def actors(state: State) -> list[str]:
    return []


def legal(state: State, side: str) -> list[dict[str, Any]]:
    return []


def resolve(state: State, side: str, cmd: dict, rng: random.Random) -> list[Draft]:
    raise IllegalCommand("the game has not started", "type")


def automatic(state: State, rng: random.Random) -> list[Draft]:
    return []
