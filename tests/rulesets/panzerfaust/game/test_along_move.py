"""Spotting along a move (p8 observation, p6 backtracking; decisions P283-P284, P286) and live
vehicles screening sight (p8 step 1, Q&A 3 p111; decision P285), played through the game."""

from __future__ import annotations

import json

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.engine.events import Draft
from kriegsspiel.rulesets.panzerfaust.game import along_move, sight

from .conftest import HERE, Dice, end_phase_d, fold, settle

GAP = (86.5, 93.5)  # x of the points of the road y=40 the PaK sees between the houses


def _moved(path, game: Game | None = None) -> Game:
    """The gap scenario at phase G: the Cromwell drove along `path`, everything else held."""
    game = game or Game(load_scenario(HERE / "glimpse.yaml"), seed=3)
    end_phase_d(game)
    while game.state.phase == "F":
        side = game.rules.active_sides(game.state)[0]
        if side == "britain" and game.state.elements["b-tk-1"].moved == 0:
            game.submit(side, {"type": "move", "unit": "b-tk-1", "path": path})
        else:
            end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
            game.submit(side, end)
    return game


def test_p8_a_mover_seen_only_in_the_gap_is_spotted_there_though_hidden_at_both_ends():
    game = _moved([[98, 40]])
    st = game.state
    assert st.phase == "G"
    assert "b-tk-1" not in st.seen["germany"]  # behind the east house now
    ((a, b),) = along_move.stretches(st, "g-pak", "b-tk-1")
    assert 4 <= a < b <= 12  # 16 cm from x 82 to 98: the gap is x 87-93
    view = game.view("germany")
    alias = st.aliases.alias("germany", "b-tk-1")
    assert alias not in {e["id"] for e in view["enemies"]}
    (mark,) = [m for m in view["last_known"] if m["id"] == alias]  # where it was last seen
    assert GAP[0] <= mark["x"] <= GAP[1] and mark["y"] == 40
    (track,) = view["panzerfaust"]["tracks"]
    assert track["id"] == alias and len(track["lines"]) == 1
    assert all(GAP[0] <= x <= GAP[1] and y == 40 for x, y in track["lines"][0])
    # fog: nothing of the path it did not see, nor where the tank stopped
    blob = json.dumps(view)
    assert "[98.0, 40.0]" not in blob and "[82.0, 40.0]" not in blob
    assert game.view("britain")["panzerfaust"]["tracks"] == []  # its own move: no track


def test_p8_a_mover_never_in_sight_leaves_no_glimpse():
    game = _moved([[84, 40]])  # stays behind the west house
    st = game.state
    assert st.glimpses == {}
    assert "b-tk-1" not in st.last_seen["germany"]
    assert game.view("germany")["panzerfaust"]["tracks"] == []
    assert game.rules.active_sides(st) != ["germany"]  # nothing to fire at, not even back


def test_p6_backtracking_fire_at_a_glimpsed_point_is_allowed_at_an_unseen_point_refused():
    game = _moved([[98, 40]])
    st = game.state
    alias = st.aliases.alias("germany", "b-tk-1")
    assert game.rules.active_sides(st) == ["germany"]  # the PaK may fire back along the path
    ((a, b),) = along_move.stretches(st, "g-pak", "b-tk-1")
    (cmd,) = [c for c in game.legal_commands("germany") if c["type"] == "fire"]
    assert cmd["target"] == alias and a <= cmd["at"] <= b
    for at in (0.0, 2.0, 14.0, 16.0):  # behind the houses: the gun did not see it there
        with pytest.raises(IllegalCommand, match="did not observe the target at that point"):
            game.rules.resolve(st, "germany", {**cmd, "at": at}, Dice())
    mid = round((a + b) / 2, 2)
    drafts = game.rules.resolve(st, "germany", {**cmd, "at": mid}, Dice(1, 1, 1, 3, 1, 6, 6))
    shot = drafts[0]
    assert shot.data["result"] == "destroyed"
    assert GAP[0] <= shot.data["at_xy"][0] <= GAP[1]
    fold(game, "germany", drafts)
    settle(game, Dice(*[3] * 20))
    tank = st.elements["b-tk-1"]
    assert tank.lost and (tank.x, tank.y) == tuple(shot.data["at_xy"])  # put back there (p6)


def test_p8_live_vehicles_screen_sight_by_size():
    """A rifle team (A) behind a Cromwell (C) is hidden; a Cromwell behind a scout car (B)
    shows over it under the size rule, not under `all`; `wrecks` lets live vehicles be."""
    scenario = load_scenario(HERE / "screen.yaml")
    seen = {}
    for mode in ("size", "all", "wrecks"):
        game = Game(scenario, seed=3, options={"vehicle_screen": mode})
        seen[mode] = set(game.state.seen["germany"])
    assert seen["size"] == {"b-tk-1", "b-tk-2", "b-car"}
    assert seen["all"] == {"b-tk-1", "b-car"}
    assert seen["wrecks"] == {"b-tk-1", "b-tk-2", "b-car", "b-inf-1"}
    st = Game(scenario, seed=3).state
    assert not sight.clear(st, (90, 100), (90, 50), "A")  # across the Cromwell
    assert sight.clear(st, (90, 100), (90, 50), "D")  # a bigger target shows over it
    assert sight.clear(st, (90, 100), (90, 68))  # standing against it: sees past it (P192)


def test_p8_a_screen_that_drives_away_uncovers_what_it_hid():
    """The spotting memo works out again the lines a moved vehicle crossed (sight.py)."""
    game = Game(load_scenario(HERE / "screen.yaml"), seed=3)
    assert "b-inf-1" not in game.state.seen["germany"]
    end_phase_d(game)
    while game.state.elements["b-tk-1"].moved == 0:
        side = game.rules.active_sides(game.state)[0]
        if side == "britain":
            game.submit(side, {"type": "move", "unit": "b-tk-1", "path": [[100, 70]]})
        else:
            end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
            game.submit(side, end)
    st = game.state
    assert "b-inf-1" in st.seen["germany"]
    full = Game(load_scenario(HERE / "screen.yaml"), seed=3, events=game.events).state
    full.cache.clear()
    sight.look(full)
    assert full.seen == st.seen and full.spotted == st.spotted


def test_p38_a_mover_stopped_on_the_way_was_seen_only_up_to_there():
    """A mine stops the Cromwell in the gap (mine_hits lands it there): the stretch it never
    drove is no longer in the German track, and the last-known mark is where it stopped."""
    game = _moved([[98, 40]])
    st = game.state
    ((a, b),) = along_move.stretches(st, "g-pak", "b-tk-1")
    stop = round((a + b) / 2, 2)
    at = list(along_move.movement.point_at(st.elements["b-tk-1"].path, stop))
    fold(game, None, [Draft("mine_hits", {"results": [
        {"target": "b-tk-1", "result": "immobilised", "at": at, "cm": stop}]}, ())])  # fmt: skip
    assert along_move.stretches(st, "g-pak", "b-tk-1") == [[a, stop]]
    assert "b-tk-1" in st.seen["germany"]  # it stands in the gap now
    (track,) = game.view("germany")["panzerfaust"]["tracks"]
    assert max(x for x, _ in track["lines"][0]) == pytest.approx(at[0], abs=0.01)
