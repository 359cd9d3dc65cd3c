"""Invariants of the Battleground resolutions (hypothesis): distributions sum to 1, sampling
agrees with the exact odds, fire weakens with range and cover, quality helps."""

from __future__ import annotations

from fractions import Fraction

from bg_helpers import odds, query
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kriegsspiel.chance import monte_carlo
from kriegsspiel.rulesets.battleground.rules.effects import CASUALTY, COVERS

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
WEAPONS = ("kar98k", "mp40", "mg42_lmg", "m1_garand", "bar", "colt_1911a1", "maxim_1910")


def casualty(d) -> Fraction:
    return sum((d.p(k) for k in CASUALTY), Fraction(0))


@SETTINGS
@given(st.sampled_from(WEAPONS), st.integers(0, 120), st.sampled_from(COVERS), st.booleans())
def test_fire_sums_to_one_and_weakens_with_range(cat, weapon, rng, cover, prone):
    near = odds(cat, "fire", weapon=weapon, range=rng, cover=cover, prone=prone)
    far = odds(cat, "fire", weapon=weapon, range=rng + 10, cover=cover, prone=prone)
    assert sum(near.probs.values()) == 1
    assert casualty(far) <= casualty(near)


@SETTINGS
@given(st.sampled_from(WEAPONS), st.integers(0, 60))
def test_cover_and_quality(cat, weapon, rng):
    open_ = odds(cat, "fire", weapon=weapon, range=rng)
    wall = odds(cat, "fire", weapon=weapon, range=rng, cover="wall")
    assert casualty(wall) <= casualty(open_)
    green = odds(cat, "fire", weapon=weapon, range=rng, quality="green")
    elite = odds(cat, "fire", weapon=weapon, range=rng, quality="elite")
    assert casualty(green) <= casualty(open_) <= casualty(elite)


@SETTINGS
@given(st.integers(0, 200), st.booleans(), st.booleans(), st.sampled_from(("infantry", "vehicle")))
def test_sighting_monotone_in_range(cat, rng, concealed, moving, target):
    p = [
        odds(cat, "sight", range=r, concealed=concealed, moving=moving, target=target).p("sighted")
        for r in (rng, rng + 5)
    ]
    assert p[1] <= p[0]


@SETTINGS
@given(st.integers(1, 20), st.sampled_from(("normal", "half", "quarter")), st.booleans())
def test_checks_sum_to_one_and_severity_hurts(cat, morale, severity, wounded):
    d = odds(cat, "morale", morale=str(morale), severity=severity, light_wound=wounded)
    assert sum(d.probs.values()) == 1
    assert d.p("pass") <= odds(cat, "morale", morale=str(morale)).p("pass")


@SETTINGS
@given(st.integers(1, 150), st.sampled_from(("front", "side", "rear")), st.booleans())
def test_tank_fire_sums_to_one_and_weakens_with_range(cat, rng, facing, hull_down):
    kw = dict(firer="pziv_h", target="m4_sherman", facing=facing, hull_down=hull_down)
    near, far = (
        odds(cat, "tank-fire", range=rng, **kw),
        odds(cat, "tank-fire", range=rng + 40, **kw),
    )
    assert sum(near.probs.values()) == 1
    hit = lambda d: 1 - d.p("miss") - d.p("jam") - d.p("fouled")  # noqa: E731
    assert hit(far) <= hit(near)


def test_monte_carlo_within_interval(cat):
    for name, params in (
        ("fire", dict(weapon="mg42_lmg", range=20, cover="hedge")),
        ("tank-fire", dict(firer="m4_sherman", target="pziv_h", range=30, facing="side")),
        ("grenade", dict(range=2)),
    ):
        q = query(cat, name, **params)
        exact_d = odds(cat, name, **params)
        est = monte_carlo(q.fn, *q.args, n=4000, seed=7, z=4.0)
        for k, p in exact_d.probs.items():
            lo, hi = est.interval(k)
            assert lo <= float(p) <= hi, (name, k)
