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
    est = monte_carlo(shot, need, kill, n=4000, seed=seed, z=5.0)  # z=5: a false alarm ~1e-6
    for k, p in d.probs.items():
        lo, hi = est.interval(k)
        assert lo <= float(p) <= hi, (k, p, lo, hi)


def test_memo_returns_same_object():
    assert exact(shot, 7, 7) is exact(shot, 7, 7)


def _every_value(fn):
    """`fn` with each roll's `at_most` dropped, so that exact mode walks every value."""
    from dataclasses import replace

    def walked(*args):
        gen = fn(*args)
        send = None
        try:
            while True:
                node = gen.send(send)
                send = yield (replace(node, at_most=None) if isinstance(node, Roll) else node)
        except StopIteration as stop:
            return stop.value

    return walked


def _roll_under(need: int, extra: int):
    roll = yield Roll("1d10", "test", at_most=need)
    yield Note(f"rolled {roll}")  # the value itself only explains
    if roll > need:
        return "fail"
    second = yield Roll("2d6", "effect")
    return "big" if second + extra >= 9 else "small"


@given(st.integers(-2, 12), st.integers(-3, 3))
def test_a_roll_under_walks_one_value_per_side_with_the_same_odds(need, extra):
    grouped = exact(_roll_under, need, extra)
    full = exact(_every_value(_roll_under), need, extra)
    assert grouped.probs == full.probs and list(grouped.probs) == list(full.probs)
    assert grouped.leaves <= full.leaves
    if 1 <= need < 10:
        assert Roll("1d10", "t", at_most=need).branches() == (
            (1, Fraction(need, 10)),
            (need + 1, Fraction(10 - need, 10)),
        )


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["ger/pzkw-vi", "ger/pzkw-iv-h", "usa/m4-medium-tank"]),
    st.sampled_from(["ger/pzkw-v", "usa/m4-medium-tank", "usa/m5-light-tank"]),
    st.floats(0.5, 40.0),
    st.sampled_from(["front", "side", "rear"]),
    st.sampled_from(["none", "half"]),
    st.booleans(),
)
def test_direct_fire_odds_walking_every_to_hit_value_agree(firer, target, rng, aspect, moved, tm):
    """The to-hit roll is a roll-under (`at_most`): its odds equal a walk of every value."""
    from kriegsspiel.chance import drivers
    from kriegsspiel.rulesets.quickref.direct_fire import Shot, direct_fire
    from kriegsspiel.rulesets.quickref.tables import rules

    qr = rules()
    f, t = qr.cat.get("vehicle", firer), qr.cat.get("vehicle", target)
    if f.gun is None or f.gun.band(rng) is None:
        return
    shot = Shot(f, t, rng, aspect=aspect, firer_moved=moved, target_moved=tm)
    drivers.clear_cache()
    grouped = exact(direct_fire, qr, shot)
    full = exact(_every_value(direct_fire), qr, shot)
    assert grouped.probs == full.probs
    assert grouped.placeholders == full.placeholders
