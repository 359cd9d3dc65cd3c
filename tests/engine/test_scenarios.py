"""The two shipped quickref scenarios: valid, drawable, and played from set-up to victory."""

from __future__ import annotations

from collections import Counter

import pytest

from kriegsspiel.engine import Game
from kriegsspiel.engine.scenario import all_scenarios, find_scenario
from kriegsspiel.render import render_view

from .play import scripted_play


def test_shipped_quickref_scenarios():
    ids = {s.id for s in all_scenarios() if s.ruleset == "quickref"}
    assert {"qr-crossroads-armour", "qr-village-assault"} <= ids
    village = find_scenario("qr-village-assault")
    kinds = Counter(u.type for s in village.sides for u in village.pieces(s.id))
    assert kinds["mmg-team"] and kinds["hmg-team"] and kinds["at-team"]  # MGs, AT teams
    assert {a.battery for a in village.artillery} >= {"light-gun", "medium-mortar"}  # off-board


@pytest.mark.parametrize(
    "sid,winner,reason",
    [
        ("qr-crossroads-armour", "germany", "holds crossroads"),
        ("qr-village-assault", "britain", "the enemy lost 70% of its units"),
    ],
)
def test_scripted_game_to_victory(sid, winner, reason):
    g = Game(find_scenario(sid), seed=0)
    scripted_play(g)
    assert g.outcome["winner"] == winner and g.outcome["reason"] == reason
    kinds = Counter(e.type for e in g.events)
    assert kinds["fire"] > 0 and kinds["move"] > 0 and kinds["update"] > 0
    assert g.replay().state_hash() == g.state_hash()


def test_village_uses_artillery_and_assault():
    g = Game(find_scenario("qr-village-assault"), seed=2)
    scripted_play(g)
    kinds = Counter(e.type for e in g.events)
    assert kinds["call_fire"] and kinds["burst"] and kinds["assault"]


def test_pictures(tmp_path):
    g = Game(find_scenario("qr-crossroads-armour"), seed=0)
    png = render_view(g.view("usa"), tmp_path / "usa.png")
    svg = render_view(g.view("umpire"), tmp_path / "all.svg")
    assert png.read_bytes()[:4] == b"\x89PNG" and "<svg" in svg.read_text()[:400]
    assert "StuG 331" in svg.read_text() and "StuG 331" not in _svg_text(g, "usa", tmp_path)


def _svg_text(g: Game, side: str, tmp_path) -> str:
    return render_view(g.view(side), tmp_path / f"{side}.svg").read_text()


def test_a_scenario_file_is_parsed_again_only_when_it_changes(tmp_path):
    """load_scenario keeps what it parsed while the file is unchanged (frozen models)."""
    import os
    import shutil

    from kriegsspiel.engine.scenario import load_scenario, scenario_dirs

    shipped = next(
        f
        for _, folder in scenario_dirs()
        for f in folder.glob("*.yaml")
        if load_scenario(f).id == "qr-crossroads-armour"
    )
    path = tmp_path / "s.yaml"
    shutil.copy(shipped, path)
    first = load_scenario(path)
    assert load_scenario(path) is first
    path.write_text(path.read_text().replace("turn_limit: 8", "turn_limit: 9"))
    os.utime(path, ns=(1, 1))  # a different mtime even within one clock tick
    assert load_scenario(path).victory.turn_limit == 9
