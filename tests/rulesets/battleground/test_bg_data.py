"""The Battleground catalogue (digest §4-§5): what survived is `seed`, what was lost is a
documented placeholder calibrated on the anchors, and overlays replace placeholders."""

from __future__ import annotations

from pathlib import Path

import pytest
from bg_helpers import odds

from kriegsspiel.data import Provenance
from kriegsspiel.data.audit import audit, missing_fields
from kriegsspiel.data.errors import DataError
from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.battleground.models import COLUMNS

SEED = Path(__file__).resolve().parents[3].parent / "shared" / "seeds" / "003_0a7dd8be461615a3.txt"


def test_every_kind_loads(cat):
    counts = {k: len(cat.all(k)) for k in cat.kinds}
    assert counts["scenario"] == 7 and counts["hit_location"] == 5
    assert {"pziv_h", "t34_m1941", "m4_sherman", "m3a1_halftrack", "sdkfz_251_1"} <= {
        v.id for v in cat.all("vehicle")
    }


def test_sheet_values_are_seed(cat):  # §4.4
    pz = cat.get("vehicle", "pziv_h")
    assert pz.armor["HF"] == 14 and pz.pen["AP"] == 30 and pz.speed == 9
    assert pz.prov("armor.HF") is Provenance.SEED and pz.prov("armor.top") is Provenance.PLACEHOLDER


@pytest.mark.parametrize(
    "vid", ["panther_g", "tiger_i_late", "king_tiger", "m10_gmc", "m8_greyhound", "jeep", "truck"]
)
def test_scenario_vehicles_have_cited_historical_and_placeholder_values(cat, vid):
    v = cat.get("vehicle", vid)
    assert v.prov("weight") is Provenance.HISTORICAL and v.prov_entry("weight").ref
    unarmoured = Provenance.SEED_INFERRED if vid in ("jeep", "truck") else Provenance.PLACEHOLDER
    assert v.prov("armor.HF") is unarmoured and v.prov("speed") is Provenance.PLACEHOLDER
    if v.armor_mm:
        assert v.prov("armor_mm") is Provenance.HISTORICAL


def test_effects_chart_keeps_the_surviving_rows(rules):  # §3.8
    t = rules.table("effects_chart")
    assert [t.cells["1"][c] for c in COLUMNS] == [
        "LtW",
        "KIA",
        "KIA",
        "KIA",
        "GD",
        "GD",
        "GD",
        "GD",
    ]
    assert [t.cells["2"][c] for c in COLUMNS] == ["MC", "HW", "HW", "KIA", "KIA", "GD", "GD", "GD"]
    assert t.prov("cells.1.H") is Provenance.SEED
    assert (
        t.prov("cells.4.E") is Provenance.PLACEHOLDER
        and t.prov("cells.3.A") is Provenance.PLACEHOLDER
    )


def test_effects_columns_are_monotone(rules):
    """Stronger columns never give a milder result on the same row (placeholder method)."""
    order = ["GD", "KIA", "HW", "LtW", "MC", "Sup", "-"]
    t = rules.table("effects_chart")
    for row, cells in t.cells.items():
        ranks = [order.index(cells[c]) for c in COLUMNS]
        assert ranks == sorted(ranks, reverse=True), row


def test_sighting_anchors_and_monotone(rules):  # §3.1, §5 #1
    t = rules.table("sighting_chart")
    assert t.cells["veh/open/moving/quiet"]["15"] == "AQ"
    assert t.cells["inf/concealed/static/quiet"]["20"] == 6
    assert t.prov("cells.inf/concealed/static/quiet.20") is Provenance.SEED_INFERRED

    def score(v):
        return 21 if v == "AQ" else 0 if v == "-" else v

    for row, cells in t.cells.items():
        values = [score(cells[c]) for c in t.columns]
        assert values == sorted(values, reverse=True), row
    assert t.prov("cells.inf/open/static/quiet.3") is Provenance.PLACEHOLDER


def test_small_arms_class_defaults(cat):  # §3.7, §4.1
    for name in ("PPSh-41", "MG-42 LMG", "BAR", "M1 Garand", "MP-44"):
        w = cat.get("small_arm", name)
        assert w.provenance is Provenance.SEED_INFERRED
    assert cat.get("small_arm", "kar98k").provenance is Provenance.SEED


def test_scenarios_name_known_records(cat):
    kinds = ("small_arm", "vehicle", "at_weapon", "gun")
    known = {r.id for k in kinds for r in cat.all(k)}
    for sc in cat.all("scenario"):
        for side, forces in sc.sides.items():
            for f in forces:
                assert set(f.arms) <= known, (sc.id, side, f.unit, set(f.arms) - known)


def test_audit_and_missing_list_placeholders(cat):
    tables = audit(cat)
    assert {t.kind for t in tables} >= {"table", "vehicle", "small_arm", "scenario"}
    fields = list(missing_fields(cat))
    assert any(r.id == "effects_chart" and p == "cells.4.E" for _, r, p, _ in fields)
    assert any(r.id == "sighting_chart" for _, r, _, _ in fields)


def test_overlay_replaces_a_placeholder(tmp_path, cat):
    ov = tmp_path / "ov.yaml"
    ov.write_text(
        "ruleset: battleground\nchanges:\n"
        "  - {kind: vehicle, id: panther_g, set: {pen.AP: 44}, note: my copy}\n"
        "  - {kind: hit_location, id: m4_sherman, set: {facings.side.9: "
        "{part: hull, non_pen: NE, pen: ND}}}\n"
    )
    mine = load("battleground", overlays=(ov,))
    assert mine.get("vehicle", "panther_g").pen["AP"] == 44
    d = odds(mine, "tank-fire", firer="panther_g", target="m4_sherman", range=40, facing="side")
    assert "panther_g.pen" in d.placeholders  # APCR/HE are still placeholders
    assert "m4_sherman.facings.side.9" not in d.placeholders


def test_bad_overlay_names_file_and_line(tmp_path):
    ov = tmp_path / "bad.yaml"
    ov.write_text(
        "ruleset: battleground\nchanges:\n  - {kind: vehicle, id: pziv_h, set: {speed: fast}}\n"
    )
    with pytest.raises(DataError, match="bad.yaml:3"):
        load("battleground", overlays=(ov,))


def test_seed_numbers_present():
    """A few surviving numbers appear in the seed (sanity check of the transcription)."""
    if not SEED.exists():
        pytest.skip("seed text not available")
    text = SEED.read_text(encoding="utf-8")
    for token in ("Point Blank 16, Effective 12, Long 8, Extreme 4", "Pillbox +12"):
        assert token in text


def test_audit_lists_every_table(cat):
    groups = {t.group for t in audit(cat) if t.kind == "table"}
    assert {"effects_chart", "sighting_chart", "troop_quality", "he_templates"} <= groups
    sight = next(t for t in audit(cat) if t.group == "sighting_chart")
    assert sight.shares()["placeholder"] > 0.9


def test_terrain_cover_agrees_with_effect_modifiers(rules):  # §3.36 vs the chart's cover list
    terrain = rules.table("terrain").cells
    mods = rules.table("effect_mods").cells
    for name, row in terrain.items():
        if name in mods:
            assert row["cover"] == mods[name]["drm"], name
