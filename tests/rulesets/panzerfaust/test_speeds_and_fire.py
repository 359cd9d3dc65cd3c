"""Lost speeds (P51/P52) and infantry fire factors (P53), issue 6: hand checks and honesty checks."""

from __future__ import annotations

import pytest

from conftest import page_text as seed_page
from kriegsspiel.data import Provenance
from kriegsspiel.rulesets import load

SPEEDS = ("speed_road", "speed_cc")


@pytest.fixture(scope="module")
def cat():
    return load("panzerfaust", overlays=())


def _vehicles(cat):
    return [*cat.all("afv"), *cat.all("softskin")]


def test_book_says_speed_in_cm_is_mph():
    assert "cm per game turn. (Also happens to be their mph speed.)" in seed_page(27)
    assert "road speed (23 mph, 12 mph C/C)" in seed_page(62)  # Pz I Ausf A, the P52 ratio
    assert "For use in this mode; Rd 33 / C/c 22" in seed_page(82)  # GAZ-AAA half-track


def test_hand_checked_speeds(cat):
    panther = cat.get("afv", "germany/pz-v-panther")  # 46 km/h road, 24 km/h off-road
    assert (panther.speed_road, panther.speed_cc) == (29, 15)
    t34 = cat.get("afv", "ussr/t-34-76-m1941")  # 53 km/h road, no off-road figure: 33 x 1/2
    assert (t34.speed_road, t34.speed_cc) == (33, 17)
    m3 = cat.get("afv", "usa_europe/m3-half-trk")  # 72 km/h, half-track 2/3
    assert (m3.speed_road, m3.speed_cc) == (45, 30)
    cromwell = cat.get("afv", "britain/cromwell-iv")  # the book's own "32 mph" (p48)
    assert cromwell.speed_road == 32 and cromwell.prov("speed_road") is Provenance.SEED_INFERRED
    assert "deliberately dropped to 32 mph" in seed_page(48)
    blitz = cat.get("softskin", "germany/opel-blitz-ford-g917t-medium-truck-4x2")
    assert (blitz.speed_road, blitz.speed_cc) == (50, 25)


def test_every_filled_speed_is_flagged_and_explained(cat):
    filled = 0
    for rec in _vehicles(cat):
        if getattr(rec, "horse_team", False):
            # no chart: the horse team's 10/5 cm are printed on p13 (P317)
            assert (rec.speed_road, rec.speed_cc) == (10, 5) and "10cm" in seed_page(13)
            continue
        for field in SPEEDS:
            if getattr(rec, field) is None:
                continue
            filled += 1
            fp = rec.prov_entry(field)
            # the seed lost every chart speed: nothing may claim to be the book's own figure
            assert fp.provenance in (Provenance.PLACEHOLDER, Provenance.SEED_INFERRED), rec.id
            assert fp.note, f"{rec.id}.{field}"
            if fp.note.startswith("P51"):
                assert fp.ref and "km/h" in fp.note, f"{rec.id}.{field}"
            elif fp.provenance is Provenance.PLACEHOLDER:
                assert fp.note.startswith("P52"), f"{rec.id}.{field}"
    assert filled >= 600


def test_speeds_are_plausible(cat):
    for rec in _vehicles(cat):
        if rec.speed_road is not None:
            assert 3 <= rec.speed_road <= 70, rec.id
        if rec.speed_road is not None and rec.speed_cc is not None:
            assert rec.speed_cc <= rec.speed_road, rec.id


def test_p51_arithmetic(cat):
    """Road speed = round(km/h / 1.609), as the note says."""
    for rec in _vehicles(cat):
        fp = rec.prov_entry("speed_road")
        if rec.speed_road is None or not (fp.note or "").startswith("P51"):
            continue
        kmh = float(fp.note.split(":")[1].split("km/h")[0])
        assert rec.speed_road == int(kmh / 1.609 + 0.5), rec.id


def test_hand_checked_penetration_nearest_band(cat):
    # worked in test_penetration_sources: 200 m from DarkestHour's 100/250 m figures at 30deg
    assert cat.get("gun", "germany/75mm-l46-pak-40").penetration[0] == 10.4
    assert cat.get("gun", "britain/76mm-l55-17-pdr").penetration[0] == 14.1


def test_penetration_never_increases_with_range(cat):
    for gun in cat.all("gun"):
        lists = [gun.penetration, *[a.penetration or [] for a in gun.ammo]]
        for pen in lists:
            vals = [v for v in pen if v is not None]
            assert all(a >= b for a, b in zip(vals, vals[1:], strict=False)), gun.id


def test_fire_factors_are_p53_placeholders(cat):
    bands = cat.get("range_bands", "common/infantry-fire-range-bands").edges_cm
    for team in cat.all("infantry_team"):
        if team.nation != "common":
            continue
        fp = team.prov_entry("fire_factors")
        assert fp.provenance is Provenance.PLACEHOLDER and fp.note.startswith("P53"), team.id
        assert len(team.fire_factors) == len(bands)
        ff = team.fire_factors
        assert all(a >= b for a, b in zip(ff, ff[1:], strict=False)), (
            team.id
        )  # never rises with range
    rifle = cat.get("infantry_team", "common/rifle-team")
    assert rifle.fire_factors == [1, 1, 1, 1, 0] and rifle.cqc == 2  # CQC kept as printed (p18)
    ff = {
        t: cat.get("infantry_team", f"common/{t}").fire_factors[0]
        for t in ("smg-team", "lmg-team-mag", "hmg", "mmg")
    }
    assert ff == {
        "smg-team": 1,
        "lmg-team-mag": 2,
        "hmg": 4,
        "mmg": 6,
    }  # p17 CF widths 1/2 : 1 : 2 : 3


def test_casualty_table_placeholder_and_printed_clamp(cat):
    table = cat.get("table", "common/infantry-casualty-table")
    clamp, *body = table.rows
    assert (
        clamp.values["max_variation"] == 7 and clamp.values["min_variation"] == -9
    )  # p16, untouched
    assert table.prov("rows.0.values.max_variation") is Provenance.SEED
    assert [r.key for r in body] == [f"variation_{v:+d}" for v in range(7, -10, -1)]
    for i in range(1, len(body) + 1):
        assert table.prov_entry(f"rows.{i}.values").note.startswith("P53")
    zero = body[7].values
    assert zero["ff_12"] == 3  # p19: two SMG teams (CQC 12) slaughter a three rifle team squad
    assert zero["ff_6"] == 2  # three rifle teams (CQC 6) hit back less
    assert body[7 + 6].values["ff_12"] == 1  # hard cover -6: a quarter of the losses
    for row in body:  # more factors never fewer losses; better variation never fewer losses
        vals = [row.values[c] for c in table.columns if c.startswith("ff_")]
        assert vals == sorted(vals)
    for c in (c for c in table.columns if c.startswith("ff_")):
        col = [r.values[c] for r in body]
        assert col == sorted(col, reverse=True)
