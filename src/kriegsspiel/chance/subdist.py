"""Chance nodes that stand for a whole sub-resolution: `Sub` (one run of it) and `Tally` (n
independent runs, counted by outcome).

Exact mode does not walk the sub-resolution's tree inside the caller's: it takes the memoised
distribution of the sub-resolution (`exact`) and branches once per outcome. A burst of four
shots, each with a to-hit and an effect roll, is one `Tally` of four over a handful of
outcomes instead of a tree of every face of eight rolls. Sampling runs the sub-resolution
inline, so its rolls appear in the explanation in order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from . import drivers
from .drivers import outcome_key


def _items(kwargs: Any) -> tuple:
    return tuple(sorted(kwargs.items())) if isinstance(kwargs, dict) else tuple(kwargs)


@dataclass(frozen=True)
class Sub:
    """One run of resolution `fn(*args, **kwargs)`. The value sent back is its result (in
    exact mode, one representative result per outcome key: the caller must depend on the
    result only through `key`)."""

    fn: Callable[..., Any]
    args: tuple = ()
    kwargs: tuple = ()  # (name, value) pairs, hashable
    label: str = ""
    key: Callable[[Any], Any] = outcome_key
    page: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kwargs", _items(self.kwargs))

    def distribution(self) -> drivers.Distribution:
        return drivers.exact(self.fn, *self.args, key=self.key, **dict(self.kwargs))

    def branches(self) -> tuple[tuple[Any, Fraction], ...]:
        d = self.distribution()
        return tuple((d.examples[k], p) for k, p in d.probs.items())

    def placeholders(self) -> frozenset[str]:
        return self.distribution().placeholders

    def draw(self, source: drivers.DiceSource, out: drivers.Explained | None) -> Any:
        if out is not None and self.label:
            out.steps.append(drivers.Note(f"{self.label}:", self.page))
        return drivers.drive(self.fn(*self.args, **dict(self.kwargs)), source, out)


@dataclass(frozen=True)
class Tally:
    """`n` independent runs of resolution `fn(*args, **kwargs)`, counted by outcome key. The
    value sent back is a `Counts`: ((key, count), ...) with count > 0, in a canonical order."""

    fn: Callable[..., Any]
    n: int
    args: tuple = ()
    kwargs: tuple = ()
    label: str = ""
    key: Callable[[Any], Any] = outcome_key
    page: str | None = None

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError(f"{self.label}: a tally of {self.n} runs")
        object.__setattr__(self, "kwargs", _items(self.kwargs))

    def one(self) -> drivers.Distribution:
        return drivers.exact(self.fn, *self.args, key=self.key, **dict(self.kwargs))

    def branches(self) -> tuple[tuple[Counts, Fraction], ...]:
        single = tuple(self.one().probs.items())
        return _convolve(single, self.n)

    def placeholders(self) -> frozenset[str]:
        return self.one().placeholders if self.n else frozenset()

    def draw(self, source: drivers.DiceSource, out: drivers.Explained | None) -> Counts:
        counts: dict[Any, int] = {}
        for i in range(self.n):
            if out is not None:
                out.steps.append(drivers.Note(f"{self.label or 'run'} {i + 1} of {self.n}:"))
            result = drivers.drive(self.fn(*self.args, **dict(self.kwargs)), source, out)
            k = self.key(result)
            counts[k] = counts.get(k, 0) + 1
        return Counts.of(counts)


class Counts(tuple):
    """A tally of outcome keys: ((key, count), ...), counts > 0, sorted by the key's repr so
    that sampled and exact tallies compare equal. `counts[key]` reads one count (0 if none)."""

    @classmethod
    def of(cls, counts: dict[Any, int]) -> Counts:
        return cls(sorted(((k, c) for k, c in counts.items() if c), key=lambda kc: repr(kc[0])))

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        if isinstance(key, int | slice) and not isinstance(key, bool):
            return tuple.__getitem__(self, key)
        return dict(self).get(key, 0)

    def count(self, key: Any) -> int:  # type: ignore[override]
        return dict(self).get(key, 0)

    @property
    def total(self) -> int:
        return sum(c for _, c in self)


@cache
def _convolve(
    single: tuple[tuple[Any, Fraction], ...], n: int
) -> tuple[tuple[Counts, Fraction], ...]:
    """The distribution of the counts of n independent draws from `single` (a multinomial),
    by adding one draw at a time: as many states as there are compositions of n."""
    states: dict[tuple[int, ...], Fraction] = {(0,) * len(single): Fraction(1)}
    for _ in range(n):
        nxt: dict[tuple[int, ...], Fraction] = {}
        for counts, p in states.items():
            for i, (_, q) in enumerate(single):
                c = counts[:i] + (counts[i] + 1,) + counts[i + 1 :]
                nxt[c] = nxt.get(c, Fraction(0)) + p * q
        states = nxt
    keys = [k for k, _ in single]
    return tuple(
        (Counts.of(dict(zip(keys, counts, strict=True))), p) for counts, p in states.items()
    )
