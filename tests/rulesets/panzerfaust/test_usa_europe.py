"""US Europe army list (seed 000, pp. 89-96): rows checked field by field against the seed text."""

from __future__ import annotations

from conftest import assert_equipment_in_seed
from conftest import page_text as seed_page
from conftest import ref_exists as _exists
from kriegsspiel.data import Provenance

NATION = "usa_europe"


def _mine(cat, kind):
    return [r for r in cat.all(kind) if r.nation == NATION]


def test_own_refs_resolve(cat):
    for org in _mine(cat, "organisation"):
        assert org.slots, org.id
        for slot in org.slots:
            assert _exists(cat, slot.ref), f"{org.id}: {slot.ref}"
    for row in _mine(cat, "equipment"):
        if row.item_ref and row.item_ref.split(":")[1].startswith(NATION):
            assert _exists(cat, row.item_ref), row.id
    for afv in _mine(cat, "afv"):
        for mount in afv.armament:
            if mount.gun_ref:
                assert _exists(cat, mount.gun_ref), afv.id


def test_m2a4_row(cat):
    row = cat.get("afv", "usa_europe/m2a4")
    assert "134 M2A4 37 L54,4*LMG C" in seed_page(91)
    assert (row.pv, row.size, row.chart) == (134, "C", "tank")
    assert [m.raw for m in row.armament] == ["37 L54", "4*LMG"]
    assert row.armament[1].count == 4 and row.radio == "standard"
    assert row.speed_road is None or row.prov("speed_road") != "seed"
    # the seed lost the row's armour; P261 fills it from the War Thunder wiki's M2A4 armour table
    # (front plate 25.4 mm at 19deg / lower glacis at 20deg: 2.70 -> 2.7)
    assert row.armour.hf == 2.7 and row.prov("armour.hf") is Provenance.HISTORICAL


def test_m26_and_sherman_rows(cat):
    text = seed_page(91)
    m26 = cat.get("afv", "usa_europe/m26-pershing")
    assert f"M26 'Pershing' 90 L53,2*LMG {m26.size} {m26.fire_order}" in text
    assert m26.armament[0].gun_ref == "gun:usa_europe/90mm-l53-m1a1-m2"
    assert m26.prov("armour.hf") is Provenance.HISTORICAL and m26.prov_entry("armour").ref
    m4 = cat.get("afv", "usa_europe/m4a3e8-76mm-hvss")
    assert "M4A3E8 (76mm) HVSS 76 L52,2*LMG C" in text
    assert [o.value for o in m4.pv_options] == [18]  # flame kit, p92
    assert "cost 18 extra PV" in seed_page(92)


def test_pv_recovered_from_equipment_list(cat):
    m36 = cat.get("afv", "usa_europe/m36-gmc-jackson")
    assert "314 M36 GMC 'Jackson'" in seed_page(90)
    assert m36.pv == 314 and m36.prov("pv") is Provenance.SEED_INFERRED
    lee = cat.get("afv", "usa_europe/m3-lee-late")
    assert "/266 M3 'Lee' Early / Late" in seed_page(89)
    assert lee.pv == 266 and cat.get("afv", "usa_europe/m3-lee-early").pv is None


def test_57mm_gun_row(cat):
    gun = cat.get("gun", "usa_europe/57mm-l50-m1")
    printed = " ".join(f"({v})" for v in gun.to_hit)
    assert f"{gun.pv} 57mm L50 M1 {gun.size} {printed} {gun.fire_order} (HE 1944+)" in seed_page(93)
    (apds,) = gun.ammo
    assert apds.kind == "APDS" and apds.basis == "pp" and apds.pv_delta is None
    assert "pp -> 57mm L50 APDS (12) (12)" in seed_page(93)


def test_hvap_prices_from_notes(cat):
    text = seed_page(94)
    for gid, pv in (("76mm-l52-3in-m5", 14), ("90mm-l53-m1a1-m2", 43)):
        (hvap,) = cat.get("gun", f"usa_europe/{gid}").ammo
        assert hvap.kind == "HVAP" and hvap.pv_delta == pv
        assert f"+{pv} PV per vehicle" in text and f"+{pv} PV per platoon" in text


def test_softskin_and_infantry_rows(cat):
    text = seed_page(90)
    v = cat.get("softskin", "usa_europe/gmc-2-1-2-ton")
    assert f"{v.pv} GMC (2 ton) Medium Truck {v.drive} {v.size} {v.tow}" in text
    for rid in (
        "infantry-us-rifle-carbine-team",
        "infantry-bazooka-team",
        "infantry-hmg",
        "transport-jeep",
    ):
        row = cat.get("equipment", f"usa_europe/{rid}")
        tokens = row.raw.split()
        assert row.raw in text
        assert row.dates.raw in tokens and tokens[-1] == str(row.fr)
        if row.pv is not None:
            assert tokens[0] == str(row.pv)


def test_every_equipment_raw_is_in_seed(cat):
    assert_equipment_in_seed(cat, NATION, (89, 90), 99, per_page=True)


def test_troop_classes_and_multipliers(cat):
    text = seed_page(90)
    assert "Paratroopers Veteran Elite +50% or x 1.5" in text
    assert "All Other Units Regular Reliable no modification to PV" in text
    usa = cat.get("nation", NATION)
    rules = {(r.selector, r.troop_class): r.multiplier for r in usa.rating_rules}
    assert rules[("paratroops", "veteran")] == 1.5
    assert rules[("armor", "regular")] == 1.0 and rules[("armor", "veteran")] == 1.25
    assert usa.offboard_batteries_per_company == 2 and usa.aircraft_per_company == 2
    assert usa.allows["cavalry"] is False and usa.allows["horse_teams"] is False


def test_infantry_platoon_org(cat):
    text = seed_page(94)
    assert "3 Infantry Sections (1 US LMG Team, 2 US Rifle Teams) *" in text
    plat = cat.get("organisation", "usa_europe/infantry-platoon")
    sec = cat.get("organisation", "usa_europe/infantry-section-1-lmg")
    assert [(s.min, s.ref) for s in sec.slots] == [
        (1, "infantry_team:usa_europe/us-lmg-team-mag"),
        (2, "infantry_team:usa_europe/us-rifle-carbine-team"),
    ]
    assert {s.choice_group for s in plat.slots if s.role == "standard"} == {"section"}


def test_half_track_cross_country_is_two_thirds(cat):
    # P52: half-tracks C/C = round(Rd x 2/3) = 30 at 45 mph
    for rid in ("usa_europe/m3-gmc", "usa_europe/m16-mgmc", "usa_europe/m3-half-trk"):
        afv = cat.get("afv", rid)
        assert (afv.speed_road, afv.speed_cc) == (45, 30), rid
