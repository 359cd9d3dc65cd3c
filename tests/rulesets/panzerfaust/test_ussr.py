"""Soviet army list (seed 000, pp. 81-89, with Guards and Siberian rules): rows checked against the seed."""

from __future__ import annotations

from fractions import Fraction

import pytest

from conftest import page_text as seed_page
from conftest import row_at
from kriegsspiel.data import Provenance
from kriegsspiel.rulesets.panzerfaust import points


def _rule(cat, selector):
    return next(r for r in cat.get("nation", "ussr").rating_rules if r.selector == selector)


def test_rating_table_rows(cat):
    text = seed_page(82)
    assert "Siberians Regular Elite +25% or x 1.25" in text
    assert "Pre-1941 Winter Conscript Poor -50% or x" in text
    assert "Guards Conscript Elite no modification to PV" in text
    assert "All Other Units Conscript Reliable - 25% or x 0.75" in text
    assert "Conscript 15% or x 0.85 : Regular no modification to PV" in text
    assert (_rule(cat, "siberians").troop_class, _rule(cat, "siberians").multiplier) == (
        "regular",
        1.25,
    )
    assert _rule(cat, "pre_1941_winter").multiplier == 0.5
    assert _rule(cat, "guards").morale == "elite" and _rule(cat, "guards").multiplier == 1.0
    assert _rule(cat, "all_other").multiplier == 0.75
    off = _rule(cat, "offboard_artillery")
    assert off.multiplier is None and off.multiplier_by_class == {"conscript": 0.85, "regular": 1.0}


def test_t34_worked_example_price(cat):
    # p22: the T-34/76 at 188 bought by conscript reliable troops costs 188 x 0.75 = 141
    t34 = cat.get("afv", "ussr/t-34-76-m1940")
    assert t34.pv == 188 and "188 T-34/76 m L30,2LMG C" in seed_page(83)
    assert points.scaled_pv([t34.pv], Fraction(3, 4)) == 141
    assert points.scaled_pv([t34.pv], Fraction(1, 2)) == 94  # pre-winter-1941 poor


@pytest.mark.parametrize(
    ("rid", "printed", "page"),
    [
        ("t-26-m1931", "45 T-26 m LMG C 4", 83),
        ("t-26tu-m1931", "82 T-26TU m L45,LMG C 7", 83),
        ("ot-130", "63 OT-130 F/thrower,LMG C 4", 83),
        ("bt-5a", "96 BT-5A 76 L16,2*LMG C 7", 83),
        ("t-38m", "45 T-38M 20 L B 5", 83),
        ("ba-64", "64 BA 64 4x4 HMG C 3", 84),
        ("su-57a", "SU-57(a) 57 L C 4", 84),
    ],
)
def test_afv_rows(cat, rid, printed, page):
    row = cat.get("afv", f"ussr/{rid}")
    assert printed in seed_page(page)
    tokens = printed.split()
    assert tokens[-2:] == [row.size, str(row.fire_order)]
    if tokens[0].isdigit():
        assert int(tokens[0]) == row.pv
    assert (row.speed_road is None or row.prov("speed_road") != "seed") and (
        row.speed_cc is None or row.prov("speed_cc") != "seed"
    )  # lost
    assert not row.smoke_dischargers


def test_komsomolet_capacity_survives(cat):
    k = cat.get("afv", "ussr/komsomolet")
    assert "36 Komsomolet LMG B 3 2" in seed_page(84)
    assert (k.pv, k.size, k.fire_order, k.capacity) == (36, "B", 3, 2)


def test_radio_list(cat):
    assert "except for BT-5A, BT-7A & T-26A which" in seed_page(84)
    for rid in ("bt-5a", "bt-7a", "t-26a", "t-34-85-late", "is-2"):
        assert cat.get("afv", f"ussr/{rid}").radio == "standard", rid
    for rid in ("bt-7", "t-34-76-m1941", "kv-1-m1941"):
        assert cat.get("afv", f"ussr/{rid}").radio == "command_only", rid


@pytest.mark.parametrize(
    ("rid", "printed"),
    [
        ("45mm-l46-m32-m37", "44 45mm L46 M32 & M37 A"),
        ("76mm-l16-m27-m43", "29 76mm L16 M27/M43 B/A (11) (10)"),
        ("20mm-l55-aa-m40", "24 20mm L55 AA M40 A (13) (12) (10) (7) (5)"),
    ],
)
def test_gun_rows(cat, rid, printed):
    gun = cat.get("gun", f"ussr/{rid}")
    text = seed_page(85) + " " + seed_page(86)
    assert printed.startswith(f"{gun.pv} ")
    printed = row_at(text, printed)
    assert " ".join(f"({v})" for v in gun.to_hit) in printed


def test_special_ammo_rows(cat):
    text = seed_page(85) + " " + seed_page(86)
    assert "+48pg -> 122mm L22 M38 HEAT 43" in text
    heat = cat.get("gun", "ussr/122mm-l22-m38").ammo[0]
    assert (heat.kind, heat.basis, heat.pv_delta, heat.available.start.year) == (
        "HEAT",
        "pg",
        48,
        1943,
    )
    assert heat.to_hit == [10, 10, 9, 9, 7, 6, 5]
    apcr = cat.get("gun", "ussr/76mm-l41-42-m").ammo[0]
    assert "pp -> 76mm L41/42 APCR (1942+) (11)" in text
    assert apcr.basis == "pp" and apcr.available.start.year == 1942


def test_equipment_rows(cat):
    text = seed_page(81) + " " + seed_page(82)
    rows = [r for r in cat.all("equipment") if r.nation == "ussr"]
    assert len(rows) == 149
    for row in rows:
        assert row.raw in text, row.id
    rifle = cat.get("equipment", "ussr/inf-rifle-team")
    assert (rifle.raw, rifle.pv, rifle.fr) == ("7 Rifle Team 39-45? 0", 7, 0)
    bt8 = cat.get("equipment", "ussr/afv-bt-8")
    assert bt8.pv == 105 and bt8.raw == "/105 BT 7 / BT"
    assert cat.get("afv", "ussr/bt-8").prov("pv") is Provenance.SEED_INFERRED


def test_kv_company_limit(cat):
    assert "You cannot have more than 1 KV" in seed_page(87)
    assert cat.get("nation", "ussr").max_in_force == {"group:ussr/kv-company": 1}
    groups = {o.id for o in cat.all("organisation") if o.group == "ussr/kv-company"}
    assert groups == {"ussr/heavy-tank-company-1941", "ussr/kv-heavy-tank-company"}


def test_rifle_company(cat):
    text = seed_page(86)
    assert "1 Rifle Company HQ (1 Company HQ" in text
    co = cat.get("organisation", "ussr/rifle-company")
    assert [(s.min, s.ref) for s in co.slots][:2] == [
        (1, "organisation:ussr/rifle-company-hq"),
        (3, "organisation:ussr/rifle-platoon"),
    ]
    mortars = cat.get("organisation", "ussr/company-mortar-section").slots
    assert [(s.min, s.valid.start.year) for s in mortars] == [(3, 1939), (2, 1942)]


def test_guards_support_increases(cat):
    text = seed_page(89)
    assert "increase from 2 to 3 or 4" in text
    assert "MG Section (treat as a platoon) 2" in text
    base = cat.get("organisation", "ussr/regiment-at-gun-company").slots[0]
    guards = cat.get("organisation", "ussr/guards-regiment-at-gun-company").slots[0]
    assert (
        base.ref == guards.ref
        and (base.min, base.max) == (2, 2)
        and (guards.min, guards.max) == (3, 4)
    )
    mg = cat.get("organisation", "ussr/guards-company-mg-section").slots[0]
    assert (mg.min, mg.max, mg.ref) == (3, 4, "infantry_team:ussr/mmg-team")
    guards_rule = next(r for r in cat.get("nation", "ussr").rating_rules if r.selector == "guards")
    assert "support units increased by 25-50%" in guards_rule.constraints


def test_light_tank_side_armour_is_not_the_floor_plate(cat):
    # T-26 15 mm and BT 13 mm hull sides; the 6 mm of the public ranges is floor/roof plate
    for rid in ("ussr/t-26-m1931", "ussr/t-26tu-m1931", "ussr/t-26-m1933"):
        assert cat.get("afv", rid).armour.hs == 1.5, rid
    assert cat.get("afv", "ussr/bt-5").armour.hs == 1.3
    bt7 = cat.get("afv", "ussr/bt-7").armour
    assert (bt7.hf, bt7.hs, bt7.tf) == (2.2, 1.3, 1.5)
