"""Phases whose rules live on another branch (A, C, E, H, I: written orders, air strikes,
indirect fire, aircraft; issue 19). Until they land, such a phase passes with a note when the
scenario has nothing it would act on, and the game refuses to start otherwise."""

from __future__ import annotations

import random
from typing import Any

from ....engine.commands import IllegalCommand
from ....engine.events import Draft
from ..models import Aircraft, ArtilleryBattery
from .state import State


class Pending:
    COMMANDS: dict[str, Any] = {}
    FOLDS: dict[str, Any] = {}

    def __init__(self, phase: str, what: str, page: str):
        self.phase, self.what, self.page = phase, what, page

    def check(self, state: State) -> None:
        sc = state.scenario
        off_table = (ArtilleryBattery, Aircraft)
        forces = [sc.forces_of(s) for s in sc.side_ids]
        called = any(getattr(f, "batteries", None) or getattr(f, "aircraft", None) for f in forces)
        if called or sc.artillery or any(isinstance(r, off_table) for r in state.records.values()):
            raise NotImplementedError(
                f"not implemented: phase {self.phase}, {self.what} ({self.page}); this scenario "
                "has artillery or aircraft"
            )

    def note(self, state: State) -> str:
        return f"phase {self.phase}: no {self.what} in this scenario"

    def actors(self, state: State) -> list[str]:
        return []

    def legal(self, state: State, side: str) -> list[dict[str, Any]]:
        return []

    def resolve(self, state: State, side: str, cmd: dict, rng: random.Random) -> list[Draft]:
        raise IllegalCommand(f"phase {self.phase} takes no commands in this scenario", "type")

    def automatic(self, state: State, rng: random.Random) -> list[Draft]:
        return []
