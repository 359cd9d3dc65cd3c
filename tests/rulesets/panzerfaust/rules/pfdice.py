"""Dice counts for hand-computed Panzerfaust odds (3D6 and 2D6 totals). The rules fixture `R`
lives in the parent conftest.py (a conftest.py here would shadow that module's helpers)."""

from __future__ import annotations

from fractions import Fraction

# ways to roll each total on 3D6 (216 in all)
WAYS_3D6 = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27}
WAYS_3D6 |= {21 - t: w for t, w in WAYS_3D6.items()}


def p3d6(lo: int, hi: int) -> Fraction:
    """P(lo <= 3D6 <= hi), clipped to 3..18."""
    return Fraction(sum(WAYS_3D6.get(t, 0) for t in range(max(lo, 3), min(hi, 18) + 1)), 216)


def p2d6(lo: int, hi: int) -> Fraction:
    ways = {t: 6 - abs(t - 7) for t in range(2, 13)}
    return Fraction(sum(ways.get(t, 0) for t in range(max(lo, 2), min(hi, 12) + 1)), 36)
