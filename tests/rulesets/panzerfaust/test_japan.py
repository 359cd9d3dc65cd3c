"""Japanese army list (seed 000, pp. 76-81): rows checked field by field against the seed text."""

from __future__ import annotations

from conftest import assert_equipment_in_seed
from conftest import page_text as seed_page
from kriegsspiel.data import Provenance

NATION = "japan"


def mine(cat):
    for kind, entry in cat:
        if entry.record.nation == NATION:
            yield kind, entry.record


def test_every_equipment_raw_is_in_seed(cat):
    assert_equipment_in_seed(cat, NATION, (76, 77), 77, tokens=True)


def test_troop_class_alternatives(cat):
    text = seed_page(77)
    assert "All Other Units Veteran Elite +50% or" in text
    rules = cat.get("nation", NATION).rating_rules
    by_group: dict[str, dict[str, float]] = {}
    for r in rules:
        by_group.setdefault(r.exclusive_group, {})[r.selector] = r.multiplier
    assert by_group == {
        "veteran": {"offboard_artillery": 1.0, "all_other": 1.5},
        "regular": {"offboard_artillery": 1.0, "all_other": 1.25},
    }
    nation = cat.get("nation", NATION)
    assert nation.prov("rating_rules.1.multiplier") is Provenance.SEED_INFERRED
    assert nation.prov("rating_rules.0.multiplier") is Provenance.SEED


def test_tank_rows(cat):
    text = seed_page(78)
    for rid, printed in [
        ("light-type-95-ha-go", "60 Light Type 95 `HA-GO' 37 L45,2*LMG"),
        ("light-type-98-ke-ni", "69 Light Type 98 `KE-NI' 37 L50,2*LMG"),
        ("medium-type-89b-chi-ro", "76 Medium Type 89B `CHI-RO' 57 L22,2*LMG"),
        ("amphibious-type-02-ka-mi", "75 Amphibious Type 02 `KA-MI 37 L50,2*LMG"),
        ("type-98-so-ki", "62 Type 98 `SO-KI' 20 L73 Double AA C 4"),
    ]:
        afv = cat.get("afv", f"{NATION}/{rid}")
        row = (
            printed
            if printed.endswith(f" {afv.size} {afv.fire_order}")
            else (f"{printed} {afv.size} {afv.fire_order}")
        )
        assert row in text
        assert str(afv.pv) == printed.split()[0]
        assert (afv.speed_road is None or afv.prov("speed_road") != "seed") and (
            afv.speed_cc is None or afv.prov("speed_cc") != "seed"
        )
    assert "36 Combat Car Type 92 LMG B 3" in seed_page(77)
    cc = cat.get("afv", f"{NATION}/combat-car-type-92")
    assert (cc.pv, cc.size, cc.fire_order, cc.one_man_turret) == (36, "B", 3, False)
    chi_ha = cat.get("afv", f"{NATION}/medium-type-97-chi-ha")
    assert "92 Medium Type 97 `CHI-HA' 57 L26,2*LMG" in text
    assert chi_ha.fire_order is None and chi_ha.smoke_dischargers and chi_ha.radio == "command_only"
    assert chi_ha.prov("armour.hf") is Provenance.HISTORICAL
    assert "One Man Turrets; All `Light' tanks, except Type 02 KA-MI." in text
    lights = [a for a in cat.all("afv") if a.nation == NATION and a.name.startswith("Light")]
    assert lights and all(a.one_man_turret for a in lights)
    assert not cat.get("afv", f"{NATION}/amphibious-type-02-ka-mi").one_man_turret


def test_apc_rows(cat):
    text = seed_page(78)
    assert "37 Type 91 `Sumida' 6x4 LMG C" in text
    naval = cat.get("afv", f"{NATION}/type-95-naval")
    assert naval.pv == 48 and naval.prov("pv") is Provenance.SEED_INFERRED
    assert naval.armament[0].count == 4 and naval.fire_order == 3
    hoki = cat.get("afv", f"{NATION}/ho-ki")
    assert "`HO-KI' (Cap:11)" in text and hoki.capacity == 11


def test_gun_rows(cat):
    p78, p79 = seed_page(78), seed_page(79)
    t11 = cat.get("gun", f"{NATION}/37mm-l22-type-11")
    assert "11 37mm L22 Type 11 A (11)" in p78
    assert (t11.pv, t11.size, t11.to_hit, t11.fire_order, t11.gun_shield) == (
        11,
        "A",
        [11, 10, 7],
        3,
        False,
    )
    at = cat.get("gun", f"{NATION}/37mm-l45-type-94-97")
    printed = " ".join(f"({v})" for v in at.to_hit)
    assert f"{at.pv} 37mm L45 Type 94/97 {at.size} {printed} {at.fire_order} Horse-drawn" in p78
    t90 = cat.get("gun", f"{NATION}/75mm-l38-type-90")
    printed = " ".join(f"({v})" for v in t90.to_hit)
    assert f"mm L38 Type 90 {t90.size} {printed} {t90.fire_order} WP" in p79
    assert len(t90.to_hit) == 10 and t90.wp and t90.prov("calibre_mm") is Provenance.SEED_INFERRED
    inf_gun = cat.get("gun", f"{NATION}/70mm-l9-type-92")
    assert "23 70mm L9 Type 92 A (11)" in p79
    assert "pg -> 70mm L9 Type 92 HEAT" in p79
    (heat,) = inf_gun.ammo
    assert (heat.kind, heat.basis, heat.to_hit, heat.pv_delta) == ("HEAT", "pg", [9, 9, 8, 6], None)
    aa = cat.get("gun", f"{NATION}/20mm-l73-type-98")
    assert "24 20mm L73 Type 98 A (13)" in p79
    assert (aa.pv, aa.to_hit, aa.fire_order, aa.gun_shield) == (24, [13, 12, 10, 8, 6], 1, False)


def test_softskin_rows(cat):
    text = seed_page(77)
    for rid, name in [
        ("isuzu-type-94-a-b", "Isuzu Type 94 A/B Medium Truck"),
        ("isuzu-type-2", "Isuzu Type 2 (7 ton) Heavy Truck"),
        ("type-94-92-98-medium-tractor", "Type 94,92,98 (4-6 ton) Medium Tractor"),
        ("type-92-95-heavy-tractor", "Type 92, 95 (8-13 ton) Heavy Tractor"),
    ]:
        v = cat.get("softskin", f"{NATION}/{rid}")
        assert f"{v.pv} {name} {v.drive} {v.size} {v.tow}" in text


def test_infantry_block_lost_its_numbers(cat):
    text = seed_page(77)
    assert "PV INFANTRY DATES PROD FR 7 Rifle" in text
    rows = [r for k, r in mine(cat) if k == "equipment" and r.category in ("infantry", "other")]
    assert all(r.fr is None for r in rows)
    # the dates cells were lost: only the Type 97 ATR row is dated, by its designation (P233)
    dated = {r.id: r.prov_entry("dates.start").note for r in rows if r.dates is not None}
    assert list(dated) == ["japan/inf-20mm-type-97-atr-team"]
    assert all(note.startswith("P233") for note in dated.values())
    assert [r.pv for r in rows if r.prov("pv") is Provenance.SEED and r.pv is not None] == [7]


def test_organisations(cat):
    text = seed_page(80)
    assert "3 Infantry Sections (1 LMG Team, 3 Rifle Teams) *" in text
    sec = cat.get("organisation", f"{NATION}/standard-infantry-section")
    assert [(s.min, s.ref) for s in sec.slots] == [
        (1, "infantry_team:japan/lmg-team-mag"),
        (3, "infantry_team:japan/rifle-team"),
    ]
    assert "Maximum of one such company in your force." in text
    assert cat.get("nation", NATION).max_in_force == {"japan/armored-recon-company": 1}
    assert "Maximum of 3 batteries may be used" in seed_page(81)
    ind = cat.get("organisation", f"{NATION}/medium-tank-platoon-5")
    assert {s.min for s in ind.slots} == {5}
