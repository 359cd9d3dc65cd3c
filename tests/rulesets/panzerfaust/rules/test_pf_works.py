"""Fieldworks, obstacles, demolition, bridges (pp. 26, 39-40), vehicles afloat and tank riders
(pp. 27-28, 40), covering-fire pins (p17), indirect smoke (p38): the examples nos. 31, 33-35."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pfdice import p2d6

from kriegsspiel.chance import exact
from kriegsspiel.data.errors import RuleError
from kriegsspiel.rulesets.panzerfaust.rules import indirect, mine, morale, vehicles, works


def test_fortification_pv_p39(R):
    """Example p39: a pillbox for a 60 PV gun costs 90 (concrete) or 60 (field built); an
    entrenchment for a 200 PV platoon 100."""
    assert works.fortification_pv(R, "concrete_pillbox", 60) == 90
    assert works.fortification_pv(R, "field_constructed_pillbox", 60) == 60
    assert works.fortification_pv(R, "entrenchment", 200) == 100
    assert works.fortification_pv(R, "dugout", 90) == 60
    with pytest.raises(RuleError, match="fortification"):
        works.fortification_pv(R, "castle", 10)


def test_obstacles_p39():
    """Example p39: hedgehogs take 12/8/4 moves for 1/2/3 AFVs; a ditch square 18 moves for
    one bulldozer, 6 for three."""
    assert [works.hedgehog_moves(n) for n in (1, 2, 3)] == [12, 8, 4]
    assert works.ditch_fill_moves(1) == 18 and works.ditch_fill_moves(3) == 6
    with pytest.raises(RuleError):
        works.ditch_fill_moves(4)


def test_bocage_and_wire_p26(R):
    assert exact(works.bocage_breach, R).p("breached") == Fraction(1, 2)
    assert exact(works.bocage_breach, R, True).p("breached") == 1
    assert exact(works.wire_crossing, R, "semi").p("immobilised") == Fraction(1, 6)
    assert exact(works.wire_crossing, R, "wheeled").p("immobilised") == 1
    assert exact(works.wire_crossing, R, "tracked_cd").p("crossed") == 1


def test_demolition_p40(R):
    assert works.charges_effect("stone", 12) == "impassable"
    assert works.charges_effect("stone", 6) == "closed_to_vehicles"
    assert works.charges_effect("wooden", 0) == "open"
    assert exact(works.demolition, R, True).p("misfire") == Fraction(1, 6)
    assert exact(works.demolition, R).p("fired") == 1


def test_bridges_p40():
    """Example p40: an AFV-laid bridge with 7 of its 15 damage points left is closed to
    vehicles; at 0 nothing crosses. Shells: 60-90 mm 2, 140-155 mm 5, 160+ 10, mortars 0."""
    assert works.Bridge("tank_laid", damage=8).state() == "closed_to_vehicles"
    assert works.Bridge("tank_laid", damage=7).state() == "open"
    assert works.Bridge("wooden", damage=5).state() == "impassable"
    assert [works.shell_damage(c) for c in (75, 150, 170)] == [2, 5, 10]
    assert works.shell_damage(81, mortar=True) == 0


def test_landing_craft_and_amphibians_p40():
    """Example p40: an LCT carrying 5 tanks sinks on the 6th Destroyed result."""
    assert vehicles.landing_craft_hits_needed(capacity_tanks=5) == 6
    assert vehicles.landing_craft_hits_needed(capacity_figures=120) == 7
    assert vehicles.afloat_effect("immobilised") == "adrift"
    assert vehicles.afloat_effect("stunned_1") == "no_move"
    assert vehicles.afloat_effect("no_effect", softskin_or_dd=True) == "sinks"


def test_motorised_guns_and_riders_p27_p28():
    assert [vehicles.motorised_setup_moves(c) for c in (75, 88, 150)] == [0, 1, 2]
    assert vehicles.motorised_setup_moves(88, stabilisers=True) == 2
    vehicles.riders_allowed("C", open_turretless=False, teams=4)
    with pytest.raises(RuleError, match="C or D"):
        vehicles.riders_allowed("B", open_turretless=False, teams=1)
    with pytest.raises(RuleError, match="four"):
        vehicles.riders_allowed("D", open_turretless=False, teams=5)
    assert vehicles.riders_must_dismount(shot_at=False, tank_hit_by_at=True)


def test_breaking_a_pin_p17(R):
    """A pinned unit tests with -2 (pinned) before it may act."""
    d = exact(morale.break_pin, R, morale.Test())
    assert d.p("acts") == p2d6(5, 12)
    assert d.p("pinned_retreat") == p2d6(2, 2)


def test_indirect_smoke_p38():
    assert indirect.smoke_moves(1) == 2 and indirect.smoke_moves(2) == 1
    with pytest.raises(RuleError):
        indirect.smoke_moves(0)


def test_ap_mine_burst_p38(R):
    """A base within the 3 cm burst dies on 1D6 5+ (lost: placeholder P90, reported)."""
    c = mine.Crossing(mine="ap", target="infantry", in_burst=True)
    d = exact(mine.mine, R, c)
    assert d.p("destroyed") == Fraction(1, 3)
    assert d.placeholders == {"rules-placeholder:ap-mine-burst.infantry.kill_on_1d6"}
    soft = mine.Crossing(mine="ap", target="softskin", in_burst=True)
    assert exact(mine.mine, R, soft).p("immobilised") == 1
    with pytest.raises(RuleError, match="burst"):
        exact(mine.mine, R, mine.Crossing(mine="at", in_burst=True))


def test_crew_and_passengers_p30(R):
    """p30: 2D6 <= the row's number (-1 AFV, -1 APCR/HVAP/APDS, -2 HEAT of a gun); after HE
    everyone aboard dies. The Panzerfaust row's 7 survived; gun rows are placeholders (P98)."""
    from kriegsspiel.rulesets.panzerfaust.rules import passengers

    pf = passengers.Aboard(infantry_row="panzerfaust_panzerschreck", afv=True, ammo="HEAT")
    d = exact(passengers.aboard, R, pf)
    assert d.p("killed") == p2d6(2, 6) and not d.placeholders
    gun = exact(passengers.aboard, R, passengers.Aboard(calibre_mm=75, ammo="APCR"))
    assert gun.p("killed") == p2d6(2, 6)
    assert gun.placeholders == {
        "rules-placeholder:crew-passenger-casualties.gun_band_4.kill_on_2d6_or_less"
    }
    assert exact(passengers.aboard, R, passengers.Aboard(ammo="HE")).p("killed") == 1
    small = exact(passengers.aboard, R, passengers.Aboard(calibre_mm=37))
    assert small.p("killed") == p2d6(2, 5)


def test_staying_spotted_p8():
    from kriegsspiel.rulesets.panzerfaust.rules.observe import stays_spotted

    assert stays_spotted(left_dlos=False, changed_terrain=False)
    assert not stays_spotted(left_dlos=False, changed_terrain=True)
