"""Bogging and vehicle speeds (p25), mines (pp. 38-39), AA fire and aircraft (pp. 42-44),
flame and canister (pp. 21, 31), towed guns (pp. 33-34), airborne (pp. 41-42): hand-computed
odds and the examples nos. 15, 16, 25, 32, 36, 37."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pfdice import p2d6, p3d6

from kriegsspiel.chance import exact
from kriegsspiel.data.errors import NotImplementedRule, RuleError
from kriegsspiel.rulesets.panzerfaust.rules import (
    aa_fire,
    airborne,
    aircraft,
    bog,
    flame,
    mine,
    towed,
)

SIXTH = Fraction(1, 6)


def test_bogging_p25(R):
    """1D6 >= the bogging number (lost: placeholder P86, 6 for tracks), +1 size D."""
    d = exact(bog.bog, R, bog.Crossing())
    assert d.p("bogged") == SIXTH
    assert d.placeholders == {"rules-placeholder:bogging-number.fully_tracked.number"}
    assert exact(bog.bog, R, bog.Crossing(size="D")).p("bogged") == 2 * SIXTH


def test_wide_tracks_roll_again_p25(R):
    """T-34/KV/IS/Panther/Tiger chassis bogged on 7+ roll again and escape on 1-3."""
    c = bog.Crossing(size="D", marsh=True, wide_tracks=True)  # roll +2: 4 bogs, 5-6 are 7+
    assert exact(bog.bog, R, c).p("bogged") == SIXTH + 2 * SIXTH / 2


def test_speeds_through_terrain_p25_qa1(R):
    """Example p25: a 4x4 with 16 cm C/C makes 4 cm in thick woods and 2 cm towing; Q&A 1: a
    fully tracked 10 cm in rubble makes 3 cm."""
    assert bog.cc_speed(R, 16, "wheeled_4x4", "thick_woods") == 4
    assert bog.cc_speed(R, 16, "wheeled_4x4", "thick_woods", "towing_off_road") == 2
    assert bog.cc_speed(R, 10, "fully_tracked", "rubble") == 3
    assert bog.cc_speed(R, 10, "wheeled_4x2", "thick_woods") is None


def test_mines_p38(R):
    """Medium density trips on 2D6 <= 7; a medium AFV: 6 destroyed, 4-5 tracks, 1-3 nothing."""
    d = exact(mine.mine, R, mine.Crossing())
    trip = p2d6(2, 7)
    assert d.p("no_trip") == 1 - trip
    assert d.p("destroyed") == trip * SIXTH
    assert d.p("immobilised") == trip * 2 * SIXTH
    light = exact(mine.mine, R, mine.Crossing(density="dense", mine="ap", target="light_afv"))
    assert light.p("immobilised") == p2d6(2, 9) * SIXTH  # AP mine -3: only a 6 reads 3
    assert exact(mine.mine, R, mine.Crossing(target="infantry")).p("no_trip") == 1
    ap = exact(mine.mine, R, mine.Crossing(density="sparse", mine="ap", target="infantry"))
    assert ap.p("destroyed") == p2d6(2, 4)


def test_lane_clearing_p39():
    """Example p39: three engineer teams clear a vehicle lane square in 4 moves (12
    team-moves); with detectors 4 team-moves."""
    assert mine.clearing_moves(3, detectors=False) == 4
    assert mine.lane_team_moves(detectors=True) == 4


def test_aa_fire_p43(R):
    """AA HMG at low altitude: 2D6 <= 4; damage 1D6 -1: 5+ destroyed, 2-4 damaged."""
    d = exact(aa_fire.aa_fire, R, aa_fire.AAShot())
    hit = p2d6(2, 4)
    assert d.p("miss") == 1 - hit
    assert d.p("destroyed") == hit * SIXTH
    assert d.p("damaged") == hit * 3 * SIXTH
    twin = aa_fire.AAShot(barrels=2, dive_bomber=True, armoured=True)
    dt = exact(aa_fire.aa_fire, R, twin)
    assert dt.p("miss") == 1 - p2d6(2, 6)
    assert dt.p("destroyed") == 0  # 6 -1 -2 = 3 at best
    with pytest.raises(RuleError, match="beyond"):
        exact(aa_fire.aa_fire, R, aa_fire.AAShot(range=46))


def test_aa_lost_rows_report_placeholders(R):
    d = exact(aa_fire.aa_fire, R, aa_fire.AAShot(weapon="20mm_aa"))
    assert "rules-placeholder:aa-flak-table.20mm_aa.hit_low_2d6" in d.placeholders


def test_air_attacks_p43(R):
    """Bombs 3D6 <= 8, +1 dive-bomber, -2 AFV/dug in; rockets 8 or 9; MMG 8 +1 per extra gun
    (example p43: four MMGs +3, one roll)."""
    assert exact(aircraft.air_attack, R, aircraft.AirAttack()).p("hit") == p3d6(3, 8)
    dive = aircraft.AirAttack(dive_bomber=True, cover="protected")
    assert exact(aircraft.air_attack, R, dive).p("hit") == p3d6(3, 7)
    mmg = aircraft.AirAttack(weapon="mmg", extra_guns=3)
    assert exact(aircraft.air_attack, R, mmg).p("hit") == p3d6(3, 11)
    two = R.with_options(aircraft_gun_dice="2d6")  # decision P77
    assert exact(aircraft.air_attack, two, mmg).p("hit") == p2d6(2, 11)
    with pytest.raises(NotImplementedRule):
        aircraft.air_to_air()


def test_aircraft_points_p43():
    """Example p43: Ju 87D 80+10+30+30 = 150; Me 410A 60+10+30+120 = 220."""
    assert aircraft.aircraft_pv(80, 10, 30, 30) == 150
    assert aircraft.aircraft_pv(60, 10, 30, 120) == 220


def test_flame_on_afvs_p21(R):
    """1D6 +2 open-topped: 5 immobilised, 6+ destroyed."""
    d = exact(flame.flame, R, flame.FlameAttack(open_topped=True))
    assert d.p("destroyed") == Fraction(1, 2) and d.p("immobilised") == SIXTH
    molotov = flame.FlameAttack(weapon="molotov", light_tank=True)
    assert exact(flame.flame, R, molotov).p("destroyed") == SIXTH
    with pytest.raises(RuleError, match="beyond"):
        exact(flame.flame, R, flame.FlameAttack(range=6))


def test_canister_p31(R):
    """1D6 -2 firer moving -1 soft cover >= 3 -> destroyed: only a 6."""
    assert exact(flame.canister, R, True, "soft").p("destroyed") == SIXTH
    assert exact(flame.canister, R, False, "none").p("destroyed") == 4 * SIXTH


def test_towed_guns_p33_p34(R):
    """p33 table; example p34: an 88 FlaK (size D, 3 moves to unlimber) fires limbered after
    1 move and is fully unlimbered 2 moves later."""
    assert towed.limber_moves(R, "B") == 1
    assert towed.limber_moves(R, "A", crew_lost_pct=25) == Fraction(3, 2)
    assert towed.limbered_fire_then_unlimber(R, "D") == (1, 2)
    assert towed.manhandle_cm(R, "B") == 2.5
    with pytest.raises(RuleError, match="cannot be manhandled"):
        towed.manhandle_cm(R, "C")


def test_airborne_p41_p42(R):
    """Light wind: teams lost on 6, guns and transport on 4-6."""
    assert exact(airborne.drop_loss, R, "light", "teams").p("lost") == SIXTH
    assert exact(airborne.drop_loss, R, "light", "guns_transport").p("lost") == Fraction(1, 2)
    g = exact(airborne.glider_landing, R)
    assert g.p("straight_on_strip") == Fraction(4, 6) * Fraction(2, 6)
