"""Direct fire at vehicles: golden cases W1-W3 and E3 of the digest (quickref.md §5), computed by
hand from the charts (L1, L3, L6) and the Tank Hit Effect (L2)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.chance import exact, monte_carlo
from kriegsspiel.data import RuleError
from kriegsspiel.rulesets.quickref.direct_fire import Shot, direct_fire
from kriegsspiel.rulesets.quickref.he_fire import HETarget, he_direct


@pytest.fixture(scope="module")
def v(qr):
    return lambda ident: qr.cat.get("vehicle", ident)


def test_w1_tiger_at_t34(qr, v):
    d = exact(direct_fire, qr, Shot(v("ger/pzkw-vi"), v("rus/t-34-m41"), 20))
    assert (d.p("ko"), d.p("miss"), d.p("damaged")) == (F(4, 5), F(1, 5), 0)
    hard = exact(
        direct_fire,
        qr,
        Shot(v("ger/pzkw-vi"), v("rus/t-34-m41"), 20, firer_buttoned=True, target_moved=True),
    )
    assert hard.p("ko") == F(3, 5)


def test_w1_reply_t34_at_tiger(qr, v):
    front = exact(direct_fire, qr, Shot(v("rus/t-34-m41"), v("ger/pzkw-vi"), 20))
    assert front.p("ineffective") == F(2, 5) and front.p("ko") == 0
    side = exact(direct_fire, qr, Shot(v("rus/t-34-m41"), v("ger/pzkw-vi"), 20, aspect="side"))
    assert (
        side.p("ko"),
        side.p("damaged"),
        side.p("tracked"),
        side.p("ineffective"),
        side.p("miss"),
    ) == (F(1, 25), F(3, 25), F(2, 25), F(4, 25), F(3, 5))
    rear = exact(direct_fire, qr, Shot(v("rus/t-34-m41"), v("ger/pzkw-vi"), 20, aspect="rear"))
    assert rear.probs == side.probs  # no rear value: rear shots use side armour (Q8)


def test_w2_t34_85_at_moving_panther(qr, v):
    d = exact(direct_fire, qr, Shot(v("rus/t-34-85"), v("ger/pzkw-v"), 15, target_moved=True))
    assert (d.p("ko"), d.p("damaged"), d.p("tracked"), d.p("ineffective"), d.p("miss")) == (
        F(21, 100),
        F(21, 100),
        F(7, 50),
        F(7, 50),
        F(3, 10),
    )


def test_w3_pz4_at_sherman_in_woods(qr, v):
    side = exact(
        direct_fire,
        qr,
        Shot(
            v("ger/pzkw-iv-h"),
            v("usa/m4-medium-tank"),
            30,
            aspect="side",
            firer_moved="half",
            terrain="woods",
        ),
    )
    assert side.p("ko") == F(3, 10) and side.p("miss") == F(7, 10)
    front = exact(
        direct_fire,
        qr,
        Shot(v("ger/pzkw-iv-h"), v("usa/m4-medium-tank"), 30, firer_moved="half", terrain="woods"),
    )
    assert (front.p("ko"), front.p("damaged"), front.p("miss")) == (F(21, 100), F(9, 100), F(7, 10))


def test_late_armour_variant(qr, v):
    late = exact(
        direct_fire,
        qr,
        Shot(v("ger/pzkw-iv-h"), v("usa/m4-medium-tank"), 30, target_variant="late_armour"),
    )
    # long band: to-hit 5 (1/2), pen 11 - 10 = +1: KO on d10 >= 5 (6/10)
    assert late.p("ko") == F(1, 2) * F(6, 10)


def test_damaged_firer_and_range_rules(qr, v):
    d = exact(direct_fire, qr, Shot(v("ger/pzkw-vi"), v("rus/t-34-m41"), 20, firer_damaged=True))
    assert d.p("miss") == F(2, 5)  # d10 + 2 <= 8
    with pytest.raises(RuleError, match="beyond its longest band 63"):
        exact(direct_fire, qr, Shot(v("ger/pzkw-vi"), v("rus/t-34-m41"), 64))
    with pytest.raises(RuleError, match="more than half"):
        exact(
            direct_fire, qr, Shot(v("ger/pzkw-vi"), v("rus/t-34-m41"), 20, firer_moved="over_half")
        )
    relaxed = qr.with_options(firer_moved_over_half="plus_one")
    assert exact(
        direct_fire, relaxed, Shot(v("ger/pzkw-vi"), v("rus/t-34-m41"), 20, firer_moved="over_half")
    ).p("miss") == F(3, 10)


def test_german_merged_buttoned_option(qr, v):
    shot = Shot(v("ger/pzkw-vi"), v("rus/t-34-m41"), 20, target_moved=True, firer_buttoned=True)
    assert exact(direct_fire, qr, shot).p("miss") == F(2, 5)
    merged = qr.with_options(german_buttoned="merged")
    assert exact(direct_fire, merged, shot).p("miss") == F(3, 10)


def test_hmg_against_a_halftrack(qr, v):
    hmg = qr.cat.get("infantry", "hmg-team")
    d = exact(direct_fire, qr, Shot(hmg, v("ger/spw-250-251"), 10, aspect="side"))
    # to-hit 8 (4/5), pen 1 - armour 1 = 0: d10 1-2 tracked, 3-5 damaged, 6+ KO
    assert (d.p("ko"), d.p("damaged"), d.p("tracked")) == (
        F(4, 5) * F(5, 10),
        F(4, 5) * F(3, 10),
        F(4, 5) * F(2, 10),
    )
    with pytest.raises(RuleError, match="beyond"):
        exact(direct_fire, qr, Shot(hmg, v("ger/spw-250-251"), 13))


def test_infantry_at_weapons(qr, v):
    piat = exact(direct_fire, qr, Shot(v("bri/piat"), v("ger/pzkw-v"), 4))
    # PIAT: to-hit 4 (2/5); pen 14 - Panther front 15 = -1, KO on d10 >= 7 (4/10)
    assert piat.p("miss") == F(3, 5) and piat.p("ko") == F(2, 5) * F(4, 10)


def test_e3_direct_he_on_a_building(qr, v):
    pz4 = v("ger/pzkw-iv-h")
    d = exact(he_direct, qr, Shot(pz4, pz4, 15), HETarget("infantry", "building"))
    assert (
        d.p("kia"),
        d.p("hit"),
        d.p("retreat"),
        d.p("suppressed"),
        d.p("none"),
        d.p("miss"),
    ) == (F(3, 125), F(7, 125), F(11, 125), F(24, 125), F(11, 25), F(1, 5))  # nothing = 16/25


def test_m3_medium_alternative_gun(qr, v):
    m3 = v("usa/m3-medium-tank")
    main = exact(direct_fire, qr, Shot(m3, v("ger/pzkw-iv-h"), 10, aspect="side"))
    alt = exact(direct_fire, qr, Shot(m3, v("ger/pzkw-iv-h"), 10, aspect="side", weapon="75mm"))
    assert alt.p("ko") > main.p("ko")
    with pytest.raises(RuleError, match="no weapon"):
        exact(direct_fire, qr, Shot(m3, v("ger/pzkw-iv-h"), 10, weapon="88mm"))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 63),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["front", "side"]),
    st.sampled_from([None, "woods", "hills", "building"]),
)
def test_more_penalties_never_help(qr, rng, moved, buttoned, aspect, terrain):
    tiger = qr.cat.get("vehicle", "ger/pzkw-vi")
    m4 = qr.cat.get("vehicle", "usa/m4-medium-tank")
    base = exact(direct_fire, qr, Shot(tiger, m4, rng, aspect=aspect, terrain=terrain))
    worse = exact(
        direct_fire,
        qr,
        Shot(
            tiger,
            m4,
            rng,
            aspect=aspect,
            terrain=terrain,
            target_moved=moved,
            firer_buttoned=buttoned,
            firer_damaged=True,
        ),
    )
    assert base.total() == 1 and worse.total() == 1
    assert worse.p("miss") >= base.p("miss")


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 1000))
def test_monte_carlo_within_interval(qr, seed):
    shot = Shot(qr.cat.get("vehicle", "rus/t-34-85"), qr.cat.get("vehicle", "ger/pzkw-v"), 15)
    d = exact(direct_fire, qr, shot)
    # z = 5: over the 1001 seeds x 5 outcomes a 4-sigma interval misses about once by chance
    # alone (seed 99 'tracked' did: 0.16 just under 0.1605); 5 sigma leaves ~0.3 % for all
    est = monte_carlo(direct_fire, qr, shot, n=3000, seed=seed, z=5.0)
    for k, p in d.probs.items():
        lo, hi = est.interval(k)
        assert lo <= float(p) <= hi


@settings(max_examples=40, deadline=None)
@given(
    st.floats(0.5, 63.0),
    st.sampled_from(["front", "side"]),
    st.sampled_from(["none", "half"]),
    st.sampled_from([None, "woods"]),
)
def test_odds_depend_on_range_only_through_its_band(qr, rng, aspect, moved, terrain):
    """`direct_fire.memo_key` lets shots in one range band share their exact odds; walking the
    tree without the memo (the band's own edge against the range itself) agrees."""
    from kriegsspiel.chance import drivers

    tiger, m4 = qr.cat.get("vehicle", "ger/pzkw-vi"), qr.cat.get("vehicle", "usa/m4-medium-tank")
    shot = Shot(tiger, m4, rng, aspect=aspect, firer_moved=moved, terrain=terrain)
    shared = exact(direct_fire, qr, shot)
    drivers.clear_cache()
    edge = tiger.gun.range[tiger.gun.band(rng)]
    alone = exact(
        direct_fire, qr, Shot(tiger, m4, edge, aspect=aspect, firer_moved=moved, terrain=terrain)
    )
    drivers.clear_cache()
    walked = exact(lambda *a: direct_fire(*a), qr, shot)  # no memo_key on the wrapper
    assert shared.probs == alone.probs == walked.probs
    assert shared.placeholders == walked.placeholders


def test_a_rear_shot_has_a_side_shots_odds(qr):
    """Rear shots use side armour (Q8): the memo shares their odds, and a walk of the rear shot
    without the memo agrees."""
    from kriegsspiel.chance import drivers

    tiger, m4 = qr.cat.get("vehicle", "ger/pzkw-vi"), qr.cat.get("vehicle", "usa/m4-medium-tank")
    for rng in (5.0, 30.0):
        side = exact(direct_fire, qr, Shot(m4, tiger, rng, aspect="side"))
        drivers.clear_cache()
        rear = exact(lambda *a: direct_fire(*a), qr, Shot(m4, tiger, rng, aspect="rear"))
        assert rear.probs == side.probs and rear.placeholders == side.placeholders
        assert exact(direct_fire, qr, Shot(m4, tiger, rng, aspect="rear")).probs == side.probs
