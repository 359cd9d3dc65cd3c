"""The three shipped Panzerfaust scenarios (issue 19 item 5): they load, their rosters are legal
army-builder rosters, `scenario show` prints the briefing and draws the 180 x 120 cm table, the
pre-game settles each one's battle type, and broken files are refused with file, line and
field."""

from __future__ import annotations

import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from kriegsspiel.armylist.builders import builder
from kriegsspiel.armylist.roster import parse_roster
from kriegsspiel.cli.main import main
from kriegsspiel.data.errors import DataError
from kriegsspiel.engine.scenario import find_scenario, load_scenario
from kriegsspiel.rulesets.panzerfaust.game.pregame import pregame

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "src/kriegsspiel/rulesets/panzerfaust/scenarios"
IDS = {
    "pf-normandy-encounter": "encounter",
    "pf-kursk-attack": "attack-defence",
    "pf-cobra-breakthrough": "breakthrough",
}
# and the short skirmish the two-browser battle plays (tests/browser/test_pf_full_battle.py)
ALL = {**IDS, "pf-orchard-skirmish": "encounter"}


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("ident", ALL)
def test_each_scenario_loads_from_real_records_and_legal_rosters(ident):
    sc = find_scenario(ident)
    assert (sc.ruleset, sc.table.width, sc.table.depth, sc.table.unit) == (
        "panzerfaust",
        180,
        120,
        "cm",
    )
    for side in sc.side_ids:
        f = sc.forces_of(side)
        assert f.pieces() and all(t.type.partition(":")[0] for t in f.pieces())
        assert any(t.hq == "company" for t in f.pieces())
        roster = parse_roster(f.roster)
        assert roster.nation == sc.side(side).nation
        assert builder("panzerfaust").validate(roster).ok
        orgs = [c.organisation for c in f.companies if c.organisation]
        assert orgs and all(o.startswith("organisation:") for o in orgs)
    kinds = {t.kind for t in sc.terrain}
    assert {"road", "building", "woods"} & kinds and len(kinds) >= 5
    assert sc.briefing.count("\n") >= 3 and "Victory" in sc.briefing


def test_the_skirmish_has_a_battery_each_for_phase_a():
    sc = find_scenario("pf-orchard-skirmish")
    assert sc.victory.turn_limit == 2
    for side in sc.side_ids:
        f = sc.forces_of(side)
        assert len(f.pieces()) <= 13 and len(f.batteries) == 1
        boss = next(t for t in f.pieces() if t.hq == "company")
        assert f.batteries[0].observers == [boss.id] and not f.batteries[0].plan


def test_each_battle_type_has_what_it_needs():
    enc, kursk, cobra = (find_scenario(i) for i in IDS)
    assert all(t.transport for t in enc.forces_of("germany").pieces() if "lmg" in t.type)
    su = kursk.forces_of("ussr")
    # class and morale come with the roster's rating row at its date (p22)
    assert {c.troop_class for c in su.companies} == {"conscript"}
    assert {c.troop_class for c in kursk.forces_of("germany").companies} == {"veteran"}
    assert not any(t.placed for t in su.pieces()) and len(su.arrivals) == 3
    riders = [t for t in su.pieces() if t.transport]
    assert riders and all(
        "t-34" in next(u.type for u in su.pieces() if u.id == t.transport) for t in riders
    )
    de = kursk.forces_of("germany")
    assert any(w.hidden and "mine" in w.type for w in de.works)
    assert 0 < len(de.dummies) <= sum(t.hidden for t in de.pieces())
    us = cobra.forces_of("usa")
    assert us.aircraft and us.batteries and us.batteries[0].observers
    observer = next(t for t in us.pieces() if t.id == us.batteries[0].observers[0])
    assert observer.fao
    assert any(c.kind == "exit" for c in cobra.victory.conditions)


@pytest.mark.parametrize(("ident", "battle"), ALL.items())
def test_pregame_of_each_scenario(ident, battle):
    sc = find_scenario(ident)
    rec = pregame(sc, random.Random(7))
    assert rec == pregame(sc, random.Random(7))
    assert rec.battle_type == battle
    assert rec.map_fire is (battle != "encounter")
    if battle == "attack-defence":
        assert [a.turn for a in rec.arrivals] == [1, 2, 3]
        assert next(z for z in rec.zones if z.side == "ussr").enters_from_edge
    if battle == "breakthrough":
        assert rec.exit_area is not None and rec.exit_area.edge == "north"
        assert rec.weather.conditions == ["clear"]


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


@pytest.mark.parametrize("ident", ALL)
def test_scenario_show_prints_the_briefing_and_draws(capsys, tmp_path, ident):
    png, svg = tmp_path / "t.png", tmp_path / "t.svg"
    code, out, _ = run(capsys, "scenario", "show", ident, "--out", str(png))
    assert code == 0
    sc = find_scenario(ident)
    assert "briefing:" in out and sc.briefing.splitlines()[0] in out
    assert f"victory (turn limit {sc.victory.turn_limit}):" in out
    assert _png_size(png) == (1100, 733)  # 10 x 6.67 in at 110 dpi: the 3:2 table
    assert run(capsys, "scenario", "show", ident, "--out", str(svg))[0] == 0
    text = svg.read_text()
    assert "<svg" in text and 'width="720pt"' in text and 'height="480pt"' in text


def _broken(tmp_path, ident, mutate) -> tuple[str, list[str]]:
    raw = yaml.safe_load((FOLDER / f"{ident}.yaml").read_text())
    mutate(raw)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(raw, sort_keys=False))
    with pytest.raises(DataError) as exc:
        load_scenario(bad)
    return str(exc.value), bad.read_text().splitlines()


def _team(raw, side, c=0, p=0, t=0):
    return raw["forces"][side]["companies"][c]["platoons"][p]["teams"][t]


@pytest.mark.parametrize(
    ("mutate", "field", "text", "on_line"),
    [
        (
            lambda r: _team(r, "germany").update(type="afv:germany/maus-ii"),
            "forces.germany.companies.0.platoons.0.teams.0.type",
            "unknown afv",
            "maus-ii",
        ),
        (
            lambda r: _team(r, "britain", 0, 1, 4).update(transport="nowhere"),
            "forces.britain.companies.0.platoons.1.teams.4.transport",
            "no such vehicle",
            "nowhere",
        ),
        (
            lambda r: _team(r, "britain").update(x=250),
            "forces.britain.companies.0.platoons.0.teams.0.x",
            "off the 180 x 120 cm table",
            "250",
        ),
    ],
)
def test_bad_normandy_files_name_file_line_field(tmp_path, mutate, field, text, on_line):
    msg, lines = _broken(tmp_path, "pf-normandy-encounter", mutate)
    assert f"[{field}]" in msg and text in msg, msg
    line = int(msg.split("bad.yaml:")[1].split(" ")[0])
    assert on_line in lines[line - 1]


def test_too_many_dummies_names_the_field(tmp_path):
    def more(raw):
        raw["forces"]["germany"]["dummies"] += [
            {"id": f"extra-{i}", "x": 10 + i, "y": 100} for i in range(60)
        ]

    msg, lines = _broken(tmp_path, "pf-kursk-attack", more)
    assert "[forces.germany.dummies]" in msg and "at most one each (p5)" in msg
    line = int(msg.split("bad.yaml:")[1].split(" ")[0])
    assert lines[line - 1].strip().startswith("dummies:")


def test_the_files_are_what_the_script_writes():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts/pf_scenarios.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr


def test_every_terrain_feature_has_an_observation_row():
    from kriegsspiel.data.errors import RuleError
    from kriegsspiel.rulesets.panzerfaust.rules.placeholders import OBSERVATION
    from kriegsspiel.rulesets.panzerfaust.terrain import observation_row

    for ident in IDS:
        for f in find_scenario(ident).terrain:
            assert observation_row(f.kind, f.attributes) in OBSERVATION
    assert observation_row("woods", {"density": "thin"}) == "thin_woods"
    assert observation_row("treeline") == "thin_treeline"
    with pytest.raises(RuleError, match="terrain kind 'lava'"):
        observation_row("lava")
    with pytest.raises(RuleError, match="expected thick or thin"):
        observation_row("woods", {"density": "sparse"})
