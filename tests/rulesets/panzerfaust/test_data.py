"""Panzerfaust army-list data: validation, pinned counts, refs, dates, rows checked against seed 000."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from conftest import page_text as seed_page
from conftest import ref_exists as _exists
from kriegsspiel.data import Provenance
from kriegsspiel.rulesets.panzerfaust.models import DateRange

COUNTS = Path(__file__).parent / "counts"  # one YAML file per nation: kind -> pinned count


def pinned() -> dict[tuple[str, str], int]:
    out = {}
    for f in sorted(COUNTS.glob("*.yaml")):
        for kind, n in (yaml.safe_load(f.read_text()) or {}).items():
            out[(f.stem, kind)] = n
    return out


def test_every_file_validates_and_counts_are_pinned(cat):
    counts = Counter((rec.nation, kind) for kind, e in cat for rec in [e.record])
    assert dict(counts) == pinned()
    data_nations = {n for n, _ in counts}
    assert data_nations == {f.stem for f in COUNTS.glob("*.yaml")}


def test_files_follow_layout(cat):
    for kind, entry in cat:
        path = Path(entry.file)
        assert path.stem == kind, entry.file
        assert path.parent.name == entry.record.nation, entry.file
        rec = entry.record
        if kind == "nation":
            assert rec.id == rec.nation
        else:
            assert rec.id.startswith(f"{rec.nation}/"), rec.id


def test_organisation_slots_and_item_refs_resolve(cat):
    orgs = cat.all("organisation")
    assert orgs
    for org in orgs:
        assert org.slots, org.id
        for slot in org.slots:
            assert _exists(cat, slot.ref), f"{org.id}: {slot.ref}"
    for row in cat.all("equipment"):
        if row.item_ref:
            assert _exists(cat, row.item_ref), f"{row.id}: {row.item_ref}"
    for _, entry in cat:  # AFVs, motorised guns, softskins: every mount's gun
        for mount in getattr(entry.record, "armament", []):
            if mount.gun_ref:
                assert _exists(cat, mount.gun_ref), f"{entry.record.id}: {mount.gun_ref}"


def _dates(rec):
    for name in ("dates", "available", "valid"):
        value = getattr(rec, name, None)
        if isinstance(value, DateRange):
            yield value
    for slot in getattr(rec, "slots", []):
        if slot.valid:
            yield slot.valid


def test_date_ranges_are_valid(cat):
    seen = 0
    for _, entry in cat:
        for d in _dates(entry.record):
            seen += 1
            assert d.start and d.end, d.raw
            assert 1930 <= d.start.year <= d.end.year <= 1946, d.raw
    assert seen >= 20


def test_bad_date_range_is_rejected():
    with pytest.raises(ValueError):
        DateRange(raw="41-39", start={"year": 1941}, end={"year": 1939})
    with pytest.raises(ValueError):
        DateRange(raw="1950", start={"year": 1950}, end={"year": 1950})


def test_regiment_hq_is_the_only_radio_allowed(cat):
    belgium = cat.get("nation", "belgium")
    assert belgium.radio_policy == "regiment_hq_only"
    assert belgium.allows["afv_radio"] is False
    assert all(
        a.radio == "none" and not a.smoke_dischargers
        for a in cat.all("afv")
        if a.nation == "belgium"
    )


# --- rows against the seed text --------------------------------------------------------------


def test_t13_i_row(cat):
    row = cat.get("afv", "belgium/t-13-i")
    text = seed_page(99)
    assert "67 T-13 I 47 L32,LMG C 5" in text
    assert (row.pv, row.size, row.fire_order) == (67, "C", 5)
    assert [m.raw for m in row.armament] == ["47 L32", "LMG"]
    assert row.speed_road is None and row.capacity is None  # lost in the seed
    assert row.prov("armour.hf") is Provenance.HISTORICAL
    assert row.prov_entry("armour.hf").ref


def test_agc_i_and_t15_rows(cat):
    text = seed_page(99)
    agc = cat.get("afv", "belgium/agc-i")
    assert f"{agc.pv} AGC I 47 L32,HMG {agc.size} {agc.fire_order}" in text
    t15 = cat.get("afv", "belgium/t-15")
    assert f"{t15.pv} T-15 HMG {t15.size} {t15.fire_order}" in text
    assert t15.one_man_turret and "One Man Turrets; T-15" in text


def test_47mm_at_gun_row(cat):
    gun = cat.get("gun", "belgium/47mm-l32-sa-frc")
    text = seed_page(100)
    assert "33 47mm L32 SA-FRC A (12) (11)" in text
    assert (gun.pv, gun.size, gun.to_hit) == (33, "A", [12, 11, 11, 9, 8, 6])


def test_105mm_howitzer_row(cat):
    gun = cat.get("gun", "belgium/105mm-l22-gp")
    text = seed_page(100)
    printed = " ".join(f"({v})" for v in gun.to_hit)
    assert f"mm L22 GP {gun.size} {printed} {gun.fire_order} Smk, Horse drawn" in text
    assert gun.horse_drawn_only and gun.smoke and gun.pv is None
    assert gun.prov("calibre_mm") is Provenance.SEED_INFERRED


def test_softskin_row(cat):
    v = cat.get("softskin", "belgium/fn63c-4x4")
    assert f"{v.pv} FN63C Heavy Truck {v.drive} {v.size} {v.tow}" in seed_page(99)


@pytest.mark.parametrize(
    "rid", ["inf-rifle-team", "inf-lmg-team-mag", "inf-fao-team", "inf-radio", "transport-tractor"]
)
def test_equipment_rows_raw_text_in_seed(cat, rid):
    row = cat.get("equipment", f"belgium/{rid}")
    text = seed_page(99)
    assert row.raw in text
    tokens = row.raw.split()
    if row.pv is not None and row.prov("pv") is Provenance.SEED:
        assert tokens[0] == str(row.pv)
    if row.fr is not None:
        assert tokens[-1] == str(row.fr)
    assert row.dates is not None and row.dates.raw in tokens


def test_every_equipment_raw_is_in_seed(cat):
    text = seed_page(99)
    for row in cat.all("equipment"):
        if row.nation == "belgium":
            assert row.raw in text, row.id


def test_troop_class_rows(cat):
    belgium = cat.get("nation", "belgium")
    for page in (22, 99):
        text = seed_page(page)
        assert "Offboard Artillery Conscript Reliable - 15% or x 0.85" in text
        assert "All Other Units Conscript Reliable - 25% or x 0.75" in text
    mults = {r.selector: r.multiplier for r in belgium.rating_rules}
    assert mults == {"offboard_artillery": 0.85, "all_other": 0.75}


def test_tank_company_limit_and_platoons(cat):
    assert "cannot have more than one Belgian Tank Company" in seed_page(100)
    inf = cat.get("organisation", "belgium/infantry-division-tank-company")
    cav = cat.get("organisation", "belgium/cavalry-division-tank-company")
    assert inf.max_in_force == cav.max_in_force == 1
    assert [s.ref for s in cav.slots if s.choice_group == "platoon"] == [
        "organisation:belgium/t-13-platoon",
        "organisation:belgium/t-15-platoon",
    ]


def test_nation_force_limits_name_existing_groups_or_orgs(cat):
    groups = {o.group for o in cat.all("organisation") if o.group}
    for nation in cat.all("nation"):
        for key in nation.max_in_force:
            if key.startswith("group:"):
                assert key.removeprefix("group:") in groups, key
            else:
                assert key in cat.entries["organisation"], key
    assert {"belgium/tank-company"} <= groups


def test_historical_values_cite_and_placeholders_explain(cat):
    seen = Counter()
    for _, entry in cat:
        rec = entry.record
        for path, fp in rec.field_provenance.items():
            if rec.nation == "belgium":
                seen[fp.provenance] += 1
            if fp.provenance is Provenance.HISTORICAL:
                assert fp.ref, f"{rec.id}.{path}"
            if fp.provenance in (Provenance.PLACEHOLDER, Provenance.SEED_INFERRED):
                assert fp.note, f"{rec.id}.{path}"
    # the armour of the four Belgian AFVs: two whole blocks and the T-13 I and II's five known faces
    # each, written face by face since their open turret rear became a P321 placeholder (issue 16)
    assert seen[Provenance.HISTORICAL] == 12
