"""Fixtures of the Panzerfaust rules tests: the shipped rules (no user overlays) and 3D6 counts
for hand-computed odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.panzerfaust.rules.tables import Rules

# ways to roll each total on 3D6 (216 in all)
WAYS_3D6 = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27}
WAYS_3D6 |= {21 - t: w for t, w in WAYS_3D6.items()}


def p3d6(lo: int, hi: int) -> Fraction:
    """P(lo <= 3D6 <= hi), clipped to 3..18."""
    return Fraction(sum(WAYS_3D6.get(t, 0) for t in range(max(lo, 3), min(hi, 18) + 1)), 216)


def p2d6(lo: int, hi: int) -> Fraction:
    ways = {t: 6 - abs(t - 7) for t in range(2, 13)}
    return Fraction(sum(ways.get(t, 0) for t in range(max(lo, 2), min(hi, 12) + 1)), 36)


@pytest.fixture(scope="session")
def R() -> Rules:
    return Rules(load("panzerfaust", overlays=()))
