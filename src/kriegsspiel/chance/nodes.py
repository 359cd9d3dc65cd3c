"""What a resolution yields: chance nodes (`Roll`) and explanation steps.

A resolution is a generator. It yields a `Roll` and receives the value rolled; it yields
explanation steps (`Modifier`, `Lookup`, `Note`, `Cite`) and receives None; it returns its result.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Generator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from . import dice


@dataclass(frozen=True)
class Roll:
    """A named dice request: the one kind of chance node.

    `reroll`: values (totals, or face tuples with `faces=True`) that are rolled again until
    another comes up; exact mode conditions the distribution on them instead of looping.
    `at_most`: a roll-under test whose sequel depends only on whether the total is at most
    this (the value itself only enters the explanation); exact mode then walks one value on
    each side of it, with that side's whole probability (`branches`).
    `cuts`: the general form of `at_most`, several cut points c1 < c2 < ...: the sequel depends
    only on which band the total falls in, (-inf, c1], (c1, c2], ..., (ck, inf); exact mode
    walks the lowest value of each band with the band's probability. A d20 check with a
    natural 1 and a natural 20 and a target N is `cuts=(1, N, 19)`: four bands, not 20 faces.
    """

    dice: str
    label: str
    page: str | None = None
    faces: bool = False
    reroll: frozenset = field(default_factory=frozenset)
    at_most: int | None = None
    cuts: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.cuts is not None and self.faces:
            raise ValueError(f"{self.label}: cuts apply to totals, not to faces")

    def distribution(self) -> tuple[tuple[Any, Fraction], ...]:
        return _conditioned(self.dice, self.faces, self.reroll)

    def branches(self) -> tuple[tuple[Any, Fraction], ...]:
        """The values exact mode walks, with their probabilities: every value, or with
        `at_most` the lowest value of each side of the test carrying the side's total."""
        return _banded(self.dice, self.faces, self.reroll, self.at_most, self.cuts)


@cache
def _banded(
    notation: str,
    faces: bool,
    reroll: frozenset,
    at_most: int | None,
    cuts: tuple[int, ...] | None,
) -> tuple[tuple[Any, Fraction], ...]:
    dist = _conditioned(notation, faces, reroll)
    if faces or (at_most is None and cuts is None):
        return dist
    points = sorted(set(cuts or ()) | ({at_most} if at_most is not None else set()))
    bands: dict[int, list] = {}
    for v, p in sorted(dist):  # ascending: the first value of a band is its lowest
        band = bands.setdefault(bisect_left(points, v), [v, Fraction(0)])
        band[1] += p
    return tuple((v, p) for v, p in bands.values())


@cache
def _conditioned(notation: str, faces: bool, reroll: frozenset) -> tuple[tuple[Any, Fraction], ...]:
    base = dice.faces_distribution(notation) if faces else dice.total_distribution(notation)
    if not reroll:
        return base
    kept = [(v, p) for v, p in base if v not in reroll]
    total = sum(p for _, p in kept)
    if total == 0:
        raise ValueError(f"{notation}: every result is re-rolled")
    return tuple((v, p / total) for v, p in kept)


@dataclass(frozen=True)
class Choice:
    """A uniform (or integer-weighted) choice among options: which squad a hit falls on, the
    d8 scatter direction. Sampled as one die of as many faces as the weights add up to, so
    injected dice give the 1-based face."""

    options: tuple
    label: str
    page: str | None = None
    weights: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"{self.label}: a choice needs at least one option")
        if self.weights is not None and (
            len(self.weights) != len(self.options) or any(w < 1 for w in self.weights)
        ):
            raise ValueError(f"{self.label}: one positive integer weight per option")

    @property
    def sides(self) -> int:
        return sum(self.weights) if self.weights else len(self.options)

    def pick(self, face: int) -> Any:
        """The option a face of the `sides`-sided die selects."""
        if self.weights is None:
            return self.options[face - 1]
        for option, w in zip(self.options, self.weights, strict=True):
            face -= w
            if face <= 0:
                return option
        raise ValueError(f"{self.label}: face out of range")

    def branches(self) -> tuple[tuple[Any, Fraction], ...]:
        weights = self.weights or (1,) * len(self.options)
        merged: dict[Any, Fraction] = {}
        for option, w in zip(self.options, weights, strict=True):
            merged[option] = merged.get(option, Fraction(0)) + Fraction(w, self.sides)
        return tuple(merged.items())


@dataclass(frozen=True)
class Pool:
    """Roll `count` dice of `sides` faces and count the successes: each die at most `target`
    (`under=True`, roll-under) or at least `target`. The value sent back is the count."""

    count: int
    sides: int
    target: int
    label: str
    page: str | None = None
    under: bool = True

    def succeeds(self, face: int) -> bool:
        return face <= self.target if self.under else face >= self.target

    def branches(self) -> tuple[tuple[int, Fraction], ...]:
        return _pool(self.count, self.sides, self.target, self.under)


@cache
def _pool(count: int, sides: int, target: int, under: bool) -> tuple[tuple[int, Fraction], ...]:
    hits = max(0, min(sides, target)) if under else max(0, min(sides, sides - target + 1))
    p = Fraction(hits, sides)
    return tuple(
        (k, comb(count, k) * p**k * (1 - p) ** (count - k))
        for k in range(count + 1)
        if (p != 0 or k == 0) and (p != 1 or k == count)
    )


@dataclass(frozen=True)
class Modifier:
    """A named modifier to a roll or a target number, with the rule's page."""

    name: str
    value: int
    page: str | None = None

    def __str__(self) -> str:
        return f"{self.name} {self.value:+d}" + (f" ({self.page})" if self.page else "")


@dataclass(frozen=True)
class Lookup:
    """A table lookup: which table, which row/column key, what came out."""

    table: str
    key: Any
    result: Any
    page: str | None = None


@dataclass(frozen=True)
class Note:
    """A plain explanation line: a rule applied, a decision used, a test passed."""

    text: str
    page: str | None = None


@dataclass(frozen=True)
class Cite:
    """The resolution used these data fields; placeholders among them are reported."""

    labels: tuple[str, ...]  # "kind:id.field" of placeholder-provenance fields used

    @staticmethod
    def fields(record: Any, *paths: str) -> Cite:
        return Cite(tuple(record.placeholders(*paths)))


@dataclass(frozen=True)
class Outcome:
    """What a resolution returns: a named outcome (the key odds group by) and its details."""

    name: str
    detail: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.detail).get(key, default)


Step = Modifier | Lookup | Note | Cite
Chance = Roll | Choice | Pool
Node = Chance | Step
Resolution = Generator[Node, Any, Any]


def total(mods: list[Modifier]) -> int:
    return sum(m.value for m in mods)
