"""Small-arms fire: golden cases W4-W6 of the digest (quickref.md §5), computed by hand from L2."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.chance import exact
from kriegsspiel.data import RuleError
from kriegsspiel.rulesets.quickref.small_arms import (
    Member,
    SmallArms,
    group_attack,
    small_arms,
    soft_vehicle_fire,
)


def odds(qr, atk):
    return exact(small_arms, qr, atk)


def test_w4a_squad_in_the_open(qr):
    d = odds(qr, SmallArms(2))
    assert (d.p("kia"), d.p("hit"), d.p("retreat"), d.p("suppressed"), d.p("none")) == (
        F(1, 100),
        F(1, 20),
        F(9, 100),
        F(21, 100),
        F(16, 25),
    )


def test_w4b_long_range_into_woods(qr):
    d = odds(qr, SmallArms(2, long_range=True, terrain="woods"))
    assert (d.p("retreat"), d.p("suppressed"), d.p("none"), d.p("hit")) == (
        F(1, 100),
        F(9, 100),
        F(9, 10),
        0,
    )


def test_w5_combined_fire_into_a_building(qr):
    members = [Member(f"squad {i}", 2, (9, 27), 6) for i in range(3)]
    members.append(Member("MMG", 3, (12, 36), 6, "mg_team"))
    atk = group_attack(qr, members, terrain="building")
    assert atk.strength == 9 and not atk.long_range
    d = odds(qr, atk)
    assert (d.p("kia"), d.p("hit"), d.p("retreat"), d.p("suppressed"), d.p("none")) == (
        F(1, 100),
        F(9, 100),
        F(9, 50),
        F(17, 100),
        F(11, 20),
    )


def test_w5_rounding_up_regression(qr):
    d = odds(qr.with_options(strength_rounding="up"), SmallArms(9, terrain="building"))
    assert (d.p("kia"), d.p("hit"), d.p("retreat"), d.p("suppressed")) == (
        F(3, 100),
        F(12, 100),
        F(21, 100),
        F(19, 100),
    )


def test_w6_suppressive_then_follow_up(qr):
    d = odds(qr, SmallArms(5, terrain="foxholes", suppressive=True))
    assert d.p("suppressed") == F(16, 25) and set(d.probs) == {"suppressed", "none"}
    normal = odds(qr, SmallArms(5, terrain="foxholes"))
    assert (normal.p("kia"), normal.p("hit"), normal.p("retreat"), normal.p("suppressed")) == (
        F(3, 100),
        F(7, 100),
        F(11, 100),
        F(24, 100),
    )
    follow = odds(qr, SmallArms(2, terrain="foxholes", target_suppressed=True))
    assert (follow.p("retreat"), follow.p("suppressed"), follow.p("none")) == (
        F(3, 100),
        F(12, 100),
        F(85, 100),
    )


def test_group_rules(qr):
    sq = Member("squad", 2, (9, 27), 5)
    with pytest.raises(RuleError, match="at most 3 squads"):
        group_attack(qr, [sq] * 4)
    with pytest.raises(RuleError, match="fires alone"):
        group_attack(qr, [sq, Member("HQ", 1, (9, 27), 5, "command")])
    with pytest.raises(RuleError, match="within 4"):
        group_attack(qr, [sq, sq], positions=[(0, 0), (5, 0)])
    with pytest.raises(RuleError, match="SA of 3"):
        group_attack(qr, [sq], suppressive=True)
    assert group_attack(qr, [sq, Member("far", 2, (9, 27), 12)]).long_range


def test_e1_soft_vehicle(qr):
    d = exact(soft_vehicle_fire, qr, SmallArms(3), True)
    assert (d.p("ko"), d.p("damaged"), d.p("suppressed"), d.p("retreat"), d.p("none")) == (
        F(7, 100),
        F(3, 100),
        F(24, 100),
        F(11, 100),
        F(55, 100),
    )
    rifle = exact(soft_vehicle_fire, qr, SmallArms(2), False)
    assert rifle.p("ko") == F(3, 125)
    added = exact(soft_vehicle_fire, qr.with_options(soft_vehicle_mg="add"), SmallArms(3), True)
    assert added.p("ko") == F(10, 100) * F(6, 10)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 30),
    st.booleans(),
    st.sampled_from([None, "woods", "building", "stream"]),
    st.booleans(),
    st.booleans(),
)
def test_distribution_sums_to_one_and_cover_helps(qr, s, long, terrain, supp, suppressive):
    atk = SmallArms(s, long, terrain, supp, suppressive)
    d = odds(qr, atk)
    assert d.total() == 1
    harmed = 1 - d.p("none")
    assert harmed >= 1 - odds(qr, SmallArms(s, True, "building", True, suppressive)).p("none")


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 4), st.floats(1.0, 12.0)), min_size=1, max_size=3),
    st.sampled_from([None, "woods"]),
    st.booleans(),
)
def test_who_fires_enters_the_odds_only_through_strength_and_long_range(qr, squads, terrain, soft):
    """`memo_key` lets fire groups alike in strength and the long-range flag share their exact
    odds; walking the tree for this group without the memo agrees."""
    from kriegsspiel.chance import drivers

    members = [Member(f"sq{i}", sa, (9, 27), d) for i, (sa, d) in enumerate(squads)]
    atk = group_attack(qr, members, terrain=terrain)
    fn, extra = (soft_vehicle_fire, (True,)) if soft else (small_arms, ())
    shared = exact(fn, qr, atk, *extra)
    drivers.clear_cache()
    walked = exact(lambda *a: fn(*a), qr, atk, *extra)  # no memo_key on the wrapper
    bare = exact(fn, qr, SmallArms(atk.strength, atk.long_range, terrain), *extra)
    assert shared.probs == walked.probs == bare.probs
    assert shared.placeholders == walked.placeholders
