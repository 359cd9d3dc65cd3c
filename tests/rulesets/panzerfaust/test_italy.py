"""Italian army list (seed 000, pp. 71-76): rows checked field by field against the seed text."""

from __future__ import annotations

from conftest import assert_equipment_in_seed
from conftest import page_text as seed_page
from kriegsspiel.data import Provenance

NATION = "italy"


def test_every_equipment_raw_is_in_seed(cat):
    assert_equipment_in_seed(cat, NATION, (71,), 90, tokens=True)


def test_troop_class_table(cat):
    text = seed_page(71)
    assert "All Other Units Conscript Poor -50% or x 0.50" in text
    assert "Bersaglieri Regular Reliable no modification to PV" in text
    rules = {
        r.selector: (r.troop_class, r.morale, r.multiplier)
        for r in cat.get("nation", NATION).rating_rules
    }
    assert rules == {
        "offboard_artillery": ("regular", "reliable", 1.0),
        "onboard_artillery": ("regular", "reliable", 1.0),
        "bersaglieri": ("regular", "reliable", 1.0),
        "all_other": ("conscript", "poor", 0.5),
    }
    assert "Italy Offboard Artillery Regular Reliable no modification to PV" in seed_page(22)


def test_tank_rows(cat):
    text = seed_page(72)
    for rid, printed in [
        ("l5-21", "45 L5/21 2 LMG B 4"),
        ("l5-32", "52 L5/32 37 L B 7"),
        ("l3-flamethrower", "58 L3 Flamethrower F/Thr,LMG B 3"),
        ("l6-40", "74 L6/40 20 L55,LMG C 5"),
        ("semovente-l40-47-32", "75 Semovente L40 da 47/32 47 L B 6"),
    ]:
        assert printed in text
        afv = cat.get("afv", f"{NATION}/{rid}")
        tokens = printed.split()
        assert str(afv.pv) == tokens[0]
        assert (afv.size, str(afv.fire_order)) == tuple(tokens[-2:])
        assert (afv.speed_road is None or afv.prov("speed_road") != "seed") and afv.capacity is None
    p40 = cat.get("afv", f"{NATION}/p40")
    assert "P40 75 L34,LMG C 8" in text and p40.pv is None and p40.fire_order == 8
    assert "One Man Turrets; L5/21, L5/32, L6/40, M11/39." in seed_page(73)
    omt = {a.id for a in cat.all("afv") if a.nation == NATION and a.one_man_turret}
    assert omt == {"italy/l5-21", "italy/l5-32", "italy/l6-40", "italy/m11-39"}
    assert "Smoke Dischargers; No AFVs equipped!" in seed_page(73)
    assert not any(a.smoke_dischargers for a in cat.all("afv") if a.nation == NATION)
    m43 = cat.get("afv", f"{NATION}/semovente-m43-75-46")
    assert "208 Semovente M43 da 75/46 75 L C" in seed_page(73) and m43.pv == 208
    assert cat.get("afv", f"{NATION}/l6-40").prov("armour.hf") is Provenance.HISTORICAL


def test_apc_rows(cat):
    text = seed_page(73)
    for rid, printed in [
        ("lancia-izm", "46 Lancia IZ`M' 4x2 3 LMG C 3"),
        ("ab611", "63 AB611 6x4 37 L40,2LMG C 5"),
        ("ab41", "70 AB41 4x4 20 L65,2LMG C 5"),
    ]:
        assert printed in text
        afv = cat.get("afv", f"{NATION}/{rid}")
        assert (str(afv.pv), afv.size, str(afv.fire_order)) == (
            printed.split()[0],
            *printed.split()[-2:],
        )
    lince = cat.get("afv", f"{NATION}/ab-lince")
    assert "36 AS Lince" in seed_page(71) and lince.pv == 36
    assert lince.prov("pv") is Provenance.SEED_INFERRED


def test_gun_rows(cat):
    p73, p74 = seed_page(73), seed_page(74)
    s18 = cat.get("gun", f"{NATION}/20mm-l105-s")
    assert "20 20mm L105 S A (12) (11)" in p73
    assert (s18.pv, s18.to_hit, s18.fire_order, s18.gun_shield) == (
        20,
        [12, 11, 10, 8, 6],
        2,
        False,
    )
    g47 = cat.get("gun", f"{NATION}/47mm-l32-47-32")
    assert "pp -> StGt 41 HEAT 43+ (11)" in p73
    (spigot,) = g47.ammo
    assert (spigot.kind, spigot.basis, spigot.to_hit) == ("SPIGOT", "pp", [11, 7])
    m65 = cat.get("gun", f"{NATION}/65mm-l17-65-17")
    printed = " ".join(f"({v})" for v in m65.to_hit)
    assert (
        f"{m65.pv} 65mm L17 65/17 {m65.size} {printed} {m65.fire_order} No gun shield, Hdrawn"
        in p74
    )
    assert m65.horse_drawn_only and m65.ammo[0].to_hit == [10, 9, 8, 7]
    how = cat.get("gun", f"{NATION}/105mm-l25-105-25")
    printed = " ".join(f"({v})" for v in how.to_hit)
    assert f"mm L25 105/25 {how.size} {printed} {how.fire_order} Smk" in p74
    assert how.ammo[0].available.start.year == 1943
    aa = cat.get("gun", f"{NATION}/20mm-l65-aa-20-65")
    assert "24 20mm L65 AA 20/65 A (13)" in p74
    assert (aa.pv, aa.fire_order) == (24, 1)


def test_motorised_gun_and_softskin_rows(cat):
    p71, p72 = seed_page(71), seed_page(72)
    for rid, name in [
        ("fiat-spa-tl37-cl39", "Fiat/Spa TL37, CL39 Light Truck"),
        ("fiat-618-cm-ceirano-50c", "Fiat 618 CM, Ceirano 50C Light Truck"),
        ("breda-fiat-spa-dovunque", "Breda, Fiat/Soa Dovunque Heavy Truck"),
        ("fiat-708-oci", "Fiat 708 OCI Lt Tractor"),
    ]:
        v = cat.get("softskin", f"{NATION}/{rid}")
        assert f"{v.pv} {name} {v.drive} {v.size} {v.tow}" in p71 + " " + p72
    ac = cat.get("motorised_gun", f"{NATION}/autocannone-102-35")
    assert "85 Autocannone 102/35 Hvy AA truck 4x2 D mm L35" in p72
    assert (ac.pv, ac.drive, ac.size, ac.armament[0].calibre_len) == (85, "4x2", "D", 35)
    assert ac.prov("armament.0.calibre_mm") is Provenance.SEED_INFERRED


def test_organisations(cat):
    p75 = seed_page(75)
    assert "Treat ea as two squads, each with" in p75
    squad = cat.get("organisation", f"{NATION}/infantry-squad")
    assert [(s.min, s.ref) for s in squad.slots] == [
        (1, "infantry_team:italy/lmg-team-mag"),
        (2, "infantry_team:italy/rifle-team"),
    ]
    assert "3 Bersaglien Motorised Infantry Section (2 LMG" in p75
    sec = cat.get("organisation", f"{NATION}/bersaglieri-section")
    assert [s.min for s in sec.slots] == [2, 1, 1]
    assert "Infantry Regiment HQ HQ 3-5 Battalion *" in seed_page(74)
    reg = cat.get("organisation", f"{NATION}/infantry-regiment")
    assert (reg.slots[1].min, reg.slots[1].max) == (3, 5)
