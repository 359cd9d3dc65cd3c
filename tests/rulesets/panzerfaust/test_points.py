"""PV multipliers of the compulsory troop class / morale table (seed 000 p22, p44)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.panzerfaust.coverage import org_named_items
from kriegsspiel.rulesets.panzerfaust.models import TroopRatingRule
from kriegsspiel.rulesets.panzerfaust.points import (
    Rounding,
    base_price,
    multiplier,
    rating_rule,
    scaled_pv,
)

SOVIET_DEFAULT = TroopRatingRule(
    selector="all_other", troop_class="conscript", morale="reliable", multiplier=0.75
)


def test_p22_example_t34_costs_141():
    assert multiplier(SOVIET_DEFAULT) == Fraction(3, 4)
    assert scaled_pv([188], multiplier(SOVIET_DEFAULT)) == 141


def test_belgian_rules():
    belgium = load("panzerfaust", overlays=()).get("nation", "belgium")
    onboard = multiplier(rating_rule(belgium))
    offboard = multiplier(rating_rule(belgium, "offboard_artillery"))
    assert (onboard, offboard) == (Fraction(3, 4), Fraction(17, 20))
    # T-13 II (73) + 5 rifle teams (7 each) = 108 base -> 81 exactly
    assert scaled_pv([73, 7, 7, 7, 7, 7], onboard) == 81
    # 75mm battery, one pair at 80 -> 68 offboard
    assert scaled_pv([80], offboard) == 68


def test_rounding_options_differ_only_in_rounding():
    third = Fraction(5, 4)
    items = [7, 7, 7]  # 8.75 each
    assert scaled_pv(items, third, Rounding.EXACT) == Fraction(105, 4)
    assert scaled_pv(items, third) == 26  # 26.25 -> 26
    assert scaled_pv(items, third, Rounding.ITEM_HALF_UP) == 27  # 9 + 9 + 9


def test_missing_multiplier_is_an_error():
    lost = TroopRatingRule(selector="x", troop_class="veteran", morale="elite", multiplier=None)
    with pytest.raises(ValueError):
        multiplier(lost)
    by_class = TroopRatingRule(
        selector="offboard_artillery",
        troop_class="as_unit",
        morale="as_unit",
        multiplier=None,
        multiplier_by_class={"conscript": 0.85, "veteran": 1.0},
    )
    assert multiplier(by_class, "conscript") == Fraction(17, 20)


@given(st.lists(st.integers(0, 500), max_size=20))
def test_total_rounding_is_within_half_of_exact(pvs):
    f = Fraction(3, 4)
    exact = scaled_pv(pvs, f, Rounding.EXACT)
    assert abs(scaled_pv(pvs, f) - exact) <= Fraction(1, 2)


def test_p111_unmodelled_infantry_items_named_by_organisations(cat):
    """P111: the AT rifles take the one AT-rifle PV the p20 table kept (wz35, 8), an AT rifle team
    3 more (p15, p18), the Belgian HQ team the book's platoon HQ team (23); each is a placeholder,
    and every item an organisation names now has a base PV."""
    assert cat.get("infantry_weapon", "common/7-9mm-wz35").pv == 8
    for ref, pv in [
        ("infantry_weapon:britain/boys-atr", 8),
        ("infantry_weapon:germany/pzb-atr-team", 8),
        ("infantry_team:ussr/at-rifle-team", 11),
        ("infantry_team:belgium/hq-team", 23),
    ]:
        price = base_price(cat, ref)
        assert (price.pv, price.provenance) == (pv, "placeholder"), ref
    assert [r for r in org_named_items(cat) if base_price(cat, r).pv is None] == []


def test_p13_a_horse_team_costs_half_the_equivalent_truck_p333(cat):
    """P333, by hand: the 4x2 softskins printed with tow class B cost 10 (Morris CS8/Bedford MW),
    13 (Fiat 618), 14 (Bedford OX/Austin K30), 18 (Polski-Fiat 621), 21 (Citroen 45/Renault
    AGR); their median is 14, half of it 7, a placeholder (the book names no vehicle)."""
    trucks = sorted(
        r.pv
        for r in cat.all("softskin")
        if r.pv is not None and r.drive == "4x2" and r.tow == "B" and not r.horse_team
    )
    assert trucks == [10, 13, 14, 18, 21]
    price = base_price(cat, "softskin:common/horse-team")
    assert (price.pv, price.provenance) == (7, "placeholder")
