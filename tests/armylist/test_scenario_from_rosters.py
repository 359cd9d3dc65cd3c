"""`scenario new` from two rosters: deployment zones and objectives per battle type (pp. 4-5)."""

from __future__ import annotations

import pytest
import yaml

from kriegsspiel.armylist import RosterError
from kriegsspiel.armylist.panzerfaust import Builder
from kriegsspiel.armylist.scenario import build_scenario, validate_scenario
from kriegsspiel.cli.main import main


@pytest.fixture(scope="module")
def rosters():
    b = Builder()
    a = b.new("germany", "1943-07", None, 2000, "KG Peiper")
    b.add(a, "", "organisation:germany/infantry-company")
    s = b.new("ussr", "1943-07", None, 2000, "5th Guards Tank")
    b.add(s, "", "organisation:ussr/tank-company")
    b.add(s, "", "organisation:ussr/tank-company")
    return [a, s]


def _inside(u, zone) -> bool:
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    return min(xs) <= u["x"] <= max(xs) and min(ys) <= u["y"] <= max(ys)


def test_encounter_zones_are_the_back_15cm_and_objectives_on_the_centre_line(rosters):
    doc = build_scenario(rosters, "180x120", "village", "encounter")
    validate_scenario(doc)
    a, b = doc["forces"]["a"], doc["forces"]["b"]
    assert {p[1] for p in a["deployment"]} == {0, 15}
    assert {p[1] for p in b["deployment"]} == {105, 120}
    assert all(o["y"] == 60 for o in doc["objectives"])
    for side in doc["sides"]:
        forces = doc["forces"][side["id"]]
        teams = [t for c in forces["companies"] for p in c["platoons"] for t in p["teams"]]
        assert teams and all(_inside(t, forces["deployment"]) for t in teams)
    assert doc["forces"]["b"]["roster"]["nation"] == "ussr"


def test_attack_defence_defender_holds_75_percent(rosters):
    doc = build_scenario(rosters, "180x120", "open", "attack-defence")
    validate_scenario(doc)
    assert doc["forces"]["b"]["role"] == "defender"
    assert {p[1] for p in doc["forces"]["b"]["deployment"]} == {30, 120}
    assert doc["forces"]["a"]["enters_from_edge"]
    (obj,) = doc["objectives"]
    assert 30 <= obj["y"] <= 90  # in the defender's area, not its back 25 %


def test_counter_attack_and_breakthrough(rosters):
    doc = build_scenario(rosters, "180x120", "hills", "counter-attack")
    validate_scenario(doc)
    assert {p[1] for p in doc["forces"]["a"]["deployment"]} == {0, 60}
    assert {p[1] for p in doc["forces"]["b"]["deployment"]} == {96, 120}
    doc = build_scenario(rosters, "180x120", "open", "breakthrough")
    assert any("exit" in r for r in doc["special_rules"])
    validate_scenario(doc)  # p5: half the attacker's points out by the defender's edge (P257)
    assert {"kind": "exit", "side": "a", "edge": "north", "share": 0.5} in doc["victory"][
        "conditions"
    ]


def test_an_illegal_roster_is_refused(rosters):
    bad = rosters[0].model_copy(deep=True)
    bad.points = 10
    doc = build_scenario([bad, rosters[1]], "180x120", "open", "encounter")
    with pytest.raises(ValueError, match="forces.a: the roster is not legal"):
        validate_scenario(doc)
    with pytest.raises(RosterError, match="--table"):
        build_scenario(rosters, "18x12", "open", "encounter")


def test_cli_scenario_new(tmp_path, rosters, capsys):
    from kriegsspiel.armylist import save_roster

    files = []
    for i, r in enumerate(rosters):
        f = tmp_path / f"r{i}.yaml"
        save_roster(r, f)
        files += ["--roster", str(f)]
    out = tmp_path / "battle.yaml"
    code = main(["scenario", "new", "--ruleset", "panzerfaust", *files, "--table", "180x120",
                 "--terrain", "village", "--out", str(out)])  # fmt: skip
    assert code == 0
    doc = yaml.safe_load(out.read_text())
    validate_scenario(doc)
    code = main(["scenario", "new", "--ruleset", "panzerfaust", *files, "--terrain", "moon",
                 "--out", str(tmp_path / "x.yaml")])  # fmt: skip
    assert code == 2 and "--terrain 'moon'" in capsys.readouterr().err
    assert not (tmp_path / "x.yaml").exists()
    # the scenario loads through the engine's v2 model and `scenario show` draws it, though
    # Panzerfaust games cannot be played yet (the table as set up, issue 18 item 6)
    capsys.readouterr()
    picture = tmp_path / "battle.png"
    assert main(["scenario", "show", str(out), "--out", str(picture)]) == 0
    shown = capsys.readouterr().out
    assert "victory (turn limit" in shown and "battle type" in shown
    assert picture.read_bytes()[:4] == b"\x89PNG"
