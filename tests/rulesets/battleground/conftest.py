"""Shared fixtures of the Battleground tests: the shipped catalogue and the rules over it."""

from __future__ import annotations

import pytest

from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.battleground.options import Options
from kriegsspiel.rulesets.battleground.rules.core import Rules


@pytest.fixture(scope="session")
def cat():
    """The shipped Battleground catalogue, with no user overlays."""
    return load("battleground", overlays=())


@pytest.fixture(scope="session")
def rules(cat):
    return Rules(cat, Options())
