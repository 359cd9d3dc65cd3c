"""Shared fixtures: the shipped quickref rules and the seed folder."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO.parent / "shared" / "seeds"


@pytest.fixture(scope="session")
def qr():
    from kriegsspiel.rulesets.quickref.tables import rules

    return rules()


@pytest.fixture(scope="session")
def seeds() -> Path:
    if not SEEDS.is_dir():
        pytest.skip(f"seed folder {SEEDS} not present")
    return SEEDS
