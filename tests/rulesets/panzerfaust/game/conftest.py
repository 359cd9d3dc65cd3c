"""The test scenarios of the Panzerfaust game tests (until the shipped scenarios land) and a
few helpers: play a phase through the engine, and resolve one command with chosen dice."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.events import Event

HERE = Path(__file__).parent / "scenarios"
SKIRMISH = HERE / "skirmish.yaml"
DUEL = HERE / "duel.yaml"


def skirmish():
    return load_scenario(SKIRMISH)


def duel():
    return load_scenario(DUEL)


@pytest.fixture
def game() -> Game:
    return Game(skirmish(), seed=7)  # seed 7: the British company rolls 1 pip in turn 1


class Dice(random.Random):
    """Chosen die faces, in the order the rules ask for them (golden tests)."""

    def __init__(self, *faces: int):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b, (face, a, b)
        return face


def fold(game: Game, side: str | None, drafts) -> None:
    """Fold drafts into the game's state as its rules would (no log: a rules-level test)."""
    for d in drafts:
        event = Event(10_000, 0, d.type, side, d.data, d.visible_to, d.explanation)
        game.rules.apply(game.state, event)


def settle(game: Game, rng: random.Random) -> None:
    """Run the rules' automatic steps with these dice until they stop."""
    while True:
        drafts = game.rules.automatic(game.state, rng)
        if not drafts:
            return
        fold(game, None, drafts)


def advance(game: Game, phase: str, turn: int) -> None:
    """Play on, every side doing nothing, until `phase` of `turn` begins."""
    st = game.state
    while (st.turn, st.phase) != (turn, phase):
        assert st.result is None and st.turn <= turn
        side = game.rules.active_sides(st)[0]
        legal = game.legal_commands(side)
        kind = {"F": "end_platoon", "G": "hold"}.get(st.phase, "end_phase")
        game.submit(side, next(c for c in legal if c["type"] == kind))


def end_phase_d(game: Game) -> None:
    """End the set-up (hidden deployment) if any, then phase D, for both sides."""
    if game.state.phase == "setup":
        for side in game.sides:
            game.submit(side, {"type": "end_phase"})
    assert game.state.phase == "D"
    for side in game.sides:
        game.submit(side, {"type": "end_phase"})
    assert game.state.phase == "F"


def to_fire(game: Game, unit: str) -> None:
    """Phase G of turn 1: phase D ended, every platoon ended without moving, and every firer
    before `unit` holding."""
    end_phase_d(game)
    while game.state.phase == "F":
        side = game.rules.active_sides(game.state)[0]
        end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
        game.submit(side, end)
    st = game.state
    while st.fire_order[st.fire_step] != unit:
        e = st.elements[st.fire_order[st.fire_step]]
        game.submit(e.side, {"type": "hold", "unit": e.id})
