"""Hungarian army list (seed 000, pp. 102-105): rows checked field by field against the seed text."""

from __future__ import annotations

from fractions import Fraction

import pytest

from conftest import assert_equipment_in_seed
from conftest import page_text as seed_page
from conftest import ref_exists as _exists
from kriegsspiel.data import Provenance
from kriegsspiel.rulesets.panzerfaust import points

NATION = "hungary"


def _mine(cat, kind):
    return [r for r in cat.all(kind) if r.nation == NATION]


def test_own_refs_resolve(cat):
    for org in _mine(cat, "organisation"):
        assert org.slots, org.id
        for slot in org.slots:
            if slot.ref.split(":")[1].startswith(NATION):
                assert _exists(cat, slot.ref), f"{org.id}: {slot.ref}"
    for row in _mine(cat, "equipment"):
        if row.item_ref and row.item_ref.split(":")[1].startswith(NATION):
            assert _exists(cat, row.item_ref), row.id


def test_toldi_row(cat):
    row = cat.get("afv", "hungary/38m-toldi-i-ii")
    assert "61 38M Toldi I-II 20 L105,LMG C" in seed_page(103)
    assert (row.pv, row.size, row.radio) == (61, "C", "command_only")
    assert row.armament[0].gun_ref == "gun:hungary/20mm-l105-s"
    assert [o.value for o in row.pv_options] == [10]  # command radio, p103
    assert "(+10 PV in this case)" in seed_page(103)
    assert row.prov("armour.hf") is Provenance.HISTORICAL and row.prov_entry("armour").ref


def test_csaba_one_man_turret_and_fo(cat):
    text = seed_page(103)
    row = cat.get("afv", "hungary/39m-csaba")
    assert f"M Csaba 20 L105,LMG {row.size} {row.fire_order}" in text
    assert row.one_man_turret and "One Man Turrets; 39M Csaba" in text
    assert "Smoke Dischargers; No AFVs equipped" in text
    assert not any(a.smoke_dischargers for a in _mine(cat, "afv"))


def test_solothurn_gun_row(cat):
    gun = cat.get("gun", "hungary/20mm-l105-s")
    printed = " ".join(f"({v})" for v in gun.to_hit)
    assert f"{gun.pv} 20mm L105 S {gun.size} {printed} {gun.fire_order} No gun shield" in seed_page(
        104
    )
    assert gun.gun_shield is False and gun.penetration  # P49, test_penetration_sources


def test_105mm_howitzer_and_heat(cat):
    gun = cat.get("gun", "hungary/105mm-l20-40m")
    text = seed_page(104)
    printed = " ".join(f"({v})" for v in gun.to_hit)
    assert f"mm L20 40M {gun.size} {printed} {gun.fire_order} Smk" in text
    (heat,) = gun.ammo
    assert (heat.kind, heat.basis, heat.available.start.year) == ("HEAT", "pg", 1943)
    assert "pg -> 105mm L20 40M HEAT 43+" in text
    assert gun.prov("calibre_mm") is Provenance.SEED_INFERRED and gun.horse_drawn_only


def test_softskin_rows(cat):
    text = seed_page(103)
    for sid in ("botond-38m", "raba"):
        v = cat.get("softskin", f"hungary/{sid}")
        assert f"{v.pv} " in text and f"Truck {v.drive} {v.size} {v.tow}" in text
    raba = cat.get("softskin", "hungary/raba")
    assert f"{raba.pv} Raba Medium Truck {raba.drive} {raba.size} {raba.tow}" in text


def test_every_equipment_raw_is_in_seed(cat):
    assert_equipment_in_seed(cat, NATION, (102, 103), 66, per_page=True)


@pytest.mark.parametrize(
    "rid",
    ["infantry-rifle-team", "infantry-mmg", "infantry-demolition-charge", "transport-tractor"],
)
def test_equipment_rows_tokens(cat, rid):
    row = cat.get("equipment", f"hungary/{rid}")
    tokens = row.raw.split()
    if row.pv is not None:
        assert tokens[0] in (str(row.pv), f"{row.pv}ea")
    assert row.dates.raw in tokens and tokens[-1] == str(row.fr)


def test_troop_classes_and_multiplier(cat):
    text = seed_page(103)
    assert "Offboard Artillery Conscript Reliable -15% or x 0.85" in text
    assert "All Other Units Conscript Reliable -25% or x 0.75" in text
    hun = cat.get("nation", NATION)
    mults = {r.selector: r.multiplier for r in hun.rating_rules}
    assert mults == {"offboard_artillery": 0.85, "all_other": 0.75}
    # an infantry squad (LMG belt 15 + 2 rifle 7) at conscript: 29 x 0.75 = 21.75
    factor = points.multiplier(points.rating_rule(hun))
    assert points.scaled_pv([15, 7, 7], factor, points.Rounding.EXACT) == Fraction(87, 4)
    assert points.scaled_pv([15, 7, 7], factor) == 22


def test_borrowed_charts_point_at_lenders(cat):
    tiger = cat.get("equipment", "hungary/afv-pz-vi-tiger")
    assert tiger.item_ref == "afv:germany/pz-vi-tiger"
    frc = cat.get("equipment", "hungary/gun-47mm-l32-sa-frc")
    assert frc.item_ref == "gun:belgium/47mm-l32-sa-frc" and frc.pv == 33
    assert frc.prov("pv") is Provenance.SEED_INFERRED


def test_tank_battalion_support_cannot_break_down(cat):
    assert "1 AA Battery (4 x Nimrod) battalion" in seed_page(105)
    bat = cat.get("organisation", "hungary/tank-battalion-1944")
    support = [s for s in bat.slots if s.role == "support"]
    assert all("cannot_break_down" in s.conditions for s in support) and len(support) == 2
