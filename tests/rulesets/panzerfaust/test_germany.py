"""German army list (seed 000, pp58-71): rows checked field by field against the seed page text."""

from __future__ import annotations

from collections import Counter

from conftest import page_text as seed_page
from conftest import ref_exists as _exists
from kriegsspiel.data import Provenance


def test_rating_table(cat):
    de = cat.get("nation", "germany")
    text = seed_page(59)
    assert "SS/Paratroops Veteran Elite +50% or x 1.5" in text
    assert "Volksgrenadiers Conscript Reliable - 25% or x 0.75" in text
    assert "All Other Units Veteran Reliable +25% or x 1.25" in text
    rules = {r.selector: r for r in de.rating_rules}
    assert (rules["ss"].multiplier, rules["paratroops"].morale) == (1.5, "elite")
    assert rules["volksgrenadiers"].multiplier == 0.75
    assert rules["all_other"].multiplier == 1.25
    assert rules["offboard_artillery"].multiplier_by_class == {"conscript": 0.85, "veteran": 1.0}
    assert de.allows["horse_teams"] and de.allows["cavalry"]


def test_chart_sizes(cat):
    charts = Counter(a.chart for a in cat.all("afv") if a.nation == "germany")
    assert charts == {"tank": 31, "spg": 35, "apc_recon": 32}


def test_pz_ii_a_c_row(cat):
    row = cat.get("afv", "germany/pz-ii-ausf-a-c")
    assert "80 Pz II Ausf A-C 20 L55,LMG C 5" in seed_page(60)
    assert (row.pv, row.size, row.fire_order) == (80, "C", 5)
    assert [m.raw for m in row.armament] == ["20 L55", "LMG"]
    assert (row.speed_road is None or row.prov("speed_road") != "seed") and row.capacity is None
    assert row.smoke_dischargers and row.radio == "standard"
    assert row.prov("armour.hf") is Provenance.HISTORICAL and row.prov_entry("armour.hf").ref


def test_maus_and_panther_rows(cat):
    text = seed_page(61)
    maus = cat.get("afv", "germany/maus")
    assert f"Maus 128 L55,75L36,2*LMG {maus.size} {maus.fire_order}" in text
    assert maus.pv is None
    panther = cat.get("afv", "germany/pz-v-panther")
    assert "Pz V `Panther' 75 L70,2LMG D" in text
    assert panther.armament[0].gun_ref == "gun:germany/75mm-l70-kwk-42"
    assert panther.armour.hf > 8.0  # 80 mm glacis at 55 deg, slope folded in (p27)


def test_apc_rows(cat):
    text = seed_page(61)
    row = cat.get("afv", "germany/sdkfz-250-8")
    assert f"{row.pv} Sdkfz 250/8 75 L C {row.fire_order}" in text
    kfz = cat.get("afv", "germany/kfz-13-14")
    assert f"{kfz.pv} Kfz 13/14 4x2 LMG {kfz.size} {kfz.fire_order}" in text
    assert kfz.radio == "command_only"
    assert cat.get("afv", "germany/sig-i-b").radio == "none"
    assert "Radios; All AFVs, except - sig I B, Sdkfz 13/14" in seed_page(62)


def test_one_man_turrets(cat):
    assert "One Man Turrets; Pz I, Pz II" in seed_page(62)
    omt = {a.id for a in cat.all("afv") if a.nation == "germany" and a.one_man_turret}
    assert {"germany/pz-i", "germany/pz-ii-flamm", "germany/pz-iii-flamm"} <= omt
    assert "germany/pz-iii-ausf-n" not in omt


def test_pak40_row(cat):
    gun = cat.get("gun", "germany/75mm-l46-pak-40")
    text = seed_page(64)
    printed = " ".join(f"({v})" for v in gun.to_hit)
    assert f"mm L46 PaK 40 {gun.size} {printed} {gun.fire_order} Smk pp APCR PzGr40" in text
    assert gun.prov("calibre_mm") is Provenance.SEED_INFERRED
    assert gun.ammo[0].kind == "APCR" and gun.ammo[0].basis == "pp"
    assert gun.pv is None


def test_105mm_l28_pv_from_worked_example(cat):
    gun = cat.get("gun", "germany/105mm-l28-fh-18")
    assert "German 105mm L28 costs 67 PV" in seed_page(35)
    assert "costs +32pg" in seed_page(35)
    assert gun.pv == 67 and gun.prov("pv") is Provenance.SEED_INFERRED
    heat = gun.ammo[0]
    assert (heat.kind, heat.basis, heat.pv_delta) == ("HEAT", "pg", 32)
    assert heat.available.start.year == 1942


def test_first_gun_rows(cat):
    text = seed_page(63)
    spzb = cat.get("gun", "germany/28mm-l61-spzb-41")
    assert "23 28mm L61 spzb 41 A (12) (11) (9) (8)" in text
    assert (spzb.pv, spzb.size, spzb.to_hit) == (23, "A", [12, 11, 9, 8])
    pak36 = cat.get("gun", "germany/37mm-l45-pak-35-36")
    assert "30 37mm L45 PaK 35/36 A (12)" in text
    assert pak36.pv == 30 and pak36.ammo[0].kind == "SPIGOT"


def test_softskin_and_motorised_rows(cat):
    text = seed_page(59)
    blitz = cat.get("softskin", "germany/opel-blitz-ford-g917t-medium-truck-4x2")
    assert "22 Opel Blitz, Ford G917T Medium Truck 4x2 C C" in text
    assert (blitz.pv, blitz.drive, blitz.size, blitz.tow) == (22, "4x2", "C", "C")
    ht = cat.get("softskin", "germany/sdkfz-10-demag-1t-light-halftrack")
    assert "18 Sdkfz 10 Demag (1t) Light Halftrack ht B B" in text
    assert (ht.pv, ht.drive, ht.size, ht.tow) == (18, "ht", "B", "B")
    vier = cat.get("motorised_gun", "germany/2cm-flakvierling-38-s-lkw-4-5t")
    assert "55 2cm Flakveirling s Lkw 4.5t Md" in seed_page(60)
    assert (vier.pv, vier.drive, vier.size, vier.stabilisers) == (55, "4x4", "D", True)


# --- the shared checks, restricted to the German files (the shared ones assume Belgium only) ---


def _german(cat):
    for kind, entry in cat:
        if entry.record.nation == "germany":
            yield kind, entry.record


def test_german_refs_resolve(cat):
    for kind, rec in _german(cat):
        refs = [m.gun_ref for m in getattr(rec, "armament", []) if m.gun_ref]
        refs += [s.ref for s in getattr(rec, "slots", [])]
        if kind == "equipment" and rec.item_ref:
            refs.append(rec.item_ref)
        for ref in refs:
            assert _exists(cat, ref), f"{rec.id}: {ref}"


def test_german_provenance_explained(cat):
    seen = Counter()
    for _, rec in _german(cat):
        for path, fp in rec.field_provenance.items():
            seen[fp.provenance] += 1
            if fp.provenance is Provenance.HISTORICAL:
                assert fp.ref, f"{rec.id}.{path}"
            if fp.provenance in (Provenance.PLACEHOLDER, Provenance.SEED_INFERRED):
                assert fp.note, f"{rec.id}.{path}"
    assert seen[Provenance.HISTORICAL] >= 40  # armour blocks of tanks and SP guns
    placeholders = [
        fp
        for _, rec in _german(cat)
        for fp in rec.field_provenance.values()
        if fp.provenance is Provenance.PLACEHOLDER
    ]
    assert all(
        fp.note.startswith(
            (
                "P49",
                "P51",
                "P52",
                "P54",
                "P55",
                "P111",
                "P113",
                "P114",
                "P225",
                "P321",
                "P322",
                "P323",
            )
        )
        for fp in placeholders
    )  # gun penetration (P55: recalled tables), speeds, infantry AT penetration, date ends, org
    # windows, armour from a sister vehicle (P225) or a placeholder face (P321, P322)


def test_german_dates_valid(cat):
    for _, rec in _german(cat):
        for name in ("dates", "available", "valid"):
            d = getattr(rec, name, None)
            if d is not None:
                assert d.start and d.end and 1930 <= d.start.year <= d.end.year <= 1946, d.raw
        for slot in getattr(rec, "slots", []):
            if slot.valid:
                assert slot.valid.start and slot.valid.end, slot.valid.raw


def test_german_equipment_raw_in_seed(cat):
    text = seed_page(58) + " " + seed_page(59)
    for row in cat.all("equipment"):
        if row.nation == "germany":
            assert row.raw in text, row.id


def test_equipment_rows(cat):
    text = seed_page(58)
    pz2j = cat.get("equipment", "germany/afv-pz-ii-j")
    assert "Pz IIJ 42-43? 6" in text
    assert (pz2j.dates.start.year, pz2j.dates.end.year, pz2j.fr) == (1942, 1943, 6)
    assert pz2j.item_ref == "afv:germany/pz-ii-ausf-j"
    # one printed row '/95 Pz II D-E / F' gives two entries; the first PV comes from the chart
    de, f = (
        cat.get("equipment", "germany/afv-pz-ii-d-e"),
        cat.get("equipment", "germany/afv-pz-ii-f"),
    )
    assert "/95 Pz II D-E / F" in text and de.raw == f.raw
    assert f.pv == 95 and de.pv == 85 and de.prov("pv") is Provenance.SEED_INFERRED
    schreck = cat.get("equipment", "germany/infantry-panzershreck-team")
    assert "39 Panzershreck Team 44-45? 3" in seed_page(59)
    assert (schreck.pv, schreck.fr, schreck.dates.start.year) == (39, 3, 1944)


def test_infantry_platoon_org(cat):
    text = seed_page(66)
    assert "1 Infantry Platoon HQ (1 Platoon HQ" in text
    assert "3 Infantry Squad (1 LMG Team, 2 Rifle Teams) *" in text
    pl = cat.get("organisation", "germany/infantry-platoon")
    hq = cat.get("organisation", "germany/infantry-platoon-hq")
    assert [(s.min, s.ref) for s in hq.slots] == [
        (1, "infantry_team:germany/platoon-hq-team"),
        (1, "infantry_team:germany/rifle-team"),
    ]
    squads = [s for s in pl.slots if s.choice_group == "squads"]
    assert {s.max for s in squads} == {3}
    sq = cat.get("organisation", "germany/infantry-squad")
    assert sorted((s.max, s.ref.rsplit("/", 1)[1]) for s in sq.slots) == [
        (1, "lmg-team-belt"),
        (2, "rifle-team"),
    ]


def test_heavy_tank_company_1943(cat):
    assert "Heavy Tank Company HQ (1 x Tiger)" in seed_page(69)
    co = cat.get("organisation", "germany/heavy-tank-company-1943")
    assert [(s.max, s.ref) for s in co.slots] == [
        (1, "afv:germany/pz-vi-tiger"),
        (2, "organisation:germany/heavy-tank-platoon"),
        (2, "organisation:germany/escort-platoon"),
    ]
