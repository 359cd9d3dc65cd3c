"""Towed guns through the real engine (pp. 25, 33-34; game/towing.py): limber, tow, unlimber,
man-handle, the towing factor, set-up times and firing restrictions, refusals, fall together,
views, and the log replaying to the same state."""

from __future__ import annotations

from pathlib import Path

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.engine.events import Draft

from .conftest import HERE, advance, end_phase_d, fold

TOWING = HERE / "towing.yaml"


def new(seed: int = 1, **options) -> Game:
    return Game(load_scenario(TOWING), seed=seed, options=options)


def act(game: Game, platoon: str, *cmds: dict, end: bool = True) -> None:
    """In phase F: when Germany may move a platoon, give `platoon` these orders (and end it)."""
    st = game.state
    while game.rules.active_sides(st) == ["britain"]:
        game.submit("britain", {"type": "end_platoon", "platoon": "b-tk"})
    for c in cmds:
        game.submit("germany", c)
    if end:
        game.submit("germany", {"type": "end_platoon", "platoon": platoon})


def refused(game: Game, cmd: dict, reason: str, field: str | None = None) -> None:
    st = game.state
    while game.rules.active_sides(st) == ["britain"]:
        game.submit("britain", {"type": "end_platoon", "platoon": "b-tk"})
    before, n = game.state_hash(), len(game.events)
    with pytest.raises(IllegalCommand, match=reason) as err:
        game.submit("germany", cmd)
    if field is not None:
        assert err.value.field == field
    assert game.state_hash() == before and len(game.events) == n


def test_a_scenario_gun_starts_limbered_behind_its_tower():
    st = new().state
    gun, truck = st.elements["g-lefh"], st.elements["g-opel"]
    assert gun.limbered and gun.tower == "g-opel" and truck.towing == "g-lefh"
    assert (gun.x, gun.y) == (100.0, 138.0)  # 4 cm behind a truck facing south


@pytest.mark.parametrize(
    ("tower", "reason"),
    [("g-ht10", "tows guns up to size B; .* is size C"), ("b-tk-1", "not a piece of its side")],
)
def test_a_scenario_gun_limbered_to_a_tower_that_cannot_tow_it_is_refused(
    tmp_path: Path, tower: str, reason: str
):
    text = TOWING.read_text().replace("tower: g-opel", f"tower: {tower}")
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=reason):
        Game(load_scenario(path), seed=1)


def test_p33_limber_tow_and_unlimber_a_size_a_gun_and_the_log_replays():
    game = new()
    st = game.state
    end_phase_d(game)
    # turn 1: limber (size A: 1/2 move), one order of 1 pip
    act(game, "g-pl-a", {"type": "limber", "unit": "g-pak36", "tower": "g-ht10"}, end=False)
    ev = next(e for e in game.events if e.type == "tow_job")
    assert ev.data["kind"] == "limber" and ev.data["moves"] == "1/2" and ev.data["cost"] == 1
    assert ev.visible_to == ("germany",) or list(ev.visible_to) == ["germany"]
    assert any("takes 1/2 move" in line for line in ev.explanation)
    gun, ht = st.elements["g-pak36"], st.elements["g-ht10"]
    assert gun.job and not gun.limbered
    refused(game, {"type": "move", "unit": "g-ht10", "path": [[36, 90]]}, "stays put", "unit")
    game.submit("germany", {"type": "end_platoon", "platoon": "g-pl-a"})
    advance(game, "G", 1)
    assert gun.limbered and gun.job is None and "g-pak36" not in st.fire_order
    # turn 2: the tower tows it 20 cm south; the gun follows, 4 cm behind
    advance(game, "F", 2)
    refused(game, {"type": "move", "unit": "g-pak36", "path": [[40, 95]]}, "moves with its tower")
    act(game, "g-pl-a", {"type": "move", "unit": "g-ht10", "path": [[36, 83]]})
    assert (ht.x, ht.y) == (36.0, 83.0) and (gun.x, gun.y) == (36.0, 87.0)
    assert gun.moved == ht.moved == 20.0
    advance(game, "G", 2)
    assert "g-pak36" not in st.fire_order  # limbered guns do not fire (p33)
    # turn 3: unlimber (1/2 move): with `unlimbered_fire=half` it fires the same turn
    advance(game, "F", 3)
    act(game, "g-pl-a", {"type": "unlimber", "unit": "g-pak36"})
    advance(game, "G", 3)
    assert not gun.limbered and gun.tower is None and ht.towing is None
    assert "g-pak36" in st.fire_order
    again = game.replay()
    assert again.state_hash() == game.state_hash()


def test_p25_a_tower_at_its_minimum_tow_class_moves_at_the_towing_factor():
    """4x2 truck towing off-road: x1/4 (p25; example p25: a 4x4 x1/2 again in woods)."""
    game = new()
    end_phase_d(game)
    refused(game, {"type": "move", "unit": "g-opel", "path": [[100, 124]]},
            "moves at most 6.25 cm", "path")  # fmt: skip
    act(game, "g-how", {"type": "move", "unit": "g-opel", "path": [[100, 128]]})
    ev = [e for e in game.events if e.type == "move"][-1]
    assert any("x0.25" in line and "p25" in line for line in ev.explanation)
    gun = game.state.elements["g-lefh"]
    assert (gun.x, gun.y) == (100.0, 132.0)


def test_p25_towing_reduction_waived_for_a_tower_above_the_minimum():
    """The Sd.Kfz. 7 tows size D: the 88 is D, so the factor of a half-track applies (x1);
    the Sd.Kfz. 10 (tow B) towing a size A PaK 36 is above the minimum (p25 note)."""
    game = new()
    st = game.state
    from kriegsspiel.rulesets.panzerfaust.game import towing

    assert towing.tow_factor(st, st.elements["g-ht7"])[0] == 1.0
    st.elements["g-pak36"].limbered = True  # a state query only: not folded into the game
    st.elements["g-pak36"].tower, st.elements["g-ht10"].towing = "g-ht10", "g-pak36"
    k, why = towing.tow_factor(st, st.elements["g-ht10"])
    assert k == 1.0 and "tow class B above size A" in why


def test_p33_man_handling_rates_and_terrain():
    game = new()
    st = game.state
    end_phase_d(game)
    refused(game, {"type": "move", "unit": "g-pak40", "path": [[10, 127]]},
            "at most 2.5 cm a turn", "path")  # fmt: skip
    refused(game, {"type": "move", "unit": "g-pak36", "path": [[40, 94.5]]},
            "at most 5 cm a turn")  # fmt: skip
    refused(game, {"type": "move", "unit": "g-pak36", "path": [[40, 96]]}, "through a hedge")
    refused(game, {"type": "move", "unit": "g-pak36", "path": [[44.5, 100]]}, "through woods")
    refused(game, {"type": "move", "unit": "g-lefh", "path": [[100, 137]]}, "is limbered")
    act(game, "g-pl-d", {"type": "move", "unit": "g-pak40", "path": [[10, 127.5]]})
    act(game, "g-pl-a", {"type": "move", "unit": "g-pak36", "path": [[35, 100]]})
    assert (st.elements["g-pak36"].x, st.elements["g-pak40"].y) == (35.0, 127.5)
    advance(game, "G", 1)
    assert "g-pak36" not in st.fire_order and "g-pak40" not in st.fire_order  # p33


def test_size_c_and_d_guns_cannot_be_man_handled(tmp_path: Path):
    text = TOWING.read_text().replace(", limbered: true, tower: g-opel", "")
    path = tmp_path / "free.yaml"
    path.write_text(text)
    game = Game(load_scenario(path), seed=1)
    end_phase_d(game)
    refused(game, {"type": "move", "unit": "g-lefh", "path": [[100, 137]]},
            "too heavy to man-handle")  # fmt: skip


def test_limber_refusals():
    game = new()
    end_phase_d(game)
    refused(game, {"type": "limber", "unit": "g-pak40", "tower": "g-ht10"}, "over 5 cm", "tower")
    refused(game, {"type": "limber", "unit": "g-pak40", "tower": "b-tk-1"},
            "not a vehicle of yours", "tower")  # fmt: skip
    refused(game, {"type": "limber", "unit": "g-lefh", "tower": "g-opel"}, "already limbered")
    refused(game, {"type": "unlimber", "unit": "g-pak40"}, "not limbered")
    refused(game, {"type": "limber", "unit": "g-ht10", "tower": "g-ht10b"}, "not a towed gun")
    refused(game, {"type": "unlimber", "unit": "g-lefh", "limbered_fire": True},
            "not fired limbered", "limbered_fire")  # fmt: skip


def test_a_tower_that_moved_this_turn_cannot_limber():
    for seed in range(1, 60):  # a turn where the PaK 40's company has two pips
        game = new(seed)
        end_phase_d(game)
        if game.state.companies["g-d"].pips >= 2:
            break
    st = game.state
    while game.rules.active_sides(st) == ["britain"]:
        game.submit("britain", {"type": "end_platoon", "platoon": "b-tk"})
    game.submit("germany", {"type": "move", "unit": "g-ht10b", "path": [[13, 130]]})
    refused(game, {"type": "limber", "unit": "g-pak40", "tower": "g-ht10b"},
            "has moved this turn", "tower")  # fmt: skip


def test_p34_88_flak_fires_limbered_after_one_move_then_unlimbers_in_two_more():
    game = new()
    st = game.state
    end_phase_d(game)
    act(game, "g-flak", {"type": "unlimber", "unit": "g-88", "limbered_fire": True})
    advance(game, "G", 1)
    gun = st.elements["g-88"]
    assert gun.has("set_up") and gun.limbered and gun.fires_from == 2
    assert "g-88" not in st.fire_order  # one whole move of set-up: fires from turn 2 (P276)
    advance(game, "F", 2)
    refused(game, {"type": "move", "unit": "g-ht7", "path": [[150, 120]]}, "set up to fire")
    act(game, "g-flak", {"type": "unlimber", "unit": "g-88"})
    ev = [e for e in game.events if e.type == "tow_job"][-1]
    assert ev.data["moves"] == "2" and ev.data["done"] == 3  # 3 moves for size D, 1 spent
    advance(game, "G", 2)
    assert "g-88" not in st.fire_order  # unlimbering
    advance(game, "G", 3)
    assert not gun.limbered and "g-88" not in st.fire_order and gun.fires_from == 4
    advance(game, "G", 4)
    assert "g-88" in st.fire_order


def test_a_gun_set_up_for_limbered_fire_fires_without_the_second_shot_bonus():
    game = new()
    st = game.state
    gun = st.elements["g-88"]
    gun.counters["set_up"] = 1  # a query on the state: set up and limbered
    from kriegsspiel.rulesets.panzerfaust.game import towing

    assert towing.firing_limbered(gun) and towing.why_no_fire(st, gun) is None
    gun.counters.pop("set_up")
    assert "is limbered" in towing.why_no_fire(st, gun)


def test_option_unlimbered_fire_same_turn_and_limbered_fire_none():
    game = new(unlimbered_fire="same_turn")
    st = game.state
    end_phase_d(game)
    act(game, "g-flak", {"type": "unlimber", "unit": "g-88", "limbered_fire": True})
    advance(game, "G", 1)
    assert "g-88" in st.fire_order
    game = new(limbered_fire="none")
    end_phase_d(game)
    refused(game, {"type": "unlimber", "unit": "g-88", "limbered_fire": True},
            "not fired limbered")  # fmt: skip
    game = new(unlimbered_fire="next_turn")
    end_phase_d(game)
    act(game, "g-pl-a", {"type": "limber", "unit": "g-pak36", "tower": "g-ht10"})
    advance(game, "F", 2)
    act(game, "g-pl-a", {"type": "unlimber", "unit": "g-pak36"})
    advance(game, "G", 2)
    assert "g-pak36" not in game.state.fire_order and game.state.elements["g-pak36"].fires_from == 3


def test_p33_a_tower_destroyed_takes_its_limbered_gun_and_the_other_way_round():
    game = new()
    st = game.state
    fold(game, None, [Draft("volley", {"results": [{"target": "g-opel", "result": "destroyed"}]})])
    assert st.elements["g-lefh"].lost
    assert ["g-how", 2] in st.phase_data["morale"]
    fold(game, None, [Draft("volley", {"results": [{"target": "g-88", "result": "destroyed"}]})])
    assert st.elements["g-ht7"].lost
    assert any(m.kind == "wreck" for m in st.markers.values())


def test_views_show_the_link_to_its_side_and_only_observed_pieces_to_the_enemy():
    game = new()
    own = {u["id"]: u for u in game.view("germany")["units"]}
    assert own["g-lefh"]["tower"] == "g-opel" and own["g-opel"]["towing"] == "g-lefh"
    st = game.state
    enemy = game.view("britain")
    ids = {p["id"] for p in enemy["enemies"]}
    for p in enemy["enemies"]:
        if "tow_link" in p:
            assert p["tow_link"] in ids
    assert "g-lefh" not in str(enemy) and "g-opel" not in str(enemy)
    # Britain observing the gun but not its tower sees a limbered gun, no link
    st.seen["britain"] = ["g-lefh"]
    from kriegsspiel.rulesets.panzerfaust.game.view import enemy_piece

    piece = enemy_piece(st, "britain", st.elements["g-lefh"])
    assert piece["limbered"] is True and "tow_link" not in piece
    st.seen["britain"] = ["g-lefh", "g-opel"]
    piece = enemy_piece(st, "britain", st.elements["g-lefh"])
    assert piece["tow_link"] == st.aliases.alias("britain", "g-opel")


def test_p33_no_man_handling_on_a_muddy_day(tmp_path: Path):
    text = TOWING.read_text() + (
        "options:\n  pregame: {battle_type: attack-defence, season: autumn, weather: [mud], "
        "wind: none}\n"
    )
    path = tmp_path / "mud.yaml"
    path.write_text(text)
    game = Game(load_scenario(path), seed=1)
    advance(game, "F", 1)
    refused(game, {"type": "move", "unit": "g-pak36", "path": [[40, 102]]}, "through mud")
