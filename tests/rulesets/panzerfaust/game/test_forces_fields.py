"""The forces block's set-up fields reach the game state (branch pfscen's forces block): named
HQs and radios, turret facing, dug-in and hidden teams, dummy counters, riders, an infantry
AT-weapon team that fires by the AT procedure (p19)."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import riders

from .conftest import HERE, Dice, end_phase_d

AMBUSH = HERE / "ambush.yaml"


def test_set_up_fields_in_the_state():
    game = Game(load_scenario(AMBUSH), seed=2)
    st = game.state
    assert st.companies["g-co"].hq == "g-hq" and st.elements["g-hq"].radio
    assert st.platoons["g-inf"].hq == "g-pl"
    assert st.elements["b-tk-1"].turret == 20 and st.elements["b-tk-1"].carrying == ["b-riders"]
    schreck = st.elements["g-schreck"]
    assert schreck.hidden and schreck.has("dug_in") and schreck.kind == "infantry"
    assert st.markers["g-dummy-1"].kind == "dummy" and st.markers["g-dummy-1"].visible_to == [
        "germany"
    ]
    # the riders are not on the table as pieces of their own: they ride
    assert not st.elements["b-riders"].active
    counters = game.view("britain")["panzerfaust"]["counters"]
    assert {(c["x"], c["y"]) for c in counters} >= {(140, 100)}
    assert "g-schreck" not in str(game.view("britain"))


def test_riders_move_with_their_tank_and_the_schreck_fires_by_the_at_procedure():
    game = Game(load_scenario(AMBUSH), seed=2)
    end_phase_d(game)
    while game.state.phase == "F":
        side = game.rules.active_sides(game.state)[0]
        if side == "britain" and game.state.elements["b-tk-1"].moved == 0:
            game.submit(side, {"type": "move", "unit": "b-tk-1", "path": [[90, 56]]})
        else:
            end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
            game.submit(side, end)
    st = game.state
    rider = st.elements["b-riders"]
    assert (rider.x, rider.y) == (90, 56)
    while st.phase == "G" and st.fire_order[st.fire_step] != "g-schreck":
        e = st.elements[st.fire_order[st.fire_step]]
        game.submit(e.side, {"type": "hold", "unit": e.id})
    alias = st.aliases.alias("germany", "b-tk-1")
    drafts = game.rules.resolve(st, "germany", {"type": "fire", "unit": "g-schreck",
                                                "target": alias}, Dice(*[3] * 12))  # fmt: skip
    text = "\n".join(drafts[0].explanation)
    assert "Panzershreck Team" in text and "3d6" in text  # the p19 AT procedure (at_fire)


def test_pregame_weather_and_a_platoon_arriving_on_turn_2():
    """The scenario's pre-game block runs at set-up (rain halves sight, p10) and the platoon
    scheduled for turn 2 comes on at the middle of its edge in phase F (pp. 4-5)."""
    game = Game(load_scenario(AMBUSH), seed=2)
    st = game.state
    assert st.pregame["battle_type"] == "attack-defence"
    assert st.pregame["weather"]["conditions"] == ["rain"]
    from kriegsspiel.rulesets.panzerfaust.game import sight

    assert sight.weather(st) == "rain"
    late = [st.elements["b-late-1"], st.elements["b-late-2"]]
    assert all(not e.on_table for e in late)
    for _ in range(200):
        if st.turn == 2 and st.phase == "F":
            break
        side = game.rules.active_sides(st)[0]
        legal = game.legal_commands(side)
        end = next(c for c in legal if c["type"] in ("end_phase", "end_platoon", "hold"))
        game.submit(side, end)
    assert [(e.x, e.y) for e in late] == [(87.5, 2.0), (92.5, 2.0)]
    arrive = [e for e in game.events if e.type == "arrive" and e.data["placed"]]
    assert arrive and arrive[0].visible_to == ("britain",)


def _to_britain_in_f(game: Game) -> None:
    end_phase_d(game)
    while game.rules.active_sides(game.state) != ["britain"]:
        side = game.rules.active_sides(game.state)[0]
        end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
        game.submit(side, end)


def test_a_hidden_minefield_stops_a_tank_where_a_mine_goes_off():
    """p38: 6 cm inside a dense AT field = 2 squares; the first trips (2D6 2) and the tank is
    left where it was hit; the Germans are told nothing of it by the move."""
    game = Game(load_scenario(AMBUSH), seed=2)
    st = game.state
    assert st.markers["g-mines"].visible_to == ["germany"]
    assert "g-mines" not in str(game.view("britain"))
    _to_britain_in_f(game)
    cmd = {"type": "move", "unit": "b-tk-1", "path": [[106, 40]]}
    drafts = game.rules.resolve(st, "britain", cmd, Dice(1, 1, 6))
    kinds = [d.type for d in drafts]
    assert kinds == ["move", "mine_check", "mine_hits"]
    check = drafts[1]
    assert check.visible_to == ("britain",) and check.data["result"] == "destroyed"  # 1D6 6
    assert any("2d6" in line for line in check.explanation)
    from .conftest import fold

    fold(game, "britain", drafts)
    tank = st.elements["b-tk-1"]
    assert tank.lost and (tank.x, tank.y) == (100.0, 40.0)  # the square where it went off
    assert st.elements["b-riders"].lost  # the riders go with it


def test_squares_crossed_unharmed_tell_the_mover_nothing():
    game = Game(load_scenario(AMBUSH), seed=2)
    _to_britain_in_f(game)
    cmd = {"type": "move", "unit": "b-tk-1", "path": [[106, 40]]}
    drafts = game.rules.resolve(game.state, "britain", cmd, Dice(6, 6, 6, 6))
    check = next(d for d in drafts if d.type == "mine_check")
    assert check.visible_to == () and check.data["result"] == "no_trip"


def test_riders_get_down_behind_their_tank_and_board_again_next_turn():
    game = Game(load_scenario(AMBUSH), seed=2)
    _to_britain_in_f(game)
    st = game.state
    assert {"type": "dismount", "unit": "b-riders"} in game.legal_commands("britain")
    spent = st.companies["b-co"].spent
    game.submit("britain", {"type": "dismount", "unit": "b-riders"})
    r = st.elements["b-riders"]
    assert r.active and (r.x, r.y) == (90.0, 36.0)  # 4 cm behind a tank facing north
    assert st.elements["b-tk-1"].carrying == [] and st.companies["b-co"].spent == spent + 1
    assert r.moved == 2.5  # half its 5 cm (p12)
    with pytest.raises(IllegalCommand, match="already moved"):
        game.submit("britain", {"type": "embark", "unit": "b-riders", "vehicle": "b-tk-1"})
    with pytest.raises(IllegalCommand, match="not a vehicle of yours"):
        riders.check_embark(st, r, "g-hq")
    st.elements["b-tk-1"].x = 120.0
    with pytest.raises(IllegalCommand, match="over 5 cm"):
        riders.check_embark(st, r, "b-tk-1")


def test_an_element_leaves_by_an_edge_within_its_move():
    """Breakthrough (p5): leaving the table counts for an `exit` victory."""
    game = Game(load_scenario(AMBUSH), seed=2)
    _to_britain_in_f(game)
    st = game.state
    with pytest.raises(IllegalCommand, match="cannot reach the north edge"):
        game.submit("britain", {"type": "exit", "unit": "b-tk-1", "edge": "north"})
    st.elements["b-tk-1"].y = 110.0
    st.elements["b-riders"].y = 110.0
    assert {"type": "exit", "unit": "b-tk-1", "edge": "north"} in game.legal_commands("britain")
    game.submit("britain", {"type": "exit", "unit": "b-tk-1", "edge": "north"})
    assert st.elements["b-tk-1"].exited == "north" and st.elements["b-riders"].exited == "north"
    statuses = {p.id: p for p in game.rules.statuses(st)}
    assert statuses["b-tk-1"].exited == "north" and not statuses["b-tk-1"].present
