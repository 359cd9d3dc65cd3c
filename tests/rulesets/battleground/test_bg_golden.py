"""Golden tests from the worked examples of the Battleground digest §6 (research/battleground.md;
each cites its example and the rule's section). Probabilities are exact fractions."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from bg_helpers import odds

from kriegsspiel.chance import exact, sample
from kriegsspiel.rulesets.battleground.options import Options
from kriegsspiel.rulesets.battleground.rules import armour, checks, sighting, small_arms, tank_fire
from kriegsspiel.rulesets.battleground.rules.armour import Impact
from kriegsspiel.rulesets.battleground.rules.core import Rules, d3
from kriegsspiel.rulesets.battleground.rules.loading import load_actions, t34_restock


def test_g1_d3_from_d6():  # G1, §1
    assert [d3(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize(("roll", "result"), [(10, "pass"), (11, "fail")])
def test_g2_roll_plus_mods_at_most_target(rules, roll, result):  # G2, §1
    c = checks.Check(12, (("mods", 2),), caused_by_fire=False)
    assert sample(checks.skill_check, rules, c, dice_script=[roll]).result.name == result


@pytest.mark.parametrize(
    ("rng", "shifts", "col"),
    [(24, ("improved",), "30"), (20, ("binoculars", "hasty", "elite"), "4"), (13, (), "15")],
)
def test_g3_column_shifts(rules, rng, shifts, col):  # G3, §3.1 (range rounds up)
    s = sighting.Sight(rng, shifts=shifts)
    assert sample(sighting.column, rules, s, dice_script=[]).result == col


def test_g4_vehicle_open_moving_at_15_is_acquired(cat):  # G4, §3.1
    d = odds(cat, "sight", range=15, target="vehicle", moving=True)
    assert d.p("sighted") == 1


def test_g5_concealed_prone_hasty_from_moving_tank(cat):  # G5, §3.1
    d = odds(cat, "sight", range=15, concealed=True, shifts="hasty,prone,moving_vehicle")
    assert d.p("sighted") == F(6, 20)


def test_g6_regular_leader(rules):  # G6, §3.2
    t = rules.table("troop_quality").cells["regular"]
    assert (t["leader_morale"], t["leadership"], t["leader_cr"]) == (12, -1, 10)
    for row in rules.table("troop_quality").cells.values():
        assert row["cr"] == row["morale"] - 2 and row["leader_cr"] == row["leader_morale"] - 2


def test_g7_directed_fire_minus_two(rules, cat):  # G7, §3.2: 16-2 leader with the firer
    w = cat.get("small_arm", "kar98k")
    base = exact(small_arms.shot, rules, small_arms.Fire(w, 16))
    led = exact(small_arms.shot, rules, small_arms.Fire(w, 16, leadership=-2))
    assert 1 - base.p("miss") - base.p("jam") == F(8, 20)
    assert 1 - led.p("miss") - led.p("jam") == F(10, 20)


def test_g8_directed_action(cat):  # G8, §3.2: 12-1 leader in contact crossing wire
    assert odds(cat, "skill", morale="10", leadership=-1).p("pass") == F(11, 20)
    assert odds(cat, "skill", morale="10").p("pass") == F(10, 20)


def test_g9_leader_loss_check_with_heroes(cat):  # G9, §3.2: 16-2 leader KIA -> MC at +2
    d = odds(cat, "morale", morale="10", mods="leader lost:2")
    assert (d.p("pass"), d.p("hero"), d.p("coward"), d.p("broken")) == (
        F(7, 20),
        F(1, 20),
        F(1, 20),
        F(11, 20),
    )


def test_g12_one_man_hmg_jams_on_18(rules, cat):  # G12, §3.9
    w = cat.get("small_arm", "m1917a1_hmg")
    assert (w.crew, w.jam, w.set) == (3, 20, 3)
    assert small_arms.setup_actions(w, crew_missing=2) == 5
    d = exact(small_arms.shot, rules, small_arms.Fire(w, 10, crew_missing=2))
    assert d.p("jam") == F(3, 20)


def test_g13_mmg_crew_jams(rules, cat):  # G13, §3.9
    w = cat.get("small_arm", "mg34_mmg")
    assert exact(small_arms.shot, rules, small_arms.Fire(w, 10, crew_missing=1)).p("jam") == F(
        2, 20
    )


def test_g14_mp40_range_bonus(rules, cat):  # G14, §3.7
    mp40, ppsh = cat.get("small_arm", "mp40"), cat.get("small_arm", "ppsh41")
    band = small_arms.band
    assert sample(band, rules, mp40, 10, dice_script=[]).result == "EFF"
    assert sample(band, rules, ppsh, 10, dice_script=[]).result == "LONG"
    assert sample(band, rules, mp40, 4.5, dice_script=[]).result == "EFF"  # PB unchanged: 4


def test_g15_rifle_at_16_needs_8_elite_minus_2(rules, cat):  # G15, §3.8
    w = cat.get("small_arm", "kar98k")
    d = exact(small_arms.shot, rules, small_arms.Fire(w, 16, quality="elite"))
    assert 1 - d.p("miss") - d.p("jam") == F(10, 20)


def test_g17_sniper_aimed(rules, cat):  # G17, §3.21: -5 to hit, -7 effect
    w = cat.get("small_arm", "kar98k_scoped")
    f = small_arms.Fire(w, 30, sniper=True, aimed=True)
    assert 1 - exact(small_arms.shot, rules, f).p("miss") - F(1, 20) == F(13, 20)
    lines = sample(small_arms.shot, rules, f, dice_script=[1, 10]).lines()
    assert (
        "modifier sniper -5 (§3.8, §3.36)" in lines and "modifier aimed -2 (§3.8, §3.36)" in lines
    )


def _imp(cat, veh, facing, pen, **kw):
    return Impact(cat.get("vehicle", veh), facing, pen, **kw)


def test_g18_effects_drm_per_full_ten(rules, cat):  # G18, §3.29: 35 vs 11 = 24 -> -2
    imp = _imp(cat, "t34_m1941", "side", 35)
    out = sample(armour.at_location, rules, imp, 12, dice_script=[5, 12])
    assert "modifier penetration over armour -2 (§3.29)" in out.lines()
    assert out.result.name == "fatal_internal"  # 12 - 2 = 10


def test_g19_front_location_1_auto_penetrates(rules, cat):  # G19, §3.29
    d = exact(armour.at_location, rules, _imp(cat, "pziv_h", "front", 5), 1)
    assert d.p("no_penetration") == 0


def test_g20_natural_20_never_penetrates(rules, cat):  # G20, §3.29
    out = sample(
        armour.at_location, rules, _imp(cat, "m4_sherman", "side", 40), 12, dice_script=[20]
    )
    assert out.result.name == "no_penetration"


def test_g21_no_pen_possible_and_small_guns(rules, cat):  # G21, §3.29
    big = sample(armour.at_location, rules, _imp(cat, "m4_sherman", "front", 10), 2, dice_script=[])
    small = sample(
        armour.at_location,
        rules,
        _imp(cat, "m4_sherman", "front", 10, gun_mm=20),
        2,
        dice_script=[],
    )
    assert big.result.get("effect") == "Imm/MC" and small.result.get("effect") == "NE"


def test_g22_g23_load_times():  # G22, G23, §3.28
    assert load_actions(88, "XL") == 2 and load_actions(88, "XL", at_gun=True) == 1
    assert load_actions(75, "L", "veteran") == 1 and load_actions(88, "XL", "veteran") == 1


def _gun(gyro: bool) -> tank_fire.Gun:
    return tank_fire.Gun("M4", 75, "STD", (("AP", 25),), "N", (), False, gyro, False)


@pytest.mark.parametrize(
    ("gyro", "on_move", "moved", "miss"),
    [
        (True, True, False, F(11, 20)),
        (False, True, False, F(17, 20)),
        (True, False, True, F(8, 20)),
        (False, False, True, F(10, 20)),
    ],
)
def test_g24_gyro(rules, cat, gyro, on_move, moved, miss):  # G24, §3.29
    shot = tank_fire.Shot(
        _gun(gyro), 20, _imp(cat, "pziv_h", "front", 0), on_move=on_move, moved_previous=moved
    )
    assert exact(tank_fire.tank_fire, rules, shot).p("miss") == miss


def test_g26_hull_down(rules, cat):  # G26, §3.29
    imp = _imp(cat, "pziv_h", "front", 30, hull_down=True)
    assert exact(armour.at_location, rules, imp, 12).p("fouled") == 1
    assert exact(armour.at_location, rules, imp, 18).p("fouled") == 0


def test_g27_leader_shift(rules, cat):  # G27, §3.29: one box per point, never onto 1 front/rear
    def loc(facing, roll, shift, pen=14):
        imp = _imp(cat, "m4_sherman", facing, pen, leader_shift=shift)
        return sample(armour.hit_location, rules, imp, dice_script=[roll]).result[0]

    assert loc("front", 13, 1) == 17  # turret front 12 beats hull front 14
    assert loc("front", 13, 0) == 13
    assert loc("rear", 5, 1) != 1 and loc("front", 2, 3) != 1
    off = Rules(rules.cat, Options(leader_shift="off"))
    imp = _imp(cat, "m4_sherman", "front", 14, leader_shift=1)
    assert sample(armour.hit_location, off, imp, dice_script=[13]).result[0] == 13


def test_g31_offboard_call(cat):  # G31, §3.34
    d = odds(cat, "offboard", contact=16, availability=15)
    assert (d.p("mission_next_turn"), d.p("no_contact"), d.p("unavailable")) == (
        F(3, 5),
        F(1, 5),
        F(1, 5),
    )


def test_g32_bridge(cat):  # G32, La Neuville
    assert odds(cat, "demolition", kind="bridge", packs=5).p("success") == F(1, 2)


def test_g34_break_point(cat):  # G34, §3.6
    assert odds(cat, "squad-morale", size=10, disabled=4).p("no_check") == 1
    assert odds(cat, "squad-morale", size=10, disabled=5).p("no_check") == 0


def test_g35_self_rally_and_rounding(cat):  # G35, §3.5 (rounding: decision BG-ROUND)
    assert odds(cat, "rally", morale="10").p("rallied") == F(5, 20)
    assert odds(cat, "rally", morale="10", light_wound=True).p("rallied") == F(3, 20)
    down = Options(halving="down")
    assert odds(cat, "rally", down, morale="10", light_wound=True).p("rallied") == F(2, 20)


def test_g36_t34_restock():  # G36, §3.28
    assert t34_restock(6) == 4


def test_g37_mg_majority(cat):  # G37, §3.20
    d = odds(cat, "mg-vs-afv", weapon="mmg", rof=4, range=5, target="sdkfz_251_1", facing="side")
    assert d.p("no_effect") == F(113, 625)  # fewer than 3 hits of 4 at 16/20


def test_g38_truck_he(cat):  # G38, §3.39: fuel on d20 <= 8, else location 1 (placeholder die)
    d = odds(cat, "truck-hit", facing="front", he=True)
    assert d.p("fuel_explosion") == F(8, 20) + F(12, 20) * F(3, 20)
    assert "truck_location_die.cells.1-3.location" in d.placeholders


def test_g40_bocage_bog(cat):  # G40, §3.27
    assert odds(cat, "bog", terrain="bocage").p("bogged") == F(3, 20)
    assert odds(cat, "bog", terrain="bocage", bog_mods="buttoned_up").p("bogged") == F(5, 20)
    d = odds(cat, "bog", terrain="bocage", unbogging=True)
    assert (d.p("free"), d.p("immobilized")) == (F(1, 2), F(3, 20))


def test_pattern_spacing_option(rules):  # §3.34, BG-PATTERN
    from kriegsspiel.rulesets.battleground.rules.artillery import pattern_spacing

    assert pattern_spacing(rules, "loose_point") == 4
    diagram = Rules(rules.cat, Options(pattern_spacing="diagram"))
    assert (
        pattern_spacing(diagram, "loose_point") == 6 and pattern_spacing(diagram, "tight_line") == 2
    )
