"""Issue 16 item 7: the coverage counts of `kriegsspiel data audit panzerfaust`, pinned.

These are what branch `pfdata` computes. `priced` will move when the PV placeholder model (issue
16 item 4, another branch) lands, and `armour_faces` / `dated` as items 3 and 5 are filled.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kriegsspiel.cli.main import app
from kriegsspiel.data.audit import field_status
from kriegsspiel.rulesets.panzerfaust.coverage import coverage

PINNED = {
    "guns": {"aa_auto": [23, 23], "at_tank": [72, 72], "howitzer_field": [29, 61]},
    "guns_with_penetration": {"aa_auto": [23, 23], "at_tank": [72, 72], "howitzer_field": [29, 29]},
    "guns_with_sourced_penetration": {
        "aa_auto": [18, 23],
        "at_tank": [65, 72],
        "howitzer_field": [17, 29],
    },
    "special_ammo_with_sourced_penetration": {
        "APCR": [4, 5],
        "APDS": [3, 3],
        "HEAT": [17, 29],
        "HVAP": [2, 2],
        "SPIGOT": [5, 6],
    },
    "gun_armed_afvs": {"apc_recon": [45, 45], "spg": [84, 84], "tank": [179, 179]},
    # HE of 65 mm or more hurts an AFV (p31): the 19 howitzer-armed AFVs count
    "afvs_that_can_hurt_armour": {"apc_recon": [45, 45], "spg": [84, 84], "tank": [176, 179]},
    # the A9/A10/A13 CS tanks: the 94mm L15 fired smoke only (p50 gun notes)
    "afvs_that_cannot_hurt_armour_by_the_book": {
        "apc_recon": [0, 45],
        "spg": [0, 84],
        "tank": [3, 179],
    },
    # every face: read face by face, a P225 sister or a P321/P322 placeholder (issue 16)
    "armour_faces": {"apc_recon": [100, 100], "spg": [88, 88], "tank": [213, 213]},
    # org-named items with a base PV, the book's or the P100 model's
    "priced": {
        "afv": [263, 263],
        "battery": [36, 36],
        "gun": [68, 68],
        "infantry_team": [76, 76],
        "infantry_weapon": [6, 6],
        "motorised_gun": [8, 8],
        "softskin": [18, 18],
    },
    "priced_by_the_book": {
        "afv": [181, 401],
        "battery": [31, 117],
        "gun": [38, 156],
        "infantry_team": [121, 133],
        "motorised_gun": [26, 37],
        "softskin": [86, 117],  # the common horse team: half a truck's PV by P333 (placeholder)
    },
    "dated": {"afv": [346, 401], "gun": [119, 156], "special_ammo": [34, 45]},
    # items organisations name, once per nation naming them, with a window in that nation's list
    # (windows.item_window); issue 16's target is all of them: met (P230-P234, P293-P294,
    # P300-P303, and P323 for the last 12, four of them placeholders)
    "dated_org_named": {
        "afv": [281, 281],
        "battery": [38, 38],
        "gun": [79, 79],
        "infantry_team": [82, 82],
        "infantry_weapon": [6, 6],
        "motorised_gun": [8, 8],
        "softskin": [20, 20],
    },
}


def test_coverage_numbers_pinned(cat):
    assert coverage(cat) == PINNED


def test_audit_json_carries_coverage_and_text_prints_it():
    runner = CliRunner()
    res = runner.invoke(app, ["data", "audit", "panzerfaust", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)["panzerfaust"]
    assert report["coverage"] == PINNED and report["tables"]
    res = runner.invoke(app, ["data", "audit", "panzerfaust"])
    assert res.exit_code == 0 and "coverage" in res.output
    assert "guns_with_penetration" in res.output.replace("\n", "")


def test_empty_lost_lists_count_as_missing_not_seed(cat):
    """An empty list of lost values is missing (the audit found 353 counted as seed); a howitzer's
    empty penetration row does not apply (no AP round, P49)."""
    boys = cat.get("infantry_weapon", "britain/boys-atr")
    rifles = cat.get("infantry_team", "belgium/rifle-team")
    assert boys.penetration == [] and field_status(boys, "penetration", []) == "missing"
    assert rifles.fire_factors == [] and field_status(rifles, "fire_factors", []) == "missing"
    howitzer = cat.get("gun", "britain/88mm-l28-25-pdr")
    assert howitzer.penetration == [] and field_status(howitzer, "penetration", []) == "n/a"
    assert field_status(cat.get("afv", "germany/pz-vi-tiger"), "open", []) == "n/a"
    assert cat.get("gun", "germany/75mm-l46-pak-40").null_status("penetration") == "missing"
