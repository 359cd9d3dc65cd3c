"""Chance extensions: multi-cut rolls, uniform choices, success pools, sub-distributions and
tallies, and the Monte Carlo fallback over the budget. Each new node sums to 1, agrees with a
walk of every face where one is feasible, and with Monte Carlo within its interval."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.chance import (
    Choice,
    Cite,
    Counts,
    Note,
    Pool,
    Roll,
    Sub,
    Tally,
    TreeTooLarge,
    exact,
    monte_carlo,
    sample,
)


def d20_check(target: int):
    """A d20 roll-under check where a natural 1 always passes and a natural 20 always fails."""
    roll = yield Roll("d20", "check", cuts=(1, target, 19))
    if roll == 1:
        return "pass"
    if roll == 20:
        return "fail"
    return "pass" if roll <= target else "fail"


def every_face(fn):
    """`fn` with every roll's cuts and at_most dropped: exact mode then walks each face."""

    def walked(*args):
        gen = fn(*args)
        send = None
        try:
            while True:
                node = gen.send(send)
                if isinstance(node, Roll):
                    node = replace(node, cuts=None, at_most=None)
                send = yield node
        except StopIteration as stop:
            return stop.value

    return walked


@pytest.mark.parametrize("target", [-3, 0, 1, 2, 10, 19, 20, 25])
def test_multi_cut_d20_check_walks_bands_not_faces(target):
    banded = exact(d20_check, target)
    walked = exact(every_face(d20_check), target)
    assert banded.probs == walked.probs
    # a natural 1 and a natural 20 always decide: P(pass) is clamped to [1/20, 19/20]
    assert banded.p("pass") == Fraction(min(19, max(1, target)), 20)
    assert banded.leaves <= 4 < walked.leaves


def test_cut_bands_carry_their_whole_probability():
    bands = Roll("d20", "t", cuts=(1, 12, 19)).branches()
    assert bands == (
        (1, Fraction(1, 20)),
        (2, Fraction(11, 20)),
        (13, Fraction(7, 20)),
        (20, Fraction(1, 20)),
    )


def test_cuts_on_faces_are_refused():
    with pytest.raises(ValueError, match="cuts apply to totals"):
        Roll("2d6", "t", faces=True, cuts=(3,))


def scatter():
    direction = yield Choice(tuple(range(1, 9)), "scatter direction (d8)")
    distance = yield Roll("d6", "scatter distance")
    return ("on target" if distance <= 2 else f"dir {direction}",)


def test_uniform_choice_exact_and_injected():
    d = exact(scatter, key=lambda r: r[0])
    assert d.total() == 1
    assert d.p("on target") == Fraction(1, 3)
    assert d.p("dir 5") == Fraction(1, 8) * Fraction(2, 3)
    res = sample(scatter, dice_script=[5, 6])
    assert res.result == ("dir 5",)
    assert res.rolls[0].value == 5
    assert res.lines()[0].startswith("scatter direction (d8): 5 (choice of 8, die 5)")


def test_weighted_choice_picks_by_cumulative_face():
    c = Choice(("rifle", "lmg", "leader"), "hit falls on", weights=(6, 3, 1))
    assert dict(c.branches()) == {
        "rifle": Fraction(6, 10),
        "lmg": Fraction(3, 10),
        "leader": Fraction(1, 10),
    }
    assert [c.pick(f) for f in (1, 6, 7, 9, 10)] == ["rifle", "rifle", "lmg", "lmg", "leader"]
    with pytest.raises(ValueError, match="positive integer weight"):
        Choice(("a", "b"), "x", weights=(1,))


def squad_fire(count: int, target: int):
    hits = yield Pool(count, 6, target, "squad fire")
    return hits


@pytest.mark.parametrize("count,target", [(1, 3), (3, 2), (5, 4), (4, 0), (4, 6)])
def test_pool_is_binomial(count, target):
    d = exact(squad_fire, count, target, key=lambda r: r)
    p = Fraction(max(0, min(6, target)), 6)
    for k in range(count + 1):
        assert d.p(k) == comb(count, k) * p**k * (1 - p) ** (count - k)
    assert d.total() == 1


def test_pool_at_least_and_sampled_faces():
    node = Pool(3, 20, 15, "hits", under=False)
    assert dict(node.branches())[3] == Fraction(6, 20) ** 3
    res = sample(squad_fire, 3, 2, dice_script=[1, 5, 2])
    assert res.result == 2
    assert res.rolls[0].attempts == ((1, 5, 2),)


def one_shot(to_hit: int, kill: int):
    """A d20 shot: to-hit with naturals, then an effect roll for a hit."""
    yield Cite(("weapon:rifle.effect",))
    roll = yield Roll("d20", "to-hit", cuts=(1, to_hit, 19))
    if roll == 20 or (roll != 1 and roll > to_hit):
        return "miss"
    effect = yield Roll("d20", "effect", cuts=(kill,))
    return "kill" if effect <= kill else "pinned"


def burst(rof: int, to_hit: int, kill: int):
    """A burst of `rof` shots: the target is out of action if any shot kills it."""
    tally = yield Tally(one_shot, rof, (to_hit, kill), label="shot")
    if tally["kill"]:
        return "killed"
    return "pinned" if tally["pinned"] else "unharmed"


def burst_inline(rof: int, to_hit: int, kill: int):
    """The same burst as one flat tree (every roll inline), for comparison."""
    kills = pins = 0
    for _ in range(rof):
        roll = yield Roll("d20", "to-hit", cuts=(1, to_hit, 19))
        if roll == 20 or (roll != 1 and roll > to_hit):
            continue
        effect = yield Roll("d20", "effect", cuts=(kill,))
        kills += effect <= kill
        pins += effect > kill
    return "killed" if kills else ("pinned" if pins else "unharmed")


def test_tally_equals_the_flat_tree_and_by_hand():
    tallied = exact(burst, 4, 12, 5)
    flat = exact(burst_inline, 4, 12, 5)
    assert tallied.probs == flat.probs
    assert tallied.leaves < flat.leaves
    # by hand: one shot kills with 12/20 * 5/20 = 3/20, so a burst of 4 kills 1 - (17/20)^4
    assert tallied.p("killed") == 1 - Fraction(17, 20) ** 4
    assert tallied.p("unharmed") == Fraction(8, 20) ** 4
    assert tallied.placeholders == {"weapon:rifle.effect"}


def test_tally_counts_sampled_and_explained():
    res = sample(burst, 2, 12, 5, dice_script=[3, 2, 20])
    assert res.result == "killed"
    lines = res.lines()
    assert lines[0] == "shot 1 of 2:" and "shot 2 of 2:" in lines
    assert [r.label for r in res.rolls] == ["to-hit", "effect", "to-hit"]
    assert res.placeholders == {"weapon:rifle.effect"}


def test_counts_read_by_key_and_index():
    c = Counts.of({"miss": 2, "kill": 1, "none": 0})
    assert c == (("kill", 1), ("miss", 2))
    assert c["kill"] == 1 and c["pinned"] == 0 and c[0] == ("kill", 1) and c.total == 3


def pick_then(weapon_to_hit: int):
    hit = yield Sub(one_shot, (weapon_to_hit, 5), label="aimed shot")
    return "down" if hit == "kill" else "up"


def test_sub_composes_a_memoised_distribution():
    d = exact(pick_then, 12)
    assert d.p("down") == Fraction(3, 20)
    assert d.leaves == 3  # one branch per outcome of the shot
    assert d.placeholders == {"weapon:rifle.effect"}
    res = sample(pick_then, 12, dice_script=[2, 5])
    assert res.result == "down" and res.lines()[0] == "aimed shot:"


def big_tree():
    total = 0
    for _ in range(6):
        total += yield Roll("d10", "d")
    return "high" if total > 33 else "low"


def test_over_the_budget_falls_back_to_monte_carlo_and_says_so():
    with pytest.raises(TreeTooLarge):
        exact(big_tree, budget=1000)
    est = exact(big_tree, budget=1000, fallback=20_000)
    assert est.method == "monte-carlo" and not est.is_exact and est.samples == 20_000
    truth = exact(big_tree)
    assert truth.is_exact
    for k in truth.probs:
        lo, hi = est.intervals[k]
        assert lo <= float(truth.p(k)) <= hi


@settings(max_examples=40, deadline=None)
@given(
    cuts=st.lists(st.integers(-2, 22), min_size=1, max_size=4),
    notation=st.sampled_from(["d20", "2d6", "3d6", "d10"]),
)
def test_any_cuts_sum_to_one_and_match_every_face(cuts, notation):
    def banded():
        v = yield Roll(notation, "r", cuts=tuple(cuts))
        return sum(v > c for c in cuts)

    def walked():
        v = yield Roll(notation, "r")
        return sum(v > c for c in cuts)

    a, b = exact(banded, key=lambda r: r), exact(walked, key=lambda r: r)
    assert a.total() == 1 and a.probs == b.probs


@settings(max_examples=15, deadline=None)
@given(
    rof=st.integers(0, 5),
    to_hit=st.integers(0, 20),
    kill=st.integers(0, 20),
    seed=st.integers(0, 10**6),
)
def test_burst_sums_to_one_and_monte_carlo_agrees(rof, to_hit, kill, seed):
    d = exact(burst, rof, to_hit, kill)
    assert d.total() == 1
    # z=5: a false alarm ~1e-6 per outcome
    est = monte_carlo(burst, rof, to_hit, kill, n=2000, seed=seed, z=5.0)
    for k, p in d.probs.items():
        lo, hi = est.interval(k)
        assert lo <= float(p) <= hi


def test_choice_pool_and_tally_sum_to_one():
    assert sum(p for _, p in Choice(("a", "b", "a"), "x").branches()) == 1
    assert sum(p for _, p in Pool(7, 10, 3, "x").branches()) == 1
    assert sum(p for _, p in Tally(one_shot, 3, (10, 4)).branches()) == 1
    assert Note("x").text == "x"
