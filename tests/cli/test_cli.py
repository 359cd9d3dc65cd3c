"""The `kriegsspiel` command line: JSON shapes, explanations, exit code 2 on bad input."""

from __future__ import annotations

import json

import pytest

from kriegsspiel.cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_small_arms_json(capsys):
    code, out, _ = run(
        capsys, "odds", "quickref", "small-arms", "--strength", "2", "--range", "5", "--json"
    )
    data = json.loads(out)
    assert code == 0
    assert list(data["outcomes"]) == ["none", "suppressed", "retreat", "hit", "kia"]
    assert data["exact"]["kia"] == "1/100" and data["placeholders"] == []
    assert abs(sum(data["outcomes"].values()) - 1) < 1e-12


def test_resolve_with_injected_dice_explains(capsys):
    code, out, _ = run(
        capsys,
        "resolve",
        "quickref",
        "small-arms",
        "--strength",
        "2",
        "--range",
        "20",
        "--terrain",
        "woods",
        "--dice",
        "1,2",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["result"] == "suppressed"  # 1+2 +4 = 7: column 2 row 7 is Sp
    text = "\n".join(data["explanation"])
    assert "long range +2" in text and "Woods (SA) +2" in text
    assert data["rolls"][0]["faces"] == [[1, 2]]


def test_out_of_range_exits_2(capsys):
    code, _, err = run(capsys, "odds", "quickref", "small-arms", "--strength", "2", "--range", "40")
    assert code == 2 and "beyond rifle long range 27" in err


def test_unknown_terrain_lists_closest(capsys):
    code, _, err = run(
        capsys,
        "odds",
        "quickref",
        "small-arms",
        "--strength",
        "2",
        "--range",
        "4",
        "--terrain",
        "wood",
    )
    assert code == 2 and "closest: woods" in err.lower()


def test_bad_option_exits_2(capsys):
    code, _, err = run(capsys, "odds", "quickref", "morale", "--option", "morale_dice=3d6")
    assert code == 2 and "morale_dice" in err


def test_data_audit_json(capsys):
    code, out, _ = run(capsys, "data", "audit", "quickref", "--json")
    report = json.loads(out)["quickref"]
    rows = report["tables"]
    assert report["coverage"] == {}  # quickref has no coverage module
    kinds = {r["kind"] for r in rows}
    assert code == 0 and {"terrain", "effects_table", "constant"} <= kinds
    terrain = next(r for r in rows if r["kind"] == "terrain")
    assert terrain["rows"] == 12 and abs(sum(terrain["shares"].values()) - 1) < 1e-9


def test_data_show(capsys):
    code, out, _ = run(capsys, "data", "show", "quickref", "terrain", "stream", "--json")
    data = json.loads(out)
    assert code == 0 and data["fields"]["he"]["provenance"] == "seed-inferred"


def test_malformed_overlay_names_file_and_line(capsys, tmp_path):
    ov = tmp_path / "ov.yaml"
    ov.write_text(
        "ruleset: quickref\nchanges:\n  - kind: terrain\n    id: woods\n    set: {sa: lots}\n"
    )
    code, _, err = run(
        capsys,
        "--data-overlay",
        str(ov),
        "odds",
        "quickref",
        "small-arms",
        "--strength",
        "2",
        "--range",
        "4",
        "--terrain",
        "woods",
    )
    assert code == 2 and "ov.yaml:5" in err and "sa" in err


def test_overlay_changes_the_odds(capsys, tmp_path):
    ov = tmp_path / "ov.yaml"
    ov.write_text(
        "ruleset: quickref\nchanges:\n  - kind: terrain\n    id: woods\n    set: {sa: 0}\n"
    )
    code, out, _ = run(
        capsys,
        "--data-overlay",
        str(ov),
        "odds",
        "quickref",
        "small-arms",
        "--strength",
        "2",
        "--range",
        "4",
        "--terrain",
        "woods",
        "--json",
    )
    assert code == 0 and json.loads(out)["exact"]["kia"] == "1/100"


@pytest.mark.parametrize("argv", [["odds", "quickref", "--help"], ["data", "--help"]])
def test_help(capsys, argv):
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "Usage" in out


def test_overlay_from_environment(capsys, tmp_path, monkeypatch):
    ov = tmp_path / "env-ov.yaml"
    ov.write_text(
        "ruleset: quickref\nchanges:\n  - kind: constant\n    id: morale\n    set: {value: 5}\n"
    )
    monkeypatch.setenv("KRIEGSSPIEL_DATA_OVERLAY", str(ov))
    code, out, _ = run(capsys, "odds", "quickref", "morale", "--json")
    assert code == 0 and json.loads(out)["exact"]["pass"] == "1/2"
    code, out, _ = run(capsys, "data", "show", "quickref", "constant", "morale", "--json")
    assert json.loads(out)["fields"]["value"]["provenance"] == "overlay"


def test_data_missing_template_round_trips(capsys, tmp_path):
    out_file = tmp_path / "fill.yaml"
    code, _, _ = run(
        capsys, "data", "missing", "panzerfaust", "--nation", "belgium", "--out", str(out_file)
    )
    import yaml

    doc = yaml.safe_load(out_file.read_text())
    assert code == 0 and doc["ruleset"] == "panzerfaust" and doc["changes"]
    first = doc["changes"][0]
    path, _ = next(iter(first["set"].items()))
    assert first["was"][path] in ("missing", "placeholder")
