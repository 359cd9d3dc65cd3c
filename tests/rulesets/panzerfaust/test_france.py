"""French army list (seed 000, pp. 53-58): rows checked field by field against the seed text."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from conftest import page_text as seed_page
from conftest import row_at
from kriegsspiel.data import Provenance

NATION = "france"
COUNTS = Path(__file__).parent / "counts" / f"{NATION}.yaml"


def test_counts_pinned(cat):
    counts = Counter(kind for kind, e in cat if e.record.nation == NATION)
    assert dict(counts) == yaml.safe_load(COUNTS.read_text())


def test_equipment_raw_text_in_seed(cat):
    text = seed_page(53)
    rows = [r for r in cat.all("equipment") if r.nation == NATION]
    for row in rows:
        assert row.raw in text, row.id
        tokens = row.raw.split()
        if row.pv is not None and row.prov("pv") is Provenance.SEED and "/" not in tokens[0]:
            assert tokens[0] in (str(row.pv), "5ea"), row.id
        if row.fr is not None and row.prov("fr") is Provenance.SEED:
            assert tokens[-1] == str(row.fr), row.id
    assert "64/55 Panhard P-178 a/b" in text
    pan = {r.id: r.pv for r in rows if "panhard" in r.id}
    assert pan == {"france/afv-panhard-p-178-a": 64, "france/afv-panhard-p-178-b": 55}


@pytest.mark.parametrize(
    "rid",
    ["amc-35-i", "r39", "d1", "char-2c", "panhard-p-178-a", "amr-35-ii"],
)
def test_afv_chart_rows(cat, rid):
    afv = cat.get("afv", f"france/{rid}")
    text = seed_page(55)
    arm = ",".join(m.raw for m in afv.armament)
    printed = f"{afv.name} {arm} {afv.size}"
    if afv.fire_order is not None:
        printed += f" {afv.fire_order}"
    if afv.pv is not None and afv.prov("pv") is Provenance.SEED:
        printed = f"{afv.pv} {printed}"
    assert printed in text
    assert (afv.speed_road is None or afv.prov("speed_road") != "seed") and (
        afv.speed_cc is None or afv.prov("speed_cc") != "seed"
    )  # speeds lost in the seed
    if afv.armour.hf is not None:
        entry = afv.prov_entry("armour.hf")
        sister = (entry.note or "").startswith("P225 placeholder")  # a sister vehicle's plates
        assert entry.provenance is (Provenance.PLACEHOLDER if sister else Provenance.HISTORICAL)
        assert entry.ref or afv.prov_entry("armour").ref


def test_flag_lists(cat):
    text = seed_page(55)
    assert "All S35, D1, D2, Char B1 bis" in text
    assert "One Man Turrets; All AFVs except Char 2C and AMC-35" in text
    radios = {
        a.id.split("/")[1] for a in cat.all("afv") if a.nation == NATION and a.radio == "standard"
    }
    assert radios == {"s35", "d1", "d2", "char-b1-bis", "char-2c"}
    assert cat.get("afv", "france/panhard-p-178-b").radio == "command_only"
    assert not cat.get("afv", "france/amc-35-i").one_man_turret
    assert cat.get("afv", "france/h39").one_man_turret
    assert not any(a.smoke_dischargers for a in cat.all("afv") if a.nation == NATION)


def test_char_b1_bis_pv_from_list(cat):
    b1bis = cat.get("afv", "france/char-b1-bis")
    assert "/168 Char B1 / B1 bis" in seed_page(53)
    assert b1bis.pv == 168 and b1bis.prov("pv") is Provenance.SEED_INFERRED
    assert cat.get("afv", "france/char-b1").pv is None


@pytest.mark.parametrize(
    "gid,page_text",
    [
        ("25mm-l72-sa-l-mle-34", "19 25mm L72 SA-L mle 34 A"),
        ("47mm-l53-sa-mle-37", "mm L53 SA mle 37 A (12)"),
        (
            "65mm-l20-mle-06",
            "31 65mm L20 mle 06 A (11)",
        ),
        ("75mm-l36-mle-1897", "mm L36 mle 1897 B (12) (11)"),
        ("105mm-l19-mle-35b-34s", "mm L19 mle 35B/34S C (11) (11)"),
        ("20mm-l60-aa-madsen-cma", "24 20mm L60 AA Madsen CMA A"),
    ],
)
def test_gun_rows(cat, gid, page_text):
    gun = cat.get("gun", f"france/{gid}")
    page_text = row_at(seed_page(56), page_text)
    hits = " ".join(f"({v})" for v in gun.to_hit)
    assert f"{gun.size} {hits}" in page_text
    if gun.pv is not None:
        assert page_text.startswith(f"{gun.pv} ")
    if gun.fire_order is not None:
        assert (
            f"{hits} {gun.fire_order}" in page_text
            or f"{hits} (No g/shield) {gun.fire_order}" in page_text
        )
    # penetration rows lost in the seed: any figure is P49's (a source or a placeholder), never
    # the book's
    assert all(
        gun.prov(f"penetration.{i}") in (Provenance.PLACEHOLDER, Provenance.HISTORICAL)
        for i in range(len(gun.penetration))
    )


def test_afv_only_guns(cat):
    for gid in (
        "37mm-l33-sa-mle-38",
        "47mm-l28-sa-mle-32",
        "47mm-l34-sa-mle-34",
        "75mm-l17-sa-mle-32",
    ):
        gun = cat.get("gun", f"france/{gid}")
        assert gun.size == "AFV" and gun.pv is None and gun.fire_order is None


@pytest.mark.parametrize(
    "sid", ["laffly-v15-latil-m7t1", "renault-agk", "laffly-s45tl", "unic-p107", "somua-mcg"]
)
def test_softskin_rows(cat, sid):
    v = cat.get("softskin", f"france/{sid}")
    assert f"{v.pv} {v.name} {v.drive} {v.size} {v.tow}" in seed_page(54)


def test_motorised_gun_rows(cat):
    text = seed_page(54)
    caj = cat.get("motorised_gun", "france/caj-mle30-berliet")
    assert f"{caj.pv} {caj.name} {caj.drive} {caj.size} x HMG" in text
    gmc = cat.get("motorised_gun", "france/40mm-bofors-gmc")
    assert "mm Bofors GMC AA SP/Md Truck 6x6" in text
    assert gmc.armament[0].gun_ref == "gun:britain/40mm-l48-bofors-aa"


def test_troop_class_rows(cat):
    fr = cat.get("nation", NATION)
    for page in (22, 54):
        text = seed_page(page)
        assert "France Offboard Artillery Regular As unit rating no modification to PV" in (
            text if page == 22 else "France " + text[text.index("Offboard Artillery") :]
        )
        assert "Colonial Forces Regular Reliable no modification to PV" in text
    assert "All Other Units Regular Poor -25% or x 0.75" in seed_page(54)
    rules = {r.selector: (r.troop_class, r.morale, r.multiplier) for r in fr.rating_rules}
    assert rules == {
        "offboard_artillery": ("regular", "as_unit", 1.0),
        "colonial": ("regular", "reliable", 1.0),
        "all_other": ("regular", "poor", 0.75),
    }
    colonial = next(r for r in fr.rating_rules if r.selector == "colonial")
    assert colonial.constraints == ["whole_force"]
    assert fr.allows["smg"] is False and fr.allows["horse_teams"] and fr.allows["cavalry"]


def test_poor_multiplier_on_a_platoon(cat):
    """Infantry platoon: HQ (23 + 7) + 3 squads x (13 + 7 + 7) = 111 base, x 0.75 = 83.25."""
    plat = cat.get("organisation", "france/infantry-platoon")
    total = 0.0
    for slot in plat.slots:
        node = cat.resolve(slot.ref)
        total += slot.max * sum(s.max * cat.resolve(s.ref).pv for s in node.slots)
    assert total == 111
    mult = {r.selector: r.multiplier for r in cat.get("nation", NATION).rating_rules}["all_other"]
    assert total * mult == pytest.approx(83.25)


def test_infantry_company_chart(cat):
    text = seed_page(56)
    assert "1 Infantry Company HQ (2 x Company" in text
    co = cat.get("organisation", "france/infantry-company")
    assert [(s.max, s.ref) for s in co.slots][:2] == [
        (1, "organisation:france/infantry-company-hq"),
        (4, "organisation:france/infantry-platoon"),
    ]


def test_mortar_pvs_from_the_common_table(cat):
    text = seed_page(35)
    assert "45-60mm # 3cm 15" in text and "76-82mm # 6cm 45" in text
    m81 = cat.get("battery", "france/81mm-mortar")
    m60 = cat.get("battery", "france/60mm-mortar")
    assert (m81.pv, m60.pv) == (45, 15)
    assert m81.prov("pv") is m60.prov("pv") is Provenance.SEED_INFERRED
    assert m81.offboard_allowed is False and m60.offboard_allowed is False
