"""Rumanian army list (seed 000, pp. 108-110): rows checked field by field against the seed text."""

from __future__ import annotations

from conftest import assert_equipment_in_seed
from conftest import page_text as seed_page
from kriegsspiel.data import Provenance

NATION = "rumania"


def test_every_equipment_raw_is_in_seed(cat):
    assert_equipment_in_seed(cat, NATION, (109,), 47, tokens=True)


def test_troop_class_table(cat):
    text = seed_page(109)
    assert "Offboard Artillery Conscript Reliable -15% or x 0.85" in text
    assert "Armor etc see notes Conscript Reliable -25% or x 0.75" in text
    assert "All Other Units Conscript Poor -50% or x 0.50" in text
    nation = cat.get("nation", NATION)
    mults = {r.selector: (r.troop_class, r.morale, r.multiplier) for r in nation.rating_rules}
    assert mults == {
        "offboard_artillery": ("conscript", "reliable", 0.85),
        "armour_guards_mountain_cavalry": ("conscript", "reliable", 0.75),
        "all_other": ("conscript", "poor", 0.50),
    }
    # p22 disagrees on offboard artillery (Poor); the list page wins, and the disagreement is noted
    assert "Rumania Offboard Artillery Conscript Poor -15% or x 0.85" in seed_page(22)
    assert "p22" in nation.notes


def test_afv_rows(cat):
    text = seed_page(109)
    for rid, printed in [
        ("r-1", "39 R-1 2 LMG B 3"),
        ("s-id", "79 S-Id 47 L43, LMG B 6"),
        ("r35-45", "93 R35/45 45 L46,LMG B 7"),
        ("lt-34", "83 LT L45,2LMG C 6"),
    ]:
        assert printed in text
        afv = cat.get("afv", f"{NATION}/{rid}")
        tokens = printed.split()
        assert str(afv.pv) == tokens[0]
        assert (afv.size, str(afv.fire_order)) == tuple(tokens[-2:])
        assert (
            (afv.speed_road is None or afv.prov("speed_road") != "seed")
            and (afv.speed_cc is None or afv.prov("speed_cc") != "seed")
            and afv.capacity is None
        )
    r1 = cat.get("afv", f"{NATION}/r-1")
    assert r1.one_man_turret and "One Man Turrets; R-1, R35/45." in text
    assert [m.count for m in r1.armament] == [2]
    assert "Radios; TACAM R-2, TACAM T60." in text
    radios = {a.id.split("/")[1]: a.radio for a in cat.all("afv") if a.nation == NATION}
    assert radios["tacam-r-2"] == radios["tacam-t60"] == "standard"
    assert radios["lt-34"] == "command_only"
    tacam = cat.get("afv", f"{NATION}/tacam-t60")
    assert "TACAM T60 76 L41,LMG C 7" in text and tacam.pv is None and tacam.fire_order == 7
    assert tacam.prov("armour.hf") is Provenance.HISTORICAL


def test_gun_rows(cat):
    text = seed_page(110)
    bohler = cat.get("gun", f"{NATION}/47mm-l39-bohler")
    printed = " ".join(f"({v})" for v in bohler.to_hit)
    assert (
        f"{bohler.pv} 47mm L39 Bohler {bohler.size} {printed} {bohler.fire_order} No gun shield"
        in text
    )
    assert bohler.gun_shield is False
    how = cat.get("gun", f"{NATION}/105mm-l14-m12-16")
    printed = " ".join(f"({v})" for v in how.to_hit)
    assert f"mm L14 M12/16 {how.size} {printed} {how.fire_order} (Horse-dawn)" in text
    assert how.pv is None and how.horse_drawn_only
    assert how.prov("calibre_mm") is Provenance.SEED_INFERRED
    krupps = cat.get("gun", f"{NATION}/75-76mm-l30-krupps")
    printed = " ".join(f"({v})" for v in krupps.to_hit)
    assert f"/76mm L30 Krupps {krupps.size} {printed} mm L14" in text
    assert krupps.fire_order is None


def test_softskin_rows(cat):
    text = seed_page(109)
    for rid, name in [
        ("daimler-adgr-tatra-t92", "Daimler ADGR, Tatra T92 Light Truck"),
        ("botund-38m", "Botund 38M Light Truck"),
        ("raba-medium-truck", "Raba Medium Truck"),
    ]:
        v = cat.get("softskin", f"{NATION}/{rid}")
        assert f"{v.pv} {name} {v.drive} {v.size} {v.tow}" in text


def test_infantry_rows(cat):
    text = seed_page(109)
    for rid, printed in [
        ("inf-rifle-team", "7 Rifle Team 39-44? 1"),
        ("inf-smg-team", "10 SMG Team 39-44? 5"),
        ("inf-lmg-team-mag", "15 LMG Team (Mag fed) 39-44? 4"),
        ("inf-fao", "30 FAO 39-45? 5"),
    ]:
        assert printed in text
        row = cat.get("equipment", f"{NATION}/{rid}")
        tokens = printed.split()
        assert (str(row.pv), row.dates.raw, str(row.fr)) == (tokens[0], tokens[-2], tokens[-1])
        team = cat.resolve(row.item_ref)
        assert team.pv == row.pv


def test_organisations(cat):
    text = seed_page(110)
    assert "Infantry Section (1 LMG Team, 2 Rifle Teams) *" in text
    sec = cat.get("organisation", f"{NATION}/infantry-section")
    assert [(s.min, s.ref) for s in sec.slots] == [
        (1, "infantry_team:rumania/lmg-team-mag"),
        (2, "infantry_team:rumania/rifle-team"),
    ]
    assert "3-5 * Artillery Battalion (3 batteries, each with 4 x 75mm)" in text
    assert "* maximum of 5 battalions" in text
    art = cat.get("organisation", f"{NATION}/artillery-regiment")
    assert [(s.min, s.max) for s in art.slots] == [(3, 5), (0, 2)]
    assert "Use German tank company organisation." in text
    assert cat.get("nation", NATION).chart_borrowing["tank company organisation"] == "germany"
