"""The test scenario of the Panzerfaust game tests (until the shipped scenarios land)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kriegsspiel.engine import Game, load_scenario

SKIRMISH = Path(__file__).parent / "scenarios" / "skirmish.yaml"


def skirmish():
    return load_scenario(SKIRMISH)


@pytest.fixture
def game() -> Game:
    return Game(skirmish(), seed=7)
