"""US Pacific army list (seed 000, pp. 96-98): rows checked against the seed text; charts are US Europe's."""

from __future__ import annotations

import pytest

from conftest import assert_equipment_in_seed
from conftest import page_text as seed_page
from conftest import ref_exists as _exists
from kriegsspiel.data import Provenance
from kriegsspiel.rulesets.panzerfaust import points

NATION = "usa_pacific"


def _mine(cat, kind):
    return [r for r in cat.all(kind) if r.nation == NATION]


def test_refs_resolve_into_us_europe(cat):
    for org in _mine(cat, "organisation"):
        assert org.slots, org.id
        for slot in org.slots:
            if slot.ref.split(":")[1].startswith("usa_"):
                assert _exists(cat, slot.ref), f"{org.id}: {slot.ref}"
    rows = _mine(cat, "equipment")
    for row in rows:
        if row.item_ref and row.item_ref.split(":")[1].startswith("usa_"):
            assert _exists(cat, row.item_ref), row.id
    afv_refs = [r.item_ref for r in rows if r.category == "afv" and r.item_ref]
    assert afv_refs and all(ref.startswith("afv:usa_europe/") for ref in afv_refs)
    assert not _mine(cat, "afv") and not _mine(cat, "gun")  # p97: use the US Europe charts
    assert "Use USA Europe Softskin, Motorised Guns, Armor and Gun Charts" in seed_page(97)


def test_every_equipment_raw_is_in_seed(cat):
    assert_equipment_in_seed(cat, NATION, (96,), 77)


@pytest.mark.parametrize(
    "rid",
    [
        "infantry-rifle-team",
        "infantry-lmg-team-belt-fed",
        "infantry-bazooka-team",
        "infantry-fac",
        "transport-heavy-truck",
    ],
)
def test_equipment_rows_tokens(cat, rid):
    row = cat.get("equipment", f"usa_pacific/{rid}")
    tokens = row.raw.split()
    if row.pv is not None:
        assert tokens[0] == str(row.pv)
    assert row.dates.raw in tokens and tokens[-1] == str(row.fr)


def test_first_afv_row_reads_144(cat):
    row = cat.get("equipment", "usa_pacific/afv-m3")
    assert "US Pacific Equipment Lists PV AFV DATES" in seed_page(96)
    assert row.pv == 144 and row.item_ref == "afv:usa_europe/m3"


def test_lvt_and_flame_kit_rows(cat):
    kit = cat.get("equipment", "usa_pacific/afv-m4-flamethrower-kit")
    assert kit.raw == "M4 Flamethrower Kit 44-45?" and kit.dates.start.year == 1944
    assert kit.pv == 18 and kit.prov("pv") is Provenance.SEED_INFERRED
    m16 = cat.get("equipment", "usa_pacific/afv-m16-mgmc")
    assert m16.raw == "M16 MGMC 45? 6" and m16.fr == 6 and m16.dates.raw == "45?"


def test_troop_classes(cat):
    text = seed_page(97)
    assert "Marines Veteran Elite +50% or x 1.5" in text
    assert "Army Conscript Reliable -25% or x 0.75" in text
    nat = cat.get("nation", NATION)
    marines = points.rating_rule(nat, "marines")
    army = points.rating_rule(nat, "army")
    assert (marines.troop_class, marines.morale, marines.multiplier) == ("veteran", "elite", 1.5)
    assert (army.troop_class, army.morale, army.multiplier) == ("conscript", "reliable", 0.75)
    assert nat.chart_borrowing["armour"] == "usa_europe"
    # a D-series Marine section: LMG (mag) 13 + 2 rifle 7 = 27, Veteran Elite x1.5 = 40.5 -> 41
    assert points.scaled_pv([13, 7, 7], points.multiplier(marines)) == 41


def test_d_series_marine_section(cat):
    assert "3 US Marine Section (1 LMG Team, 2 Rifle Teams) *" in seed_page(97)
    sec = cat.get("organisation", "usa_pacific/marine-section-d")
    assert [(s.min, s.ref) for s in sec.slots] == [
        (1, "infantry_team:usa_pacific/lmg-team-mag"),
        (2, "infantry_team:usa_pacific/rifle-team"),
    ]
    late = cat.get("organisation", "usa_pacific/marine-section-late")
    assert [(s.min, s.max) for s in late.slots] == [(3, 3), (0, 1)]
