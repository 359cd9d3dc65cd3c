"""What a wargamer reads on the command line (issue 15 items 3-4): whole situations, no
"0/1" rows, uncut tables, briefings, and nonsense refused with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from kriegsspiel.cli.main import main
from kriegsspiel.engine.scenario import find_scenario
from kriegsspiel.rulesets import load, quickref


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_odds_header_has_the_situation_and_no_zero_rows(capsys):
    code, out, _ = run(
        capsys,
        "odds",
        "quickref",
        "fire",
        "--firer",
        "PzKw IV H",
        "--target",
        "Sherman",
        "--range",
        "30",
        "--firer-moved",
        "--terrain",
        "woods",
    )
    assert code == 0
    assert "situation: firer PzKw IV H, target Sherman, range 30, aspect front, firer moved" in out
    assert "terrain woods" in out
    assert "0/1" not in out and "impossible" in out  # the sheet cannot give 'ineffective' here


def test_aliases_reach_the_rules(capsys):
    code, out, _ = run(
        capsys,
        "odds",
        "quickref",
        "fire",
        "--firer",
        "Tiger",
        "--target",
        "T-34 M41",
        "--range",
        "20",
        "--json",
    )
    assert code == 0 and '"query": "PzKw VI fires at T-34 M41' in out
    code, _, err = run(
        capsys, "odds", "quickref", "fire", "--firer", "T-34", "--target", "Tiger", "--range", "20"
    )
    assert code == 2 and "ambiguous" in err and "rus/t-34-m41 (T-34 M41)" in err


def test_data_tables_are_not_cut(capsys):
    code, out, _ = run(capsys, "data", "audit", "quickref")
    assert code == 0
    assert "placeholder" in out and "historical" in out and "…" not in out


def test_audit_of_a_ruleset_without_data(capsys):
    has_data = next(iter(load("battleground", ())), None) is not None
    code, out, err = run(capsys, "data", "audit", "battleground")
    if has_data:  # the battleground data may have landed: then it is a table like any other
        assert code == 0 and "battleground data audit" in out
    else:
        assert code == 2 and "battleground has no data yet" in err


@pytest.mark.parametrize("cmd", [("data", "audit", "quickref"), ("data", "missing", "panzerfaust")])
def test_unknown_nation(capsys, cmd):
    code, _, err = run(capsys, *cmd, "--nation", "atlantis")
    assert code == 2 and "unknown nation 'atlantis'" in err and "germany" in err


def test_overlay_with_negative_armour_or_unknown_id(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "ruleset: quickref\nchanges:\n  - kind: vehicle\n    id: ger/pzkw-v\n"
        "    set: {armour.front: -5}\n  - kind: vehicle\n    id: ger/pzkw-vi-e\n"
        "    set: {speed: 3}\n"
    )
    code, _, err = run(capsys, "--data-overlay", str(bad), "data", "audit", "quickref")
    assert code == 2
    assert (
        "bad.yaml:5 [ger/pzkw-v: armour.front]: Input should be greater than or equal to 0" in err
    )
    assert "no vehicle with id 'ger/pzkw-vi-e' to change; closest: ger/pzkw-vi" in err


def test_scenario_show_has_the_briefing(capsys):
    code, out, _ = run(capsys, "scenario", "show", "qr-crossroads-armour")
    assert code == 0
    assert "victory (turn limit 8):" in out
    assert "wins if at the end it alone holds Crossroads" in out
    assert "special rules:" in out and "StuG starts hidden" in out


def test_a_unit_off_the_table_is_refused_with_its_line(capsys, tmp_path):
    src = next(
        p
        for p in Path(quickref.__file__).parent.glob("scenarios/*.yaml")
        if find_scenario(str(p)).id == "qr-crossroads-armour"
    )
    lines = src.read_text().splitlines()
    n, line = next((i, ln) for i, ln in enumerate(lines) if "id: g-panther" in ln)
    lines[n] = line.replace("x: 15,", "x: 150,")
    bad = tmp_path / "bad.yaml"
    bad.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "scenario", "show", str(bad))
    assert code == 2
    assert (
        f"bad.yaml:{n + 1} [sides.0.units.0.x]: unit 'g-panther': x = 150 is off the 48 x 36" in err
    )
