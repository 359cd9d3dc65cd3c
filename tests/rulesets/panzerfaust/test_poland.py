"""Polish army list (seed 000, pp. 105-108): rows checked against the seed text."""

from __future__ import annotations

import pytest

from conftest import assert_equipment_in_seed, row_at
from conftest import page_text as seed_page
from kriegsspiel.data import Provenance


def test_rating_table(cat):
    text = seed_page(106)
    assert "Offboard Artillery Conscript Reliable - 15% or x 0.85" in text
    assert "All Other Units Conscript Reliable - 25% or x 0.75" in text
    pol = cat.get("nation", "poland")
    assert {r.selector: r.multiplier for r in pol.rating_rules} == {
        "offboard_artillery": 0.85,
        "all_other": 0.75,
    }
    assert pol.allows["smg"] is False and pol.allows["flamethrower"] is False
    assert "No SMG or Flamethrowers were available" in text


@pytest.mark.parametrize(
    ("rid", "printed"),
    [
        ("tk-tks", "33 TK/TKS LMG B 3"),
        ("tk-tksz", "39 TK/TKSz 20 L B 4"),
        ("vau-33-dw", "36 VAU 33 dw 2 LMG C 4"),
        ("ursus-wz-29", "51 Ursus wz 29 4x2 37 L22,2*LMG C 6"),
        ("ursus-wz-34-a", "31 Ursus wz 34 (a) 4x2 LMG C 4"),
        ("ursus-wz-34-b", "33 Ursus wz 34 (b) 4x2 37 L C 7"),
    ],
)
def test_afv_rows(cat, rid, printed):
    row = cat.get("afv", f"poland/{rid}")
    assert printed in seed_page(106)
    tokens = printed.split()
    assert tokens[0] == str(row.pv)
    assert tokens[-2:] == [row.size, str(row.fire_order)]
    assert (row.speed_road is None or row.prov("speed_road") != "seed") and row.radio == "none"


def test_one_man_turrets(cat):
    assert "One Man Turrets; VAU 33 dw, 7TP dw, Ursus 34." in seed_page(106)
    omt = {a.id for a in cat.all("afv") if a.nation == "poland" and a.one_man_turret}
    assert omt == {
        "poland/vau-33-dw",
        "poland/7tp-dw",
        "poland/ursus-wz-34-a",
        "poland/ursus-wz-34-b",
    }


@pytest.mark.parametrize(
    ("rid", "printed"),
    [
        (
            "65mm-l20-mle-06",
            "31 65mm L20 mle 06 A (11)",
        ),
        (
            "20mm-l62-aa-madsen-chm",
            "24 20mm L62 AA Madsen CHM A",
        ),
        ("37mm-l45-bofors", "mm L45 Bofors A (12) (11) (10) (9) (7) (5)"),
    ],
)
def test_gun_rows(cat, rid, printed):
    gun = cat.get("gun", f"poland/{rid}")
    printed = row_at(seed_page(107), printed)
    assert " ".join(f"({v})" for v in gun.to_hit) in printed
    assert gun.size in printed.split()
    # penetration is ours (P49), never longer than the printed to-hit row
    assert len(gun.penetration) <= len(gun.to_hit)


def test_bofors_pv_recovered_from_list(cat):
    gun = cat.get("gun", "poland/37mm-l45-bofors")
    assert "33 37mm L45 Bofors 39?" in seed_page(105)
    assert gun.pv == 33 and gun.prov("pv") is Provenance.SEED_INFERRED


def test_softskins(cat):
    text = seed_page(106)
    for rid in ("poski-fiat-621", "c2p", "c7p"):
        v = cat.get("softskin", f"poland/{rid}")
        assert f"{v.pv} {v.name} {v.drive} {v.size} {v.tow}" in text


def test_every_equipment_raw_is_in_seed(cat):
    assert_equipment_in_seed(cat, "poland", (105, 106), 43)


def test_infantry_platoon(cat):
    text = seed_page(107)
    assert "1 Infantry Platoon HQ (1 Pl. HQ" in text
    sq = cat.get("organisation", "poland/infantry-squad")
    assert [(s.min, s.ref) for s in sq.slots] == [
        (1, "infantry_team:poland/lmg-team-mag"),
        (2, "infantry_team:poland/rifle-team"),
    ]
