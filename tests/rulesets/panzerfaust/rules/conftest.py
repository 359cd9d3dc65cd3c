"""Fixtures of the Panzerfaust rules tests: the shipped rules with no user overlays."""

from __future__ import annotations

import pytest

from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.panzerfaust.rules.tables import Rules


@pytest.fixture(scope="session")
def R() -> Rules:
    return Rules(load("panzerfaust", overlays=()))
