"""What a resolution yields: chance nodes (`Roll`) and explanation steps.

A resolution is a generator. It yields a `Roll` and receives the value rolled; it yields
explanation steps (`Modifier`, `Lookup`, `Note`, `Cite`) and receives None; it returns its result.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from fractions import Fraction
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
    """

    dice: str
    label: str
    page: str | None = None
    faces: bool = False
    reroll: frozenset = field(default_factory=frozenset)
    at_most: int | None = None

    def distribution(self) -> tuple[tuple[Any, Fraction], ...]:
        return _conditioned(self.dice, self.faces, self.reroll)

    def branches(self) -> tuple[tuple[Any, Fraction], ...]:
        """The values exact mode walks, with their probabilities: every value, or with
        `at_most` the lowest value of each side of the test carrying the side's total."""
        dist = self.distribution()
        if self.at_most is None or self.faces:
            return dist
        sides: dict[bool, list] = {}
        for v, p in dist:
            side = sides.setdefault(v <= self.at_most, [v, Fraction(0)])
            side[1] += p
        return tuple((v, p) for v, p in sides.values())


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
Node = Roll | Step
Resolution = Generator[Node, Any, Any]


def total(mods: list[Modifier]) -> int:
    return sum(m.value for m in mods)
