"""The three drivers agree on one resolution; dice notation; re-roll conditioning."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.chance import Note, Roll, exact, monte_carlo, sample
from kriegsspiel.chance.dice import parse, total_distribution


def shot(need: int, kill: int):
    roll = yield Roll("1d10", "to-hit")
    yield Note("rolled")
    if roll > need:
        return "miss"
    effect = yield Roll("2d10", "effect")
    return "kill" if effect <= kill else "none"


def test_exact_by_hand():
    d = exact(shot, 8, 5)
    # P(hit)=8/10; P(2d10<=5)=10/100
    assert d.p("miss") == Fraction(1, 5)
    assert d.p("kill") == Fraction(8, 10) * Fraction(10, 100)
    assert d.total() == 1


def test_sample_records_every_roll_and_injected_dice():
    res = sample(shot, 8, 5, dice_script=[3, 1, 2])
    assert res.result == "kill"
    assert [r.label for r in res.rolls] == ["to-hit", "effect"]
    assert res.rolls[1].attempts == ((1, 2),)
    assert "rolled" in res.lines()


def test_injected_die_out_of_range_is_an_error():
    with pytest.raises(ValueError, match="not a d10 face"):
        sample(shot, 8, 5, dice_script=[11])


def test_seeded_sampling_is_reproducible():
    a = [sample(shot, 6, 9, seed=s).result for s in range(50)]
    b = [sample(shot, 6, 9, rng=random.Random(s)).result for s in range(50)]
    assert a == b


def reroll_ties():
    a, b = yield Roll(
        "2d10", "initiative", faces=True, reroll=frozenset((x, x) for x in range(1, 11))
    )
    return "A" if a > b else "B"


def test_reroll_conditioning_exact_and_sampled():
    d = exact(reroll_ties)
    assert d.p("A") == Fraction(1, 2)
    res = sample(reroll_ties, dice_script=[4, 4, 7, 7, 2, 9])
    assert res.result == "B"
    assert len(res.rolls[0].attempts) == 3


@pytest.mark.parametrize(
    "notation,lo,hi,n",
    [
        ("1d10", 1, 10, 10),
        ("2d10", 2, 20, 19),
        ("3d6", 3, 18, 16),
        ("d20", 1, 20, 20),
        ("d3", 1, 3, 3),
        ("2d6+1", 3, 13, 11),
    ],
)
def test_notation(notation, lo, hi, n):
    dist = total_distribution(notation)
    assert (min(v for v, _ in dist), max(v for v, _ in dist), len(dist)) == (lo, hi, n)
    assert sum(p for _, p in dist) == 1


def test_bad_notation():
    with pytest.raises(ValueError, match="bad dice notation"):
        parse("2x10")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 11), st.integers(1, 21))
def test_exact_sums_to_one(need, kill):
    assert exact(shot, need, kill).total() == 1


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 10), st.integers(2, 20), st.integers(0, 10_000))
def test_monte_carlo_agrees_with_exact(need, kill, seed):
    d = exact(shot, need, kill)
    est = monte_carlo(shot, need, kill, n=4000, seed=seed, z=4.0)  # z=4: a false alarm ~1e-4
    for k, p in d.probs.items():
        lo, hi = est.interval(k)
        assert lo <= float(p) <= hi, (k, p, lo, hi)


def test_memo_returns_same_object():
    assert exact(shot, 7, 7) is exact(shot, 7, 7)
