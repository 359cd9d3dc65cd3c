"""British army list (seed 000, pp. 45-53): rows checked field by field against the seed text."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from conftest import page_text as seed_page
from conftest import row_at
from kriegsspiel.data import Provenance

NATION = "britain"
COUNTS = Path(__file__).parent / "counts" / f"{NATION}.yaml"


def _mine(cat, kind):
    return [r for r in cat.all(kind) if r.nation == NATION]


def test_counts_pinned(cat):
    counts = Counter(kind for kind, e in cat if e.record.nation == NATION)
    assert dict(counts) == yaml.safe_load(COUNTS.read_text())


def test_equipment_raw_text_in_seed(cat):
    text = seed_page(45)
    for row in _mine(cat, "equipment"):
        assert row.raw in text, row.id
        tokens = row.raw.split()
        if row.pv is not None and row.prov("pv") is Provenance.SEED and "/" not in tokens[0]:
            assert tokens[0] in (str(row.pv), "5ea"), row.id
        if row.fr is not None and row.prov("fr") is Provenance.SEED:
            assert tokens[-1] == str(row.fr), row.id
        if row.dates is not None and row.dates.raw:  # "" = lost in the seed, sourced (P113)
            assert row.dates.raw in row.raw, row.id


def test_shared_pv_rows_split(cat):
    text = seed_page(45)
    assert "240/258 M3 Grant Early/Late 42-43?" in text
    assert "/258 Grant Early/Late 42-43?" in text
    early = cat.get("equipment", "britain/afv-grant-early")
    assert early.pv == 240 and early.prov("pv") is Provenance.SEED_INFERRED
    assert cat.get("equipment", "britain/afv-grant-late").pv == 258
    assert "25/33 20mm L85 AA /Dual 39-45?" in text
    assert cat.get("equipment", "britain/gun-20mm-l85-aa-dual").pv == 33
    assert cat.get("gun", "britain/20mm-l85-aa-dual").pv == 33


@pytest.mark.parametrize(
    "rid",
    [
        "a9",
        "a10-cs",
        "a13-ii-cs-cruiser",
        "light-tank-mk-vi-aa",
        "churchill-crocodile",
        "staghound-aa",
        "humber-iv",
        "daimler-i-iii",
        "marmon-herrington-iiib",
    ],
)
def test_afv_chart_rows(cat, rid):
    afv = cat.get("afv", f"britain/{rid}")
    text = seed_page(47)
    arm = ",".join(m.raw for m in afv.armament)
    name = afv.name.replace("Marmon Herrington", "Marmon Herr'ton")
    drive = " 4x4" if afv.chart == "apc_recon" else ""
    printed = f"{name}{drive} {arm} {afv.size}"
    if afv.fire_order is not None:
        printed += f" {afv.fire_order}"
    if afv.pv is not None and afv.prov("pv") is Provenance.SEED:
        printed = f"{afv.pv} {printed}"
    assert printed in text
    assert (
        afv.speed_road is None or afv.prov("speed_road") != "seed"
    ) and afv.capacity is None  # lost in the seed


def test_flag_lists(cat):
    text = seed_page(48)
    assert "Radios; All AFVs, except AEC Deacon, Matilda" in text
    assert "One Man Turrets; Light Tank MkI-V, Matilda I." in text
    afvs = {a.id.split("/")[1]: a for a in _mine(cat, "afv")}
    no_radio = {k for k, a in afvs.items() if a.radio == "none"}
    assert no_radio == {"deacon", "a11-matilda-i", "light-tank-mk-i-v"} | {
        k for k in afvs if "carrier" in k
    }
    assert {k for k, a in afvs.items() if a.one_man_turret} == {
        "a11-matilda-i",
        "light-tank-mk-i-v",
    }
    no_smoke = {k for k, a in afvs.items() if not a.smoke_dischargers}
    assert {"deacon", "achilles", "bishop", "sexton", "staghound-aa", "ip-carrier"} <= no_smoke
    assert afvs["crusader-iii"].smoke_dischargers and afvs["carrier-lmg"].smoke_dischargers


def test_tank_armour_is_cited_historical(cat):
    for a in _mine(cat, "afv"):
        if a.chart == "tank" and a.id != "britain/light-tank-mk-i-v":
            assert a.armour.hf is not None, a.id
            entry = a.prov_entry("armour.hf")
            assert entry.ref, a.id
            # a sister vehicle's plates (P225: Crusader I, Cromwell VII/VIII, ...) are placeholders
            sister = entry.note.startswith("P225 placeholder")
            assert entry.provenance is (Provenance.PLACEHOLDER if sister else Provenance.HISTORICAL)
    firefly = cat.get("afv", "britain/firefly")
    assert firefly.armour.hf == pytest.approx(9.1)  # 51 mm at 56 deg from vertical (P1/P2)


@pytest.mark.parametrize(
    "gid,printed",
    [
        ("40mm-l50-2-pdr", "36 40mm L50 2 pdr A (12)"),
        ("57mm-l45-6-pdr", "mm L45 6 pdr B (12) (12)"),
        (
            "84mm-l29-18-pdr",
            "57 84mm L29 18 pdr B (11)",
        ),
        ("88mm-l28-25-pdr", "mm L28 25 pdr B (12) (11)"),
        ("114mm-l16-4-5in", "63 114mm L C (11) (10) (9)"),
        ("20mm-l85-aa", "25 20mm L85 AA A (13) (12) (10) (8) (6)"),
    ],
)
def test_gun_rows(cat, gid, printed):
    gun = cat.get("gun", f"britain/{gid}")
    printed = row_at(seed_page(49) + " " + seed_page(50), printed)
    hits = " ".join(f"({v})" for v in gun.to_hit)
    assert f"{gun.size} {hits}" in printed
    if gun.pv is not None and gun.prov("pv") is Provenance.SEED:
        assert printed.startswith(f"{gun.pv} ")
    if gun.fire_order is not None:
        assert f") {gun.fire_order} " in printed + " "
    # penetration is ours (P49), never longer than the printed to-hit row
    assert len(gun.penetration) <= len(gun.to_hit)


def test_special_ammo_rows(cat):
    text = seed_page(49)
    assert "+9pg -> 2 pdr Lt John Adapt." in text
    lj = cat.get("gun", "britain/40mm-l50-2-pdr").ammo[0]
    assert (lj.basis, lj.pv_delta, lj.to_hit) == ("pg", 9, [12, 11, 9, 7, 5])
    assert "pp APDS ammunition (12) (13) (12) (11) (10) (8) (8) (6)" in text
    apds = cat.get("gun", "britain/76mm-l55-17-pdr").ammo[0]
    assert (apds.kind, apds.basis, apds.pv_delta) == ("APDS", "pp", None)
    heat = cat.get("gun", "britain/94mm-l13-3-7in").ammo[0]
    assert "pg -> 94mm L HEAT (10) (9) (9) (8) (6)" in text
    assert (heat.kind, heat.basis, heat.to_hit) == ("HEAT", "pg", [10, 9, 9, 8, 6])


@pytest.mark.parametrize(
    "sid",
    [
        "morris-cs8-bedford-mw-15cwt",
        "bedford-oy-austin-k3-3ton",
        "quad-fat",
        "scammell-recovery-tractor",
    ],
)
def test_softskin_rows(cat, sid):
    v = cat.get("softskin", f"britain/{sid}")
    assert f"{v.pv} {v.name} {v.drive} {v.size} {v.tow}" in seed_page(46)


def test_motorised_guns(cat):
    text = seed_page(46)
    bof = cat.get("motorised_gun", "britain/sp-4x4-bofors-40mm-aa")
    assert f"{bof.pv} SP, 4x4 Bofors 40mm AA 30cwt truck {bof.drive} {bof.size} mm L48 AA" in text
    m6 = cat.get("motorised_gun", "britain/37mm-m6-gmc")
    assert f"{m6.pv} 37mm M6 GMC Light AT SP {m6.drive} {m6.size} mm L54" in text


def test_troop_class_rows(cat):
    for page in (22, 46):
        text = seed_page(page)
        assert "Offboard Artillery Veteran As unit rating no modification to PV" in text
        assert "Paratrp/Royal Eng. Veteran Elite +50% or x 1.5" in text
        assert "Guards Veteran Elite +50% or x 1.5" in text
        assert "All Other Units Veteran Reliable +25% o x 1.25" in text
    rules = {
        r.selector: (r.troop_class, r.morale, r.multiplier)
        for r in cat.get("nation", NATION).rating_rules
    }
    assert rules == {
        "offboard_artillery": ("veteran", "as_unit", 1.0),
        "paratroops_royal_engineers": ("veteran", "elite", 1.5),
        "guards": ("veteran", "elite", 1.5),
        "all_other": ("veteran", "reliable", 1.25),
    }


def test_veteran_platoon_points(cat):
    """Basic infantry platoon: HQ (23 + 15 mortar) + 3 sections x (13 + 7 + 7) = 119, x 1.25 = 148.75."""
    plat = cat.get("organisation", "britain/infantry-platoon")
    hq = cat.get("organisation", "britain/infantry-platoon-hq-basic")
    sec = cat.resolve(plat.slots[-1].ref)
    total = sum(s.max * cat.resolve(s.ref).pv for s in hq.slots)
    total += plat.slots[-1].max * sum(s.max * cat.resolve(s.ref).pv for s in sec.slots)
    assert total == 119
    mult = {r.selector: r.multiplier for r in cat.get("nation", NATION).rating_rules}["all_other"]
    assert total * mult == pytest.approx(148.75)


def test_no_horses_and_restrictions(cat):
    text = seed_page(45)
    assert "British forces cannot have horse teams or cavalry" in text
    gb = cat.get("nation", NATION)
    assert gb.allows["horse_teams"] is False and gb.allows["cavalry"] is False
    assert "you cannot have more than one of" in seed_page(51)
    assert "From 1944, up to 2 Shermans can have 76mm" in seed_page(52)


def test_armour_speed_check_fixes(cat):
    # Achilles is an M10 with the 17 pdr: same hull and turret figures as the US M10
    achilles = cat.get("afv", "britain/achilles")
    assert achilles.armour == cat.get("afv", "usa_europe/m10-gmc-wolverine").armour
    # Cromwell: 64 mm hull front, 76 mm turret front (Wikipedia), not 76 mm on both
    for rid in ("cromwell-iv", "cromwell-vi"):
        armour = cat.get("afv", f"britain/{rid}").armour
        assert (armour.hf, armour.tf) == (6.4, 7.6)
    # Comet C/C from the public 23 km/h cross-country figure: round(23 / 1.609) = 14
    comet = cat.get("afv", "britain/comet")
    assert comet.speed_cc == 14 and comet.prov("speed_cc") is Provenance.PLACEHOLDER


def test_carrier_2in_mortar_open_top_is_a_judgement(cat):
    """The p49 notes never call the mortar carrier open-topped: the field is `seed-inferred`."""
    rec = cat.get("afv", "britain/carrier-2in-mortar")
    assert rec.open == ["top"] and rec.prov("open") is Provenance.SEED_INFERRED
