"""Panzerfaust nation-independent tables (nation `common`): rows checked against seed 000 pages."""

from __future__ import annotations

import pytest

from conftest import page_text as seed_page
from kriegsspiel.data import Provenance


def _rows(cat, table_id: str) -> dict:
    return {r.key: r.values for r in cat.get("table", table_id).rows}


# --- p22-23 troop class table ------------------------------------------------------------------

NATION_LABEL = {
    "belgium": "Belgium",
    "britain": "Britain",
    "finland": "Finland",
    "france": "France",
    "germany": "Germany",
    "hungary": "Hungary",
    "italy": "Italy",
    "japan": "Japan",
    "poland": "Poland",
    "rumania": "Rumania",
    "ussr": "Soviet",
    "usa_europe": "US Europe",
    "usa_pacific": "US Pacific",
}


def test_troop_class_rows_are_printed(cat):
    text = seed_page(22) + " " + seed_page(23)
    rows = _rows(cat, "common/compulsory-troop-class-table")
    assert len(rows) == 41
    assert {v["nation"] for v in rows.values()} == set(NATION_LABEL)
    for key, v in rows.items():
        assert NATION_LABEL[v["nation"]] in text, key
        assert v["pv_modification"] in text, key
        printed = v["pv_modification"].rsplit("x ", 1)
        if v["multiplier"] is not None and len(printed) == 2 and printed[1]:
            assert float(printed[1].split()[0].rstrip(",")) == v["multiplier"], key


def test_troop_class_multipliers_and_worked_example(cat):
    table = cat.get("table", "common/compulsory-troop-class-table")
    rows = {r.key: r.values for r in table.rows}
    assert "Italy Offboard Artillery Regular Reliable no modification to PV" in seed_page(22)
    assert rows["italy/all_other"]["multiplier"] == 0.5
    assert rows["germany/offboard_artillery"]["multiplier_conscript"] == 0.85
    assert rows["germany/offboard_artillery"]["multiplier_veteran"] == 1.0
    # Soviet factor lost at the page end, recovered from the p22 example
    assert "All Other Units Conscript Reliable - 25% or x" in seed_page(22)
    assert "188 x 0.75 = 141 points" in seed_page(22)
    assert round(188 * rows["ussr/all_other"]["multiplier"]) == 141
    i = [r.key for r in table.rows].index("ussr/all_other")
    assert table.prov(f"rows.{i}.values.multiplier") is Provenance.SEED_INFERRED


def test_troop_class_effects(cat):
    eff = _rows(cat, "common/troop-class-effects")
    assert "+2 Firer is veteran" in seed_page(16) and "-2 Firer is conscript" in seed_page(16)
    assert (
        eff["infantry_fire_row_shift"]["veteran"],
        eff["infantry_fire_row_shift"]["conscript"],
    ) == (2, -2)
    assert "+1 Firer is Veteran -1 Firer is Conscript" in seed_page(30)
    assert (eff["at_fire_to_hit"]["veteran"], eff["at_fire_to_hit"]["conscript"]) == (1, -1)
    morale = _rows(cat, "common/morale-rating-effects")["morale_test_modifier"]
    assert '+2 Unit is "Elite" status -2 Unit is "Poor" status' in seed_page(23)
    assert (morale["elite"], morale["poor"]) == (2, -2)


# --- p18 CQC table, p20 AT weapons -----------------------------------------------------------


@pytest.mark.parametrize(
    "rid",
    [
        "assault-rifle-team",
        "company-hq-team",
        "fao-fac-team",
        "flame-thrower-team-man",
        "hmg",
        "lmg-team-mag",
        "mmg",
        "platoon-hq-team",
        "rifle-team",
        "smg-team",
        "us-lmg-team-mag",
        "us-rifle-carbine-team",
    ],
)
def test_cqc_table_row(cat, rid):
    team = cat.get("infantry_team", f"common/{rid}")
    assert f"{team.pv} {team.name} {team.cqc}" in seed_page(18)
    assert team.prov("fire_factors") == "placeholder"  # p15 factors lost: P53


def test_lost_cqc_and_rule_priced_teams(cat):
    text = seed_page(18)
    assert "15 LMG Team (belt) AT Weapon Team * 2" in text
    assert cat.get("infantry_team", "common/lmg-team-belt").cqc is None
    at = cat.get("infantry_team", "common/at-weapon-team")
    assert at.pv is None and at.cqc == 2
    assert "AT Weapon Teams cost 3 points plus" in text
    # the p59 Panzerschreck team (39) is 3 + the p20 weapon PV
    assert 3 + cat.get("infantry_weapon", "common/panzerschreck-rp54").pv == 39


@pytest.mark.parametrize(
    "rid", ["7-9mm-wz35", "ptrd-41", "type-97", "panzerschreck-rp54", "panzerfaust-150", "piat"]
)
def test_at_weapon_row(cat, rid):
    w = cat.get("infantry_weapon", f"common/{rid}")
    text = seed_page(20)
    hits = " ".join(f"({v})" for v in w.to_hit)
    assert f"{w.name} (%) {hits}" in text
    if w.pv is not None:
        assert f"{w.pv} {w.name} (%)" in text
    if w.available:
        assert w.available.raw in text


def test_at_weapon_surviving_penetration(cat):
    text = seed_page(20)
    assert "8 Panzerfaust 30/60 (%) (13) * Germany Pen 18 (Aug 43+)" in text
    pzf = cat.get("infantry_weapon", "common/panzerfaust-30-60")
    assert (pzf.pv, pzf.penetration, pzf.one_shot) == (8, [18], True)
    assert pzf.available.start.month == 8 and pzf.available.start.year == 1943
    mine = cat.get("infantry_weapon", "common/at-magnetic-mine")
    assert "Germany Pen 12 Engineers only" in text
    assert mine.engineers_only and mine.penetration == [12]
    assert cat.get("infantry_weapon", "common/bazooka").pv is None  # lost


# --- p35 artillery, p38 rockets, p39 fieldworks, p43 aircraft ------------------------------


def test_mortar_rows(cat):
    text = seed_page(35)
    rows = _rows(cat, "common/mortars-table")
    for key in ("45_60mm", "76_82mm"):
        v = rows[key]
        printed = (
            f"{v['calibre']} # {v['bzr_cm']}cm {v['pv']} {v['min_range_cm']}cm "
            f"{v['max_range_cm']}cm {v['crew_teams']} team"
        )
        assert printed in text
    assert "mm 9cm 70 60cm 250cm 2 teams" in text
    assert cat.get("battery", "common/mortar-medium").pv == 70
    assert cat.get("battery", "common/mortar-45-60mm").offboard_allowed is False


def test_offboard_battery_worked_examples(cat):
    text = seed_page(35)
    heavy = cat.get("battery", "common/offboard-heavy-200mm-plus").pv
    light = cat.get("battery", "common/offboard-light-60-80mm").pv
    other = _rows(cat, "common/other-point-values")
    fire_control, fao = other["battery_fire_control"]["pv"], other["fao_team"]["pv"]
    assert "= 890 PV" in text and "= 410 PV" in text
    assert 2 * heavy + fire_control + 2 * fao == 890
    assert 4 * light + fire_control + 2 * fao == 410
    b = cat.get("battery", "common/offboard-light-60-80mm")
    assert b.prov("pv") is Provenance.SEED_INFERRED


def test_rocket_rows(cat):
    text = seed_page(38)
    assert "1 x 8cmR-VfW 48 x 80mm 35cm 90" in text
    assert "1 x M-8 36 x 82mm 30cm 70" in text
    assert cat.get("battery", "common/rocket-8cm-r-vfw").pv == 90
    assert cat.get("battery", "common/rocket-m-8").pv == 70
    assert cat.get("battery", "common/rocket-15cm-nbw41").pv is None


def test_mines_and_obstacles(cat):
    assert "To-Trip-Off (4) (6) (7) (8) (9)" in seed_page(38)
    trip = _rows(cat, "common/mine-density-table")["to_trip_off_2d6"]
    assert list(trip.values()) == [4, 6, 7, 8, 9]
    text = seed_page(39)
    assert "AT ditch = 15 pts per 5cm x 5cm square" in text
    assert "Dragon Teeth = 30 pts per 5cm" in text
    assert "Spikes/Hedgehogs = 20 pts per 5cm" in text
    assert "10cm x 2cm belt = 10 PV" in text
    pvs = {w.id: w.pv for w in cat.all("fieldwork") if w.nation == "common"}
    assert pvs["common/at-ditch"] == 15 and pvs["common/dragons-teeth"] == 30
    assert pvs["common/spikes-hedgehogs"] == 20 and pvs["common/barbed-wire"] == 10
    mult = _rows(cat, "common/fortification-pv-multipliers")
    assert "PV = 1.5 x Occupants PV" in text
    assert mult["concrete_pillbox"]["multiplier_of_occupants_pv"] == 1.5


def test_aircraft_worked_examples(cat):
    text = seed_page(43)
    pv = _rows(cat, "common/aircraft-point-values")
    for rid, total in (("ju87d", 150), ("me410a", 220), ("hs129", 140)):
        assert cat.get("aircraft", f"common/{rid}").pv == total
        assert f"TOTAL = {total} points" in text
    base_dive, base_fb = pv["dive_bomber_base"]["pv"], pv["fighter_bomber_base"]["pv"]
    assert base_dive + pv["2x_mmg"]["pv"] + 30 + 30 == 150
    assert base_fb + pv["2x_mmg"]["pv"] + pv["2x_20mm"]["pv"] + pv["75mm_gun"]["pv"] == 140
    assert "Dive-Bomber = 80 points Fighter-Bomber = 60 points" in text


def test_spaced_armour_examples(cat):
    text = seed_page(28)
    rows = _rows(cat, "common/spaced-armour-pv")
    assert "6 facings (3 per side) x 3 PV equals 18 PV" in text
    assert rows["example_stug_iii_g_side_skirts"]["pv"] == 6 * rows["per_facing"]["pv"]
    assert rows["example_panzer_iv_with_turret_rear"]["pv"] == 7 * rows["per_facing"]["pv"] == 21


# --- range bands, errata -----------------------------------------------------------------------


def test_gun_range_bands(cat):
    bands = cat.get("range_bands", "common/gun-range-bands")
    assert "32cm becomes 40cm, 95cm becomes 100cm" in seed_page(29)
    assert "set ranges up to 250cm" in seed_page(34)
    assert len(bands.edges_cm) == 10
    assert bands.edges_cm[0] == 20 and bands.edges_cm[1] == 40 and bands.edges_cm[-1] == 250
    assert bands.prov("edges_cm.1") is Provenance.SEED_INFERRED
    assert bands.prov("edges_cm.9") is Provenance.SEED
    assert bands.edges_cm[2:9] == [60, 80, 100, 130, 160, 190, 220]  # P48 placeholders
    assert all(bands.prov(f"edges_cm.{i}") is Provenance.PLACEHOLDER for i in range(2, 9))


def test_errata_p111(cat):
    text = seed_page(111)
    rows = _rows(cat, "common/errata-p111")
    assert len(rows) == 7
    assert "-1 Firing Recoilless Gun" in text and "(was -4)" in text and "(was -5)" in text
    cqc = _rows(cat, "common/cqc-variations")
    assert "moved_under_half" not in " ".join(cqc)  # removed by errata item 6
    assert cqc["veteran"]["row_shift"] == 2


def test_fr_table_row_labels(cat):
    text = seed_page(44)
    assert "3000 no limit Up to 2 Up to 1 NA 4000" in text
    rows = _rows(cat, "common/frequency-rating-limits")
    assert (rows["3000"]["fr_5"], rows["3000"]["fr_6"], rows["3000"]["fr_7"]) == (2, 1, "NA")


def test_intact_rule_tables(cat):
    inf = _rows(cat, "common/infantry-fire-variations")
    assert "-8 Target in fortifications +2 Firer is veteran" in seed_page(16)
    assert inf["target_in_fortifications"]["row_shift"] == -8
    at = _rows(cat, "common/at-fire-variations")
    assert "-2 Target is Size `A'" in seed_page(30)
    assert at["target_size_a"]["to_hit"] == -2 and at["second_shot_stationary_target"]["cap"] == 6
    assert "Morale Reaction Table; Modified Dice Roll Result +3 or higher OK" in seed_page(24)
    assert _rows(cat, "common/morale-reaction-table")["ok"]["min_2d6"] == 3
    pen = _rows(cat, "common/penetration-effects-table")
    assert "14 or more Destroyed Hull/Gun Damaged 9-10" in seed_page(31)
    assert pen["destroyed"]["min_3d6"] == 14 and pen["stunned_2_moves"]["max_3d6"] == 10


def test_gun_size_movement_and_radius_tables(cat):
    assert "`B' - Medium Guns: 2 teams 1 moves 2.5cm/turn" in seed_page(33)
    size = _rows(cat, "common/gun-size-table")
    assert (size["B"]["crew_teams"], size["B"]["manhandle_cm_per_turn"]) == (2, 2.5)
    assert "Orchards x1 x3/4 x2/3" in seed_page(25)
    orch = _rows(cat, "common/vehicle-movement-restrictions")["orchards"]
    assert orch["semi_tracked"] == 0.75 and orch["motorcycle"] == 0.333
    assert "radios 100cm for German/Allied or 60cm for Soviet/Axis/others" in seed_page(7)
    radius = _rows(cat, "common/command-radius")
    assert radius["radio_german_allied"]["radius_cm"] == 100


def test_weather_table_rows_match_seed(cat):
    text = seed_page(10)
    table = cat.get("table", "common/weather-determination-table")
    assert len(table.rows) == 11
    for row in table.rows:
        assert f"{row.key} {' '.join(row.values.values())} " in text, row.key
    assert _rows(cat, "common/weather-determination-table")["7"]["ne_winter"] == "C"
