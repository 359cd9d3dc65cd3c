"""Hand-computed odds for every `battleground` action, at least three cases each, as exact
fractions (the arithmetic is in each case's comment; sections of digest §3)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from bg_helpers import odds

from kriegsspiel.data.errors import NotImplementedRule, RuleError
from kriegsspiel.rulesets.battleground.actions import ACTIONS
from kriegsspiel.rulesets.battleground.options import Options

E = F(1, 20)
CASES = [
    # sight §3.1
    ("sight", dict(range=15, target="vehicle", moving=True), "sighted", F(1)),
    (
        "sight",
        dict(range=15, concealed=True, shifts="hasty,prone,moving_vehicle"),
        "sighted",
        6 * E,
    ),
    ("sight", dict(range=250), "unseen", F(1)),  # beyond the 210" column
    ("sight", dict(range=36, concealed=True), "unseen", F(1)),  # '-' cell
    ("sight", dict(range=20, terrain="light_woods"), "sighted", 6 * E),  # woods conceal
    # morale §3.3: pass 2..10, hero 1, coward 20
    ("morale", dict(morale="10"), "pass", 9 * E),
    ("morale", dict(morale="10", not_fire=True), "pass", 10 * E),
    ("morale", dict(morale="10", light_wound=True), "pass", 4 * E),  # 2..5
    ("morale", dict(morale="10", team_of_one=True), "broken", 14 * E),  # 6..19
    # skill / gut §3.3
    ("skill", dict(morale="10", severity="half"), "pass", 5 * E),
    ("skill", dict(morale="12", severity="quarter"), "pass", 3 * E),
    ("skill", dict(morale="14", mods="wire:1"), "pass", 13 * E),
    ("gut", dict(morale="12-1"), "pass", 12 * E),
    ("gut", dict(morale="12", leadership=-1), "pass", 13 * E),
    ("gut", dict(morale="8", light_wound=True), "pass", 3 * E),
    # rally §3.5
    ("rally", dict(morale="10"), "rallied", 5 * E),
    ("rally", dict(morale="10", mode="leader", leadership=-2), "rallied", 12 * E),
    ("rally", dict(morale="10", mods="x:2"), "rallied", 4 * E),  # half of 8
    # squad morale §3.6
    ("squad-morale", dict(size=10, disabled=5), "holds", 11 * E),  # leader 12: 2..12
    ("squad-morale", dict(size=10, disabled=4), "no_check", F(1)),
    ("squad-morale", dict(size=10, disabled=4, quality="green"), "holds", 9 * E),  # 40%, 10
    ("squad-morale", dict(size=10, disabled=5), "fanatic", E),
    # no quarter §3.4
    ("no-quarter", dict(morale="12", nationality="american", versus="german"), "fires", 10 * E),
    ("no-quarter", dict(morale="12", nationality="russian", whose="own"), "fires", 6 * E),
    ("no-quarter", dict(morale="12", nationality="german_ss", versus="russian"), "fires", 16 * E),
    ("no-quarter", dict(morale="12", nationality="american", whose="own"), "refuses", F(1)),
    # fire §3.8: rifle long 8; column E KIA rows 1-4, HW 5-7
    ("fire", dict(weapon="kar98k", range=16), "KIA", 8 * E * 4 * E),
    ("fire", dict(weapon="kar98k", range=16), "jam", E),
    ("fire", dict(weapon="mp40", range=10), "miss", F(7, 20) ** 3),
    ("fire", dict(weapon="mp40", range=10), "jam", F(8, 20) ** 3 - F(7, 20) ** 3),
    ("fire", dict(weapon="p08", range=20), "miss", F(1)),
    ("fire", dict(weapon="kar98k_scoped", range=30, sniper=True, ambush=True), "jam", E),
    # squad fire §3.8: a rifle die is a casualty with 8/20 x 7/20
    ("squad-fire", dict(weapons="1 x kar98k", range=16), "casualties_1", F(56, 400)),
    ("squad-fire", dict(weapons="2 x kar98k", range=16), "casualties_2", F(56, 400) ** 2),
    ("squad-fire", dict(weapons="3 x kar98k", range=100), "casualties_0", F(1)),
    # grenade §3.12: column A GD rows 1-4
    ("grenade", dict(range=3, enclosed=True), "GD", 19 * E * 4 * E),
    ("grenade", dict(range=3, enclosed=True), "dud", E),
    (
        "grenade",
        dict(range=0),
        "GD",
        18 * E * 4 * E + E * (F(4, 20) + F(3, 20) + F(2, 20)) / 3,  # miss on 19: d3 -> A/B/C
    ),
    # flamethrower §3.15
    ("flamethrower", dict(zone="red", active=True), "GD", F(1)),
    ("flamethrower", dict(active=True), "GD", 18 * E),  # column A LtW or worse: rows 1-18
    ("flamethrower", dict(), "GD", 17 * E * 18 * E),
    # flamethrower carrier hit §3.15: LtW or worse again
    ("flame-carrier", dict(), "tank_explodes", 10 * E),  # column E rows 1-10
    ("flame-carrier", dict(column="A"), "tank_explodes", 18 * E),
    ("flame-carrier", dict(column="H", cover="wall"), "tank_explodes", F(0)),
    # demolition §3.14
    ("demolition", dict(kind="pole_slit"), "success", 18 * E),
    ("demolition", dict(kind="pole_window"), "success", 15 * E),
    ("demolition", dict(kind="bridge", packs=0), "success", F(0)),
    # hand-to-hand §3.13
    ("hand-to-hand", dict(), "locked", E),
    ("hand-to-hand", dict(), "attacker_wins", F(19, 40)),
    ("hand-to-hand", dict(attacker_mods="elite"), "attacker_wins", F(229, 400)),
    ("hand-to-hand", dict(attacker_mods="elite"), "locked", F(18, 400)),
    # afv-gut §3.17
    ("afv-gut", dict(morale="10", advancing=True), "stands", 5 * E),
    ("afv-gut", dict(morale="10"), "stands", 10 * E),
    ("afv-gut", dict(morale="10", advancing=True, approach_mods="in_cover"), "stands", 10 * E),
    ("afv-gut", dict(morale="10", distance=4.5), "stands", 10 * E),
    ("hand-to-hand", dict(obstacle=True), "defender_wins", F(229, 400)),  # mirror of elite
    # he-fire §3.32: PzIV 75L at 20 in: short 14, HE +2 -> 12; calibre -2 on the effect
    ("he-fire", dict(firer="pziv_h", range=20), "GD", F(607, 2400)),
    ("he-fire", dict(firer="pziv_h", range=20, ammo="HEAT"), "GD", 12 * E * 6 * E),
    ("he-fire", dict(firer="pziv_h", range=20, ammo="HEAT"), "miss", 7 * E),
    # close assault §3.18
    ("close-assault", dict(attack="magnetic", target="pziv_h", facing="side"), "failed", 6 * E),
    ("close-assault", dict(attack="grenade_tracks", target="pziv_h"), "failed", 11 * E),
    (
        "close-assault",
        dict(attack="grenade_tracks", target="pziv_h"),
        "track_destroyed",
        9 * E * 4 * E,
    ),
    (
        "close-assault",
        dict(attack="demo_pack", target="pziv_h", thrown=True),
        "beside_vehicle",
        F(1),
    ),
    (  # thrown satchel: grenade to-hit 12 - 2 = 10, then placement 10 - 5 = 5
        "close-assault",
        dict(attack="satchel", target="pziv_h", thrown=True, throw_range=2),
        "beside_vehicle",
        1 - 10 * E * 5 * E,
    ),
    # molotov §3.18
    ("molotov", dict(), "splash_terrain_fire", F(1, 5)),
    ("molotov", dict(), "crew_mc_kia_or_bail_fire", F(1, 5)),
    ("molotov", dict(open_top=True, molotov_mods="unbuttoned"), "fire_crew_mc_kia_or_bail", 8 * E),
    # at-weapon §3.19
    ("at-weapon", dict(weapon="panzerfaust_60", range=10, target="m4_sherman"), "miss", 8 * E),
    ("at-weapon", dict(weapon="panzerfaust_60", range=25, target="m4_sherman"), "miss", F(1)),
    ("at-weapon", dict(weapon="panzerschreck", range=8, target="m4_sherman"), "miss", 4 * E),
    # mg vs afv §3.20
    ("mg-vs-afv", dict(range=5, target="sdkfz_251_1", facing="side"), "no_effect", F(113, 625)),
    ("mg-vs-afv", dict(range=30, target="sdkfz_251_1"), "no_effect", F(1)),
    ("mg-vs-afv", dict(weapon="lmg", range=10, target="sdkfz_251_1"), "no_effect", F(328, 625)),
    # tank fire §3.29: STD short 14, size M 0
    ("tank-fire", dict(firer="m4_sherman", target="pziv_h", range=20), "miss", 5 * E),
    ("tank-fire", dict(firer="m4_sherman", target="pziv_h", range=20), "jam", E),
    (
        "tank-fire",
        dict(firer="m4_sherman", target="pziv_h", range=20, buttoned_up=True),
        "miss",
        7 * E,
    ),
    ("tank-fire", dict(firer="m4_sherman", target="pziv_h", range=200), "miss", 15 * E),
    ("tank-fire", dict(firer="pak40", target="king_tiger", range=30), "miss", 3 * E),  # L 14 -(-2)
    # T-34 M1941: the commander is the gunner: +3 No Commander, +2 Buttoned Up (14 -> 9)
    ("tank-fire", dict(firer="t34_m1941", target="pziv_h", range=20), "miss", 10 * E),
    # penetration §3.29: HF 14
    ("penetration", dict(pen=30, target="m4_sherman", location=12), "no_penetration", 4 * E),
    ("penetration", dict(pen=5, target="m4_sherman", location=1), "no_penetration", F(0)),
    ("penetration", dict(pen=10, target="m4_sherman", location=2), "no_penetration", F(1)),
    # Schurzen halve HEAT on the locations they cover (PzIV side 1-15, 17-19)
    (
        "penetration",
        dict(pen=46, heat=True, skirts=True, target="pziv_h", facing="side", location=5),
        "no_penetration",
        2 * E,  # 23 - 5 = 18
    ),
    (
        "penetration",
        dict(pen=46, heat=True, skirts=True, target="pziv_h", facing="side", location=16),
        "no_penetration",
        E,  # 46 - 5 = 41: only the natural 20
    ),
    # artillery §3.35 (81 mm: calibre -2 on the effect)
    ("artillery", dict(on="afv", forest=True), "no_direct_hit", F(1)),
    ("artillery", dict(ring="B"), "GD", 5 * E),
    ("artillery", dict(ring="B"), "KIA", 6 * E),
    ("artillery", dict(on="foxhole", prone=True), "KIA", F(1, 6)),
    ("artillery", dict(on="afv"), "no_direct_hit", F(2, 3)),
    # offboard §3.34
    ("offboard", dict(contact=16, availability=15), "mission_next_turn", F(3, 5)),
    ("offboard", dict(contact=20, availability=20), "mission_next_turn", F(1)),
    ("offboard", dict(contact=0, availability=20), "no_contact", F(1)),
    # correction §3.33
    ("correction", dict(), "on_target", F(1, 5)),
    ("correction", dict(), "off_1in", F(2, 15)),
    ("correction", dict(), "off_6in", F(2, 15)),
    # mines §3.16, §3.31
    ("mine", dict(movement="move3", field="improved"), "no_detonation", 8 * E),
    ("mine", dict(movement="move3", field="improved", detector=True), "no_detonation", 12 * E),
    ("mine", dict(marked_lane=True), "no_detonation", 19 * E),
    ("mine", dict(anti_tank=True, movement="full"), "no_detonation", 7 * E),
    # booby trap §3.16
    ("booby-trap", dict(morale="12"), "refuses", 8 * E),
    ("booby-trap", dict(morale="12"), "disarmed", 12 * E * 6 * E),
    ("booby-trap", dict(morale="12"), "detonates", 12 * E * 8 * E),
    # bog §3.27
    ("bog", dict(terrain="bocage"), "bogged", 3 * E),
    ("bog", dict(terrain="wire_wheeled"), "bogged", 13 * E),
    ("bog", dict(terrain="gun_VL", bog_mods="buttoned_up,reverse"), "bogged", 5 * E),
    ("bog", dict(terrain="wire_tracked"), "clear", 11 * E),
    # bail-out §3.24
    ("bail-out", dict(), "pass", 11 * E),
    ("bail-out", dict(cause="small_arms"), "button_up", 7 * E),
    ("bail-out", dict(tank_leader=True), "pass", 13 * E),
    ("bail-out", dict(cause="main_gun_out"), "drive_off", 7 * E),
    # platoon integrity §3.25
    ("platoon-integrity", dict(tanks=4, out=2), "no_check", F(1)),
    ("platoon-integrity", dict(tanks=4, out=3), "pass", 12 * E),
    (
        "platoon-integrity",
        dict(tanks=4, out=3, integrity_mods="fire_from_rear"),
        "abandon",
        8 * E * 3 * E,
    ),
    ("platoon-integrity", dict(tanks=4, out=2, brewed=2), "pass", 12 * E),
    # availability §3.27
    ("availability", dict(number=15), "available", 15 * E),
    ("availability", dict(number=0), "absent", F(1)),
    ("availability", dict(number=20), "available", F(1)),
    # run down §3.32
    ("run-down", dict(morale="10", prone_open=True), "escapes", 5 * E),
    ("run-down", dict(morale="10"), "escapes", 10 * E),
    ("run-down", dict(morale="10", prone_open=True, light_wound=True), "HW", F(1)),
    # crash §3.39
    ("crash", dict(), "sharp_left_overturn", F(1, 5)),
    ("crash", dict(), "straight_on", F(1, 5)),
    ("crash", dict(), "sharp_right_overturn", F(1, 5)),
    # truck hit §3.39 (location die placeholder: 1-3 -> 1, 11-13 -> 5)
    ("truck-hit", dict(he=True), "fuel_explosion", F(49, 100)),
    ("truck-hit", dict(), "fuel_explosion", 3 * E),
    ("truck-hit", dict(facing="side"), "fuel_explosion", 3 * E),
    # ignite §3.15, §3.36
    ("ignite", dict(), "burning", 14 * E),
    ("ignite", dict(source="wp_building"), "burning", 7 * E),
    ("ignite", dict(source="he_ignite_wood"), "burning", E),
    # deviation §3.33-§3.34
    ("deviation", dict(), "off_7in", F(1, 6)),  # 2d6 = 7
    ("deviation", dict(mode="blind"), "off_3in", F(1, 216)),
    ("deviation", dict(mode="offboard_correct"), "off_1in", F(1, 6)),
    # passenger bail §3.39: column F
    ("passenger-bail", dict(), "KIA", E),
    ("passenger-bail", dict(), "HW", 2 * E),
    ("passenger-bail", dict(), "no_effect", 5 * E),  # rows 16-20 blank
    # more grenades and pinning fire
    ("grenade", dict(kind="rifle_long", range=20), "GD", F(1, 12)),  # (4+3+2+1+0)/20 over d6
    (
        "grenade",
        dict(kind="rifle_long", range=20),
        "no_effect",
        F(1, 6) + F(1, 6) * F(4, 20),
    ),  # D row 20, E rows 18-20
    ("grenade", dict(range=3, from_moving_halftrack=True), "dropped_inside", E),
    ("fire", dict(weapon="mg42_mmg", range=30, mode="raking"), "jam", E * 10 * E),
    # damage points §3.37 (75 mm: -2 on column A)
    ("damage-points", dict(gun_mm=75), "dp_2", 6 * E),
    ("damage-points", dict(gun_mm=75), "dp_half", 4 * E),
    ("damage-points", dict(gun_mm=50), "dp_2", 4 * E),
]


@pytest.mark.parametrize(("action", "params", "outcome", "p"), CASES)
def test_hand_computed(cat, action, params, outcome, p):
    assert odds(cat, action, **params).p(outcome) == p


def test_every_action_has_three_cases():
    counts = {name: sum(1 for c in CASES if c[0] == name) for name in ACTIONS}
    assert {n for n, c in counts.items() if c < 3} == {"ramming"}


def test_ramming_is_not_implemented(cat):
    with pytest.raises(NotImplementedRule, match="not implemented: ramming"):
        odds(cat, "ramming")


def test_offboard_correction_d10_option(cat):  # BG-CORR
    d10 = Options(correcting_die="d10")
    assert odds(cat, "deviation", d10, mode="offboard_correct").p("on_target") == F(1, 5)


def test_proximity_and_obstacle_options(cat):  # BG-PROX, BG-HTH, BG-CAL
    four = Options(afv_proximity=4)
    assert odds(cat, "afv-gut", four, morale="10", distance=4.5).p("no_check") == 1
    dfd = Options(hth_obstacle="defender")
    assert odds(cat, "hand-to-hand", dfd, obstacle=True).p("attacker_wins") == F(229, 400)
    to_hit = Options(calibre_mods_on="to_hit")
    assert odds(cat, "he-fire", to_hit, firer="pziv_h", range=20).p("GD") == F(401, 2400)


def test_option_changes_odds(cat):
    # BG-HTMG: halftrack MGs 'less than' the number
    below = Options(mounted_mg_test="below")
    assert odds(cat, "availability", below, number=12, what="halftrack_mg").p("available") == 11 * E
    # BG-PROX / refusing placeholders
    refuse = Options(placeholder_tables=False)
    with pytest.raises(RuleError, match="lost in the seed"):
        odds(cat, "fire", refuse, weapon="kar98k", range=16)


def test_placeholders_listed(cat):
    d = odds(cat, "tank-fire", firer="panther_g", target="m4_sherman", range=40, facing="side")
    assert "panther_g.pen" in d.placeholders
    assert any(p.startswith("m4_sherman.facings.side.") for p in d.placeholders)
    assert odds(cat, "morale", morale="10").placeholders == frozenset()
