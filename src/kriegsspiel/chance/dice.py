"""Dice notation and exact distributions ("1d10", "2d10", "3d6", "d20", "d3", "2d6+1").

Distributions come from icepool's dice algebra; `faces=True` keeps each die's face (ordered),
for rules that read individual dice (doubles, natural 1s and 20s).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import icepool

_NOTATION = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*([+-]\s*\d+)?\s*$")


@dataclass(frozen=True)
class DiceSpec:
    count: int
    sides: int
    bonus: int = 0

    def __str__(self) -> str:
        b = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{b}"

    @property
    def lowest(self) -> int:
        return self.count + self.bonus

    @property
    def highest(self) -> int:
        return self.count * self.sides + self.bonus


@cache
def parse(notation: str) -> DiceSpec:
    m = _NOTATION.match(notation)
    if not m:
        raise ValueError(f"bad dice notation {notation!r}; expected e.g. 1d10, 2d10, 3d6, d20")
    count = int(m.group(1) or 1)
    sides = int(m.group(2))
    if count < 1 or sides < 1 or count > 100:
        raise ValueError(f"bad dice notation {notation!r}: need 1..100 dice of at least 1 side")
    bonus = int(m.group(3).replace(" ", "")) if m.group(3) else 0
    return DiceSpec(count, sides, bonus)


@cache
def total_distribution(notation: str) -> tuple[tuple[int, Fraction], ...]:
    """Exact distribution of the sum of the dice, as (value, probability) pairs."""
    spec = parse(notation)
    die = spec.count @ icepool.d(spec.sides) + spec.bonus
    den = die.denominator()
    return tuple((int(v), Fraction(q, den)) for v, q in die.items())


@cache
def faces_distribution(notation: str) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Exact distribution of the ordered faces (bonus not applied), for small pools."""
    spec = parse(notation)
    if spec.sides**spec.count > 1_000_000:
        raise ValueError(f"{notation}: too many face combinations to enumerate")
    p = Fraction(1, spec.sides**spec.count)
    faces = range(1, spec.sides + 1)
    return tuple((combo, p) for combo in itertools.product(faces, repeat=spec.count))
