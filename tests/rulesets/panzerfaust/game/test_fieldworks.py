"""Digging in (p39; errata 4, p111) and camouflaging (p9) during a game (decisions P262-P265),
played through the engine: orders in phase F, the work counted at each turn's end, its effect on
observation and on fire, the refusals and what the enemy may learn."""

from __future__ import annotations

import copy

import pytest
import yaml

from kriegsspiel.engine import Game, IllegalCommand
from kriegsspiel.engine.scenario import Scenario

from .conftest import HERE, Dice

RAW = yaml.safe_load((HERE / "fieldworks.yaml").read_text())


def _game(raw: dict | None = None, seed: int = 1, **options) -> Game:
    return Game(Scenario.model_validate(raw or RAW), seed=seed, options=options)


def _act(game: Game, side: str) -> None:
    """`side` does nothing more in the current phase (ends it, its platoon, or holds fire)."""
    st = game.state
    if st.phase == "F":
        end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
        game.submit(side, end)
    elif st.phase == "G":
        game.submit(side, {"type": "hold", "unit": st.fire_order[st.fire_step]})
    else:
        game.submit(side, {"type": "end_phase"})


def _to_orders(game: Game, side: str = "germany", turn: int | None = None) -> None:
    """Play on, doing nothing, until `side` may give phase F orders (in `turn`, if given)."""
    st = game.state
    while not (st.phase == "F" and side in game.rules.active_sides(st)
               and (turn is None or st.turn == turn)):  # fmt: skip
        _act(game, game.rules.active_sides(st)[0])


def _to_turn(game: Game, turn: int, phase: str | None = None) -> None:
    """Play on, doing nothing, into `turn` (its `phase`, if given)."""
    st = game.state
    while st.turn < turn or (phase is not None and st.phase != phase):
        _act(game, game.rules.active_sides(st)[0])


def _pips(game: Game, n: int = 6) -> None:
    """Scripted pips for the German company this turn (its roll is not what is tested)."""
    game.state.companies["g-co"].pips = n


def test_p39_a_dig_order_digs_the_platoon_in_after_three_turns():
    game = _game()
    _to_orders(game)
    st = game.state
    spent = st.companies["g-co"].spent
    game.submit("germany", {"type": "dig", "platoon": "g-inf"})
    assert st.companies["g-co"].spent == spent + 1  # one group order (p7)
    assert set(st.works) == {"g-inf-hq", "g-inf-1", "g-inf-2"}
    assert all(w["kind"] == "dig" and w["need_turns"] == 3 for w in st.works.values())
    for turn in (2, 3):
        _to_turn(game, turn)
        assert not st.elements["g-inf-1"].has("dug_in")
        assert st.works["g-inf-1"]["turns"] == turn - 1
    _to_turn(game, 4)
    assert not st.works
    assert all(st.elements[t].has("dug_in") for t in ("g-inf-hq", "g-inf-1", "g-inf-2"))
    log = [e for e in game.events if e.type == "works_progress"]
    assert len(log) == 3 and all(e.visible_to == ("germany",) for e in log)
    assert any("is dug in (p39)" in line for line in log[-1].explanation)


def test_p39_a_digging_team_counts_as_moving_for_observation():
    game = _game()
    _to_orders(game)
    st = game.state
    assert "g-inf-1" not in st.seen["britain"]  # 110 cm: beyond 100 cm for size A in the open
    game.submit("germany", {"type": "dig", "platoon": "g-inf"})
    _to_turn(game, 2)
    assert st.works["g-inf-1"]["turns"] == 1
    assert {"g-inf-1", "g-inf-2"} <= set(st.seen["britain"])  # x2 while at work (p8, p39)


def test_p39_a_digging_team_does_nothing_else_it_is_passed_over_in_phase_g():
    raw = copy.deepcopy(RAW)
    raw["forces"]["germany"]["companies"][0]["platoons"][0]["teams"][1].update(x=40, y=30)
    game = _game(raw)  # g-inf-1 25 cm from the British team: it would have a target
    _to_orders(game)
    st = game.state
    assert "b-obs-1" in st.spotted.get("g-inf-1", {})
    game.submit("germany", {"type": "dig", "platoon": "g-inf"})
    _to_turn(game, 2)
    turn1 = [e for e in game.events if e.type in ("shot", "fire_skipped", "hold")]
    assert not [e for e in turn1 if e.data.get("unit") == "g-inf-1" and e.type != "fire_skipped"]
    assert any(e.type == "fire_skipped" and e.data["unit"] == "g-inf-1" for e in turn1)


def test_p9_a_move_abandons_the_work_and_leaves_the_position():
    game = _game()
    _to_orders(game)
    st = game.state
    game.submit("germany", {"type": "dig", "platoon": "g-inf"})
    _to_orders(game, turn=2)
    _pips(game)
    game.submit("germany", {"type": "move", "unit": "g-inf-1", "path": [[40, 110]]})
    assert "g-inf-1" not in st.works and "g-inf-2" in st.works
    move = next(e for e in reversed(game.events) if e.type == "move")
    assert any("the work is lost" in line for line in move.explanation)


def test_p9_camouflage_with_helpers_takes_the_table_s_team_moves_and_turns():
    game = _game()
    _to_orders(game)
    st = game.state
    _pips(game)
    game.submit("germany", {"type": "camouflage", "unit": "g-pak", "helpers": ["g-at-1", "g-at-2"]})
    w = st.works["g-pak"]
    assert (w["need_moves"], w["need_turns"], w["workers"]) == (6, 2, ["g-pak", "g-at-1", "g-at-2"])
    _to_turn(game, 2)
    assert st.works["g-pak"]["moves"] == 3 and not st.elements["g-pak"].has("camouflaged")
    _to_turn(game, 3)
    assert st.elements["g-pak"].has("camouflaged") and not st.works  # size B: 6 team-moves, 2 turns


def test_p9_alone_a_crew_needs_a_turn_per_team_move():
    game = _game()
    _to_orders(game)
    st = game.state
    _pips(game)
    game.submit("germany", {"type": "camouflage", "unit": "g-pak"})
    _to_turn(game, 3)
    assert st.works["g-pak"]["moves"] == 2 and not st.elements["g-pak"].has("camouflaged")


def _camouflaged_at(x: float, y: float) -> dict:
    """A camouflaged German rifle team (set up so) at (x, y), 70 cm before the observer."""
    raw = copy.deepcopy(RAW)
    team = raw["forces"]["germany"]["companies"][0]["platoons"][0]["teams"][1]
    team.update(x=x, y=y, camouflaged=True)
    return raw


def test_p8_p9_a_camouflaged_team_is_seen_at_half_range_and_loses_it_when_it_moves():
    game = _game(_camouflaged_at(40, 75))  # 70 cm: inside 100, outside 50
    _to_orders(game)
    st = game.state
    assert st.elements["g-inf-1"].has("camouflaged")
    assert "g-inf-1" not in st.seen["britain"]
    _pips(game)
    game.submit("germany", {"type": "move", "unit": "g-inf-1", "path": [[41, 75]]})
    assert not st.elements["g-inf-1"].has("camouflaged")  # p9: moving loses it
    assert "g-inf-1" in st.seen["britain"]


@pytest.mark.parametrize(("option", "kept"), [("keep", True), ("lose", False)])
def test_p264_camouflage_on_fire(option, kept):
    raw = _camouflaged_at(40, 30)  # 25 cm from the observer: seen even camouflaged
    game = _game(raw, camouflage_on_fire=option)
    st = game.state
    _to_turn(game, 1, "G")
    while st.fire_order[st.fire_step] != "g-inf-1":
        _act(game, game.rules.active_sides(st)[0])
    target = st.aliases.alias("germany", "b-obs-1")
    game.submit("germany", {"type": "fire", "unit": "g-inf-1", "target": target})
    assert st.elements["g-inf-1"].has("camouflaged") is kept


def _british_fire(game: Game, turn: int) -> dict:
    """Phase G of `turn`, the British team's turn to fire: its fire command at g-inf-1."""
    st = game.state
    _to_turn(game, turn, "G")
    while st.fire_order[st.fire_step] != "b-obs-1":
        _act(game, game.rules.active_sides(st)[0])
    return {"type": "fire", "unit": "b-obs-1", "target": st.aliases.alias("britain", "g-inf-1")}


def test_p16_p39_a_team_dug_in_during_the_game_is_in_hard_cover_against_small_arms():
    raw = copy.deepcopy(RAW)
    raw["forces"]["germany"]["companies"][0]["platoons"][0]["teams"][1].update(x=40, y=20)
    raw["forces"]["britain"]["companies"][0]["platoons"][0]["teams"][0]["type"] = (
        "britain/lmg-team-mag"
    )
    game = _game(raw)  # g-inf-1 15 cm in front of a British LMG team, in the open
    _to_orders(game)
    game.submit("germany", {"type": "dig", "platoon": "g-inf"})
    cmd = _british_fire(game, 1)
    before = game.rules.odds(game.state, "britain", cmd)
    _act(game, "britain")
    cmd = _british_fire(game, 4)
    assert game.state.elements["g-inf-1"].has("dug_in")
    after = game.rules.odds(game.state, "britain", cmd)
    drafts = game.rules.resolve(game.state, "britain", cmd, Dice(*[3] * 12))
    assert any("target in hard cover" in line for line in drafts[0].explanation)
    assert after["outcomes"]["lost_0"] > before["outcomes"]["lost_0"]  # -6 hard cover (p16)


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("platoon", "reason"),
    [
        ("g-pz", "AFVs and guns are dug in only as defences bought before the game (p39)"),
        ("g-road", "a team cannot dig in on a road (p39"),
        ("g-house", "cannot dig in in a building (p39"),
    ],
)
def test_p39_dig_refusals(platoon, reason):
    game = _game()
    _to_orders(game)
    with pytest.raises(IllegalCommand) as err:
        game.submit("germany", {"type": "dig", "platoon": platoon})
    assert reason in err.value.reason
    assert not game.state.works


def test_p39_a_team_that_moved_cannot_dig_and_a_whole_squad_digs_at_once():
    game = _game()
    _to_orders(game)
    _pips(game)
    game.submit("germany", {"type": "move", "unit": "g-inf-2", "path": [[46, 112]]})
    with pytest.raises(IllegalCommand, match=r"has moved this turn.*whole squad digs in at once"):
        game.submit("germany", {"type": "dig", "platoon": "g-inf"})


def test_p7_no_pips_no_order():
    game = _game()
    _to_orders(game)
    st = game.state
    st.companies["g-co"].spent = st.companies["g-co"].pips
    with pytest.raises(IllegalCommand, match=r"0 pip\(s\) left"):
        game.submit("germany", {"type": "dig", "platoon": "g-inf"})
    with pytest.raises(IllegalCommand, match=r"0 pip\(s\) left"):
        game.submit("germany", {"type": "camouflage", "unit": "g-pak"})


def test_p9_camouflage_refusals():
    game = _game()
    _to_orders(game)
    _pips(game)
    with pytest.raises(IllegalCommand, match=r"size C cannot be camouflaged in open.*only dug in"):
        game.submit("germany", {"type": "camouflage", "unit": "g-pz-1"})
    with pytest.raises(IllegalCommand, match="more than 5 cm"):
        game.submit("germany", {"type": "camouflage", "unit": "g-pak", "helpers": ["g-at-3"]})
    with pytest.raises(IllegalCommand, match="helpers are infantry teams of"):
        game.submit("germany", {"type": "camouflage", "unit": "g-pak", "helpers": ["g-inf-1"]})
    assert not game.state.works


def test_p9_no_camouflage_under_enemy_fire():
    raw = copy.deepcopy(RAW)
    raw["forces"]["germany"]["companies"][0]["platoons"][0]["teams"][1].update(x=40, y=30)
    raw["forces"]["britain"]["companies"][0]["platoons"][0]["teams"][0]["type"] = (
        "britain/lmg-team-mag"
    )
    game = _game(raw)  # g-inf-1 25 cm in front of a British LMG team
    st = game.state
    _to_turn(game, 1, "D")
    game.submit("britain", {"type": "cover", "unit": "b-obs-1", "x": 40, "y": 30})
    assert st.elements["g-inf-1"].has("pinned")
    _to_orders(game)
    _pips(game)
    with pytest.raises(IllegalCommand, match=r"under enemy fire.*only free of it \(p9\)"):
        game.submit("germany", {"type": "camouflage", "unit": "g-inf-1"})


def test_p265_a_team_dug_in_by_the_scenario_leaves_its_foxhole_when_it_moves():
    raw = _camouflaged_at(40, 75)
    raw["forces"]["germany"]["companies"][0]["platoons"][0]["teams"][1]["dug_in"] = True
    game = _game(raw)
    _to_orders(game)
    st = game.state
    assert st.elements["g-inf-1"].counters == {"dug_in": 1, "camouflaged": 1}
    _pips(game)
    game.submit("germany", {"type": "move", "unit": "g-inf-1", "path": [[40, 78]]})
    assert not st.elements["g-inf-1"].counters
    move = next(e for e in reversed(game.events) if e.type == "move")
    assert any("no longer dug in or camouflaged (p9)" in line for line in move.explanation)


# ----------------------------------------------------------------------------- fog
def test_fog_the_enemy_learns_nothing_of_work_it_does_not_observe():
    game = _game()
    _to_orders(game)
    _pips(game)
    game.submit("germany", {"type": "camouflage", "unit": "g-pak", "helpers": ["g-at-1"]})
    _act(game, "germany")  # the PaK section has finished
    _to_orders(game)
    game.submit("germany", {"type": "dig", "platoon": "g-inf"})
    _to_turn(game, 2)
    mine, theirs = game.view("germany"), game.view("britain")
    assert {w["unit"] for w in mine["panzerfaust"]["works"]} >= {"g-pak", "g-inf-1"}
    assert theirs["panzerfaust"]["works"] == []
    blob = str(theirs)
    assert "g-pak" not in blob and "g-at-1" not in blob and "g-inf" not in blob
    for e in game.events:
        if e.type in ("dig_begun", "camouflage_begun", "works_progress"):
            assert e.visible_to == ("germany",)
