"""Finnish army list (seed 000, pp. 101-102): rows checked against the seed text."""

from __future__ import annotations

from fractions import Fraction

import pytest

from conftest import assert_equipment_in_seed
from conftest import page_text as seed_page
from kriegsspiel.data import Provenance
from kriegsspiel.rulesets.panzerfaust import points


def test_rating_table_and_multiplier(cat):
    text = seed_page(101)
    assert "Offboard Artillery Veteran Elite no modification to PV" in text
    assert "All Other Units Veteran Elite +50% or x 1.5" in text
    fin = cat.get("nation", "finland")
    mults = {r.selector: r.multiplier for r in fin.rating_rules}
    assert mults == {"offboard_artillery": 1.0, "all_other": 1.5}
    assert {r.troop_class for r in fin.rating_rules} == {"veteran"}
    assert points.scaled_pv([7, 13], Fraction(3, 2)) == 30  # rifle + mag LMG team at x1.5


def test_vickers_rows(cat):
    text = seed_page(101)
    v1 = cat.get("afv", "finland/vickers-6ton-37mm-l22")
    assert f"{v1.pv} Vickers 6ton m L22,LMG {v1.size} {v1.fire_order}" in text
    v2 = cat.get("afv", "finland/vickers-6ton-37mm-l45")
    assert f"{v2.pv} Vickers 6ton m L45,LMG {v2.size} BT L C 10" in text
    assert v2.fire_order is None  # lost with the BT-42 PV
    assert v1.prov("armour.hf") is Provenance.HISTORICAL
    assert v1.prov("armament.0.calibre_mm") in (Provenance.SEED_INFERRED, Provenance.SEED)
    bt = cat.get("afv", "finland/bt-42")
    assert bt.pv is None and bt.size == "C" and bt.fire_order == 10
    assert "Radios; No AFVs equipped" in text
    assert all(a.radio == "none" for a in (v1, v2, bt))


@pytest.mark.parametrize(
    ("rid", "pv", "fr"),
    [
        ("inf-rifle-team", 7, 1),
        ("inf-lmg-team-belt", 15, 4),
        ("inf-hmg-team", 30, 5),
        ("inf-pzfaust-30-60", 8, 2),
        ("inf-molotov-cocktail", 3, 1),
        ("transport-medium-truck", None, 7),
    ],
)
def test_equipment_rows(cat, rid, pv, fr):
    row = cat.get("equipment", f"finland/{rid}")
    assert row.raw in seed_page(101)
    tokens = row.raw.split()
    assert row.pv == pv and row.fr == fr
    if pv is not None:
        assert tokens[0] == str(pv)
    assert tokens[-1] == str(fr)
    assert row.dates is not None and row.dates.raw in tokens


def test_every_equipment_raw_is_in_seed(cat):
    assert_equipment_in_seed(cat, "finland", (101,), 63)


def test_borrowed_charts_are_referenced_by_id(cat):
    refs = {r.item_ref for r in cat.all("equipment") if r.nation == "finland" and r.item_ref}
    assert "afv:germany/stug-iii-g" in refs
    assert "gun:germany/105mm-l28-fh-18" in refs
    assert "gun:poland/37mm-l45-bofors" in refs
    assert "afv:ussr/t-34-85-late" in refs
    assert "( see German Guns.)" in seed_page(101)
    assert "No Finnish Gun Chart is given" in seed_page(101)


def test_rifle_platoon(cat):
    text = seed_page(102)
    assert "2 Automatic Rifle Groups (squads) 1 LMG" in text
    pl = cat.get("organisation", "finland/rifle-platoon")
    assert [(s.min, s.ref) for s in pl.slots] == [
        (1, "infantry_team:finland/platoon-hq-team"),
        (2, "organisation:finland/rifle-group"),
        (2, "organisation:finland/automatic-rifle-group"),
    ]
    at = cat.get("organisation", "finland/battalion-at-section")
    assert "1 AT Section (3 6 AT Rifle Teams)" in text
    assert (at.slots[0].min, at.slots[0].max) == (3, 6)
