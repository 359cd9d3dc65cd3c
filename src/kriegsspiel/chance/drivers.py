"""Three drivers for one resolution: `sample` (seeded or injected dice, explained), `exact`
(every branch, exact fractions, memoised) and `monte_carlo` (n samples, Wilson intervals)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import dice
from .nodes import Choice, Cite, Lookup, Modifier, Note, Pool, Roll

ResolutionFn = Callable[..., Any]


def outcome_key(result: Any) -> Any:
    """Default grouping of results: their `name`, else the result itself."""
    return getattr(result, "name", result)


# --------------------------------------------------------------------------- sample


@dataclass(frozen=True)
class RollRecord:
    """One roll as it happened: each attempt's faces (several when re-rolled), and the value used."""

    label: str
    dice: str
    attempts: tuple[tuple[int, ...], ...]
    value: Any
    page: str | None = None

    def __str__(self) -> str:
        if self.dice.startswith("choice"):
            return f"{self.label}: {self.value} ({self.dice}, die {self.attempts[0][0]})" + (
                f" ({self.page})" if self.page else ""
            )
        faces = " then ".join("+".join(map(str, a)) for a in self.attempts)
        shown = self.value if not isinstance(self.value, tuple) else "+".join(map(str, self.value))
        page = f" ({self.page})" if self.page else ""
        return (
            f"roll {self.label}: {self.dice} -> {faces}"
            + (f" = {shown}" if len(self.attempts[-1]) > 1 or len(self.attempts) > 1 else "")
            + page
        )


@dataclass
class Explained:
    """A sampled result with everything that led to it, in order."""

    result: Any
    steps: list[Any] = field(default_factory=list)
    placeholders: set[str] = field(default_factory=set)

    @property
    def rolls(self) -> list[RollRecord]:
        return [s for s in self.steps if isinstance(s, RollRecord)]

    def lines(self) -> list[str]:
        return [explain_step(s) for s in self.steps if not isinstance(s, Cite)]


def explain_step(step: Any) -> str:
    page = f" ({step.page})" if getattr(step, "page", None) else ""
    if isinstance(step, RollRecord):
        return str(step)
    if isinstance(step, Modifier):
        return f"modifier {step.name} {step.value:+d}{page}"
    if isinstance(step, Lookup):
        return f"table {step.table}: {step.key} -> {step.result}{page}"
    if isinstance(step, Note):
        return f"{step.text}{page}"
    return str(step)


class DiceSource:
    """Where sampled dice come from: a seeded RNG, or a script of injected values."""

    def __init__(self, rng: random.Random | None = None, script: Iterable[int] | None = None):
        self.rng = rng or random.Random()
        self.script: Iterator[int] | None = iter(script) if script is not None else None

    def face(self, sides: int, label: str) -> int:
        if self.script is None:
            return self.rng.randint(1, sides)
        try:
            value = next(self.script)
        except StopIteration:
            raise ValueError(f"injected dice ran out at {label!r}") from None
        if not 1 <= value <= sides:
            raise ValueError(f"injected die {value} for {label!r} is not a d{sides} face")
        return value

    def roll(self, node: Roll) -> tuple[tuple[tuple[int, ...], ...], Any]:
        spec = dice.parse(node.dice)
        attempts = []
        for _ in range(1000):
            faces = tuple(self.face(spec.sides, node.label) for _ in range(spec.count))
            attempts.append(faces)
            value = faces if node.faces else sum(faces) + spec.bonus
            if value not in node.reroll:
                return tuple(attempts), value
        raise RuntimeError(f"{node.label}: re-rolled 1000 times")


def sample(
    fn: ResolutionFn,
    *args: Any,
    rng: random.Random | None = None,
    seed: int | None = None,
    dice_script: Iterable[int] | None = None,
    **kwargs: Any,
) -> Explained:
    """Run the resolution once with real (seeded) or injected dice, recording every step."""
    if rng is None and seed is not None:
        rng = random.Random(seed)
    out = Explained(None)
    out.result = drive(fn(*args, **kwargs), DiceSource(rng, dice_script), out)
    return out


def drive(gen: Any, source: DiceSource, out: Explained | None) -> Any:
    """Run one resolution generator to its result with dice from `source`, recording its
    steps into `out` (None: keep nothing, as Monte Carlo does)."""
    send: Any = None
    try:
        while True:
            node = gen.send(send)
            send = None
            kind = type(node)
            if kind is Roll:
                attempts, value = source.roll(node)
                if out is not None:
                    out.steps.append(RollRecord(node.label, node.dice, attempts, value, node.page))
                send = value
            elif kind is Choice:
                face = source.face(node.sides, node.label)
                send = node.pick(face)
                if out is not None:
                    what = f"choice of {len(node.options)}"
                    out.steps.append(RollRecord(node.label, what, ((face,),), send, node.page))
            elif kind is Pool:
                faces = tuple(source.face(node.sides, node.label) for _ in range(node.count))
                send = sum(1 for f in faces if node.succeeds(f))
                if out is not None:
                    test = f"{'<=' if node.under else '>='}{node.target}"
                    notation = f"{node.count}d{node.sides} {test}"
                    out.steps.append(RollRecord(node.label, notation, (faces,), send, node.page))
            elif hasattr(node, "draw"):  # Sub, Tally: a whole sub-resolution
                send = node.draw(source, out)
            elif out is not None:
                if kind is Cite:
                    out.placeholders.update(node.labels)
                out.steps.append(node)
    except StopIteration as stop:
        return stop.value


def sample_fast(fn: ResolutionFn, args: tuple, kwargs: dict, rng: random.Random) -> Any:
    """Run the resolution once with an RNG, keeping only the result (for Monte Carlo)."""
    gen = fn(*args, **kwargs)
    send: Any = None
    randint = rng.randint
    try:
        while True:
            node = gen.send(send)
            send = None
            if type(node) is Roll:
                spec = dice.parse(node.dice)
                while True:
                    faces = tuple(randint(1, spec.sides) for _ in range(spec.count))
                    value = faces if node.faces else sum(faces) + spec.bonus
                    if value not in node.reroll:
                        break
                send = value
            elif type(node) in _STEPS:
                continue
            else:
                send = drive(_once(node), DiceSource(rng), None)
    except StopIteration as stop:
        return stop.value


_STEPS = (Modifier, Lookup, Note, Cite)


def _once(node: Any) -> Any:
    """A one-node resolution: lets `drive` draw any chance node for Monte Carlo."""
    value = yield node
    return value


# --------------------------------------------------------------------------- exact


@dataclass(frozen=True)
class Distribution:
    """Exact probabilities of each outcome key, and the placeholder fields any branch used."""

    probs: dict[Any, Fraction]
    placeholders: frozenset[str] = frozenset()
    leaves: int = 0
    # one result per key (what a `Sub` node sends back in exact mode)
    examples: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    # "exact", or "monte-carlo" when the tree exceeded the budget and `fallback` was asked
    method: str = "exact"
    samples: int = 0
    intervals: dict[Any, tuple[float, float]] = field(
        default_factory=dict, compare=False, repr=False
    )

    @property
    def is_exact(self) -> bool:
        return self.method == "exact"

    def p(self, key: Any) -> Fraction:
        return self.probs.get(key, Fraction(0))

    def total(self) -> Fraction:
        return sum(self.probs.values(), Fraction(0))

    def floats(self) -> dict[Any, float]:
        return {k: float(v) for k, v in self.probs.items()}

    def exact_strings(self) -> dict[Any, str]:
        return {k: f"{v.numerator}/{v.denominator}" for k, v in self.probs.items()}

    def expect(self, value: Callable[[Any], float | Fraction]) -> Fraction:
        return sum((p * Fraction(value(k)) for k, p in self.probs.items()), Fraction(0))


_CACHE: dict[Any, Distribution] = {}
_CACHE_LIMIT = 50_000


def _replay(
    fn: ResolutionFn, args: tuple, kwargs: dict, prefix: tuple
) -> tuple[Any, Any, set[str]]:
    """Run the generator feeding `prefix` as the first roll values. Returns either
    (next Roll, None, placeholders) or (None, result, placeholders)."""
    gen = fn(*args, **kwargs)
    used: set[str] = set()
    i = 0
    send: Any = None
    try:
        while True:
            node = gen.send(send)
            send = None
            kind = type(node)
            if kind is Cite:
                used.update(node.labels)
            elif kind not in _STEPS:  # a chance node
                if i == len(prefix):
                    gen.close()
                    return node, None, used
                send = prefix[i]
                i += 1
    except StopIteration as stop:
        return None, stop.value, used


def exact(
    fn: ResolutionFn,
    *args: Any,
    key: Callable[[Any], Any] = outcome_key,
    budget: int = 1_000_000,
    fallback: int | None = None,
    **kwargs: Any,
) -> Distribution:
    """Walk every branch of the resolution's chance tree with exact probabilities.

    Results are memoised on (resolution, arguments, key), so arguments must be hashable. A
    resolution may carry a `memo_key(*args, **kwargs)` attribute that maps its arguments to
    the part that decides the odds (e.g. a range to its range band), so that situations with
    the same odds share one entry. When more than `budget` leaves would be visited, raises
    `TreeTooLarge`, or with `fallback=N` returns a Monte Carlo estimate from N seeded samples
    (`method == "monte-carlo"`, with Wilson `intervals`), which says so rather than pass for
    exact odds.
    """
    memo_key = getattr(fn, "memo_key", None)
    memo_args = memo_key(*args, **kwargs) if memo_key is not None else args
    cache_key = (fn, memo_args, tuple(sorted(kwargs.items())), key)
    try:
        hit = _CACHE.get(cache_key)
    except TypeError:  # unhashable arguments: compute without the memo
        hit, cache_key = None, None
    if hit is not None:
        return hit
    probs: dict[Any, Fraction] = {}
    examples: dict[Any, Any] = {}
    placeholders: set[str] = set()
    leaves = 0
    stack: list[tuple[tuple, Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        node, result, used = _replay(fn, args, kwargs, prefix)
        placeholders |= used
        if node is None:
            leaves += 1
            if leaves > budget:
                if fallback is None:
                    raise TreeTooLarge(f"exact tree exceeds {budget} leaves; use monte_carlo")
                return _estimated(fn, args, kwargs, key, fallback, placeholders)
            k = key(result)
            if k not in probs:
                probs[k] = Fraction(0)
                examples[k] = result
            probs[k] += p
            continue
        if type(node) is not Roll and hasattr(node, "placeholders"):
            placeholders |= node.placeholders()
        for value, q in node.branches():
            stack.append(((*prefix, value), p * q))
    dist = Distribution(probs, frozenset(placeholders), leaves, examples)
    if cache_key is not None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[cache_key] = dist
    return dist


def _estimated(
    fn: ResolutionFn, args: tuple, kwargs: dict, key: Callable, n: int, seen: set[str]
) -> Distribution:
    """The Monte Carlo stand-in for a tree over the budget (seeded, so repeatable)."""
    est = monte_carlo(fn, *args, n=n, seed=0, key=key, **kwargs)
    out = sample(fn, *args, seed=0, **kwargs)  # the placeholders of one run at least
    probs = {k: Fraction(c, n) for k, c in est.counts.items()}
    return Distribution(
        probs,
        frozenset(seen | out.placeholders),
        0,
        {},
        "monte-carlo",
        n,
        {k: est.interval(k) for k in est.counts},
    )


class TreeTooLarge(RuntimeError):
    """The exact chance tree is larger than the budget allows."""


def clear_cache() -> None:
    _CACHE.clear()


# --------------------------------------------------------------------------- Monte Carlo


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    phat = successes / n
    denom = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Estimate:
    """Monte Carlo estimate of each outcome's probability with its confidence interval."""

    counts: dict[Any, int]
    n: int
    z: float

    def p(self, key: Any) -> float:
        return self.counts.get(key, 0) / self.n

    def interval(self, key: Any) -> tuple[float, float]:
        return wilson(self.counts.get(key, 0), self.n, self.z)

    def floats(self) -> dict[Any, float]:
        return {k: c / self.n for k, c in self.counts.items()}


def monte_carlo(
    fn: ResolutionFn,
    *args: Any,
    n: int = 10_000,
    seed: int = 0,
    key: Callable[[Any], Any] = outcome_key,
    z: float = 1.959963984540054,
    **kwargs: Any,
) -> Estimate:
    """Estimate outcome probabilities from `n` seeded samples."""
    if n < 1:
        raise ValueError("monte_carlo needs n >= 1")
    rng = random.Random(seed)
    counts: Counter = Counter()
    for _ in range(n):
        counts[key(sample_fast(fn, args, kwargs, rng))] += 1
    return Estimate(dict(counts), n, z)
