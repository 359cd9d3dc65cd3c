"""Morale (pp. 23-24) and command radius / movement pips (p7): hand-computed 2D6 and 1D6 odds
and the worked examples nos. 1, 2, 12, 13."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pfdice import p2d6

from kriegsspiel.chance import exact, sample
from kriegsspiel.data.errors import RuleError
from kriegsspiel.rulesets.panzerfaust.rules import morale, pips


def test_elite_tank_platoon_on_a_hill_p24(R):
    """Example p24: elite 5-tank platoon on a hill, 3 knocked out, rolls 4: 4 -6 +1 +2 +1 = 2
    -> Shaken."""
    t = morale.Test(rating="elite", subunits_lost=3, afv=True, hill_or_woods=True)
    assert sum(m.value for m in morale.modifiers(R, t)) == -2
    assert sample(morale.morale, R, t, dice_script=[1, 3]).result.name == "shaken"
    d = exact(morale.morale, R, t)
    assert d.p("ok") == p2d6(5, 12)
    assert d.p("shaken") == p2d6(3, 4)
    assert d.p("retreat") == p2d6(2, 2)


def test_poor_company_retreats_p24(R):
    """Example p24: a poor company with one platoon Shaken and one Retreating rolls 5:
    5 -2 -1 -2 = 0 -> Retreat."""
    t = morale.Test(rating="poor", subunits_shaken=1, subunits_lost=1)
    assert sample(morale.morale, R, t, dice_script=[2, 3]).result.name == "retreat"
    assert exact(morale.morale, R, t).p("retreat") == p2d6(2, 5)


def test_reliable_squad_two_teams_lost_in_woods(R):
    """-3 per team lost (two: -6), +1 defending woods: OK on 8+."""
    t = morale.Test(teams_lost=2, hill_or_woods=True)
    d = exact(morale.morale, R, t)
    assert d.p("ok") == p2d6(8, 12) and d.p("retreat") == p2d6(2, 5)


def test_shaken_duration_rerolls_p24(R):
    """Shaken lasts 1D6 turns; elite re-roll 5-6, poor re-roll 1-2 (p24)."""
    elite = morale.Test(rating="elite", teams_lost=3, duration=True)
    d = exact(morale.morale, R, elite)
    shaken = p2d6(8, 9)  # 2D6 +2 -9 in 1..2
    assert {k: v for k, v in d.probs.items() if k.startswith("shaken")} == {
        f"shaken_{n}": shaken / 4 for n in range(1, 5)
    }
    poor = morale.Test(rating="poor", duration=True)
    dp = exact(morale.morale, R, poor)
    assert dp.p("shaken_1") == 0 and dp.p("shaken_6") == p2d6(3, 4) / 4


def test_morale_cascade_platoon_to_company(R):
    """p23: a Shaken or worse result makes the parent HQ test, and the HQ's result stands for
    every sub-unit unless one already did worse."""
    platoon = morale.Test(rating="poor", teams_lost=1)
    company = morale.Test(rating="poor")
    d = exact(morale.cascade, R, platoon, company)
    p_plat_ok = p2d6(8, 12)  # 2D6 -2 -3 >= 3
    assert d.p("platoon_ok") == p_plat_ok
    # the company tests only after a bad platoon result, with -1 (Shaken) or -2 (Retreat)
    p_shaken, p_retreat = p2d6(6, 7), p2d6(2, 5)
    assert d.p("platoon_shaken_company_ok") == p_shaken * p2d6(6, 12)
    assert d.p("platoon_retreat_company_retreat") == p_retreat * p2d6(2, 4)
    assert d.total() == 1


# ----------------------------------------------------------------------------- pips


def test_pips_class_rerolls_p7(R):
    vet = exact(pips.movement_pips, R, "veteran")
    con = exact(pips.movement_pips, R, "conscript")
    reg = exact(pips.movement_pips, R, "regular")
    assert vet.probs == {f"pips_{n}": Fraction(1, 4) for n in range(3, 7)}
    assert con.probs == {f"pips_{n}": Fraction(1, 4) for n in range(1, 5)}
    assert reg.probs == {f"pips_{n}": Fraction(1, 6) for n in range(1, 7)}
    with pytest.raises(RuleError, match="troop class"):
        exact(pips.movement_pips, R, "elite")


def test_order_costs_p7(R):
    """Example p7: one AFV moved alone and the rest of its platoon as a group: 2 pips.
    Surcharges add: out of radius +1, night/rain +1 (max one for radius/HQ)."""
    assert pips.orders_cost(R, [pips.Order(), pips.Order()]) == 2
    assert pips.order_cost(R, pips.Order(out_of_radius=True, night_or_rain=True)) == 3
    assert pips.order_cost(R, pips.Order(compulsory=True, night_or_rain=True)) == 0


def test_retreat_pip_option_p7(R):
    """Decision P72: retreating costs nothing extra (default) or +1 (the p7 list)."""
    o = pips.Order(retreating=True)
    assert pips.order_cost(R, o) == 1
    assert pips.order_cost(R.with_options(retreat_pip="plus_one"), o) == 2


def test_last_pip_on_one_element_ends_the_company_p7():
    """Example p7: a company with one pip left spends it on one squad and is finished."""
    assert pips.company_finished(1, 1, last_on_one_element=True)
    assert not pips.company_finished(3, 1, last_on_one_element=True)


def test_command_radius_p7(R):
    assert pips.command_radius(R, radio=True, nation="germany") == 100
    assert pips.command_radius(R, radio=True, nation="ussr") == 60
    assert pips.command_radius(R, radio=True, nation="germany", halved=True) == 50
    assert pips.command_radius(R, radio=False, nation="ussr") == 20
    assert pips.command_radius(R, radio=False, nation="ussr", in_sight=True) == 30


def test_command_chains_p7(R):
    """Radius runs HQ -> subordinate or from a subordinate already in radius (chains); a
    platoon HQ out of radius puts its whole platoon out."""
    units = {"hq": (0, 0), "a": (90, 0), "b": (180, 0), "c": (300, 0)}
    inside = pips.in_command(R, units, "hq", radius=100)
    assert inside == {"hq", "a", "b"}
    assert pips.in_command(R, units, "hq", radius=50) == {"hq"}
