"""Guns moved other ways than a plain tow, through the real engine (game/towing.py): carried
en portee (p34, P315), a crew riding apart from its gun (p34, P316) and horse teams (pp. 13,
25, 35, P317): orders, times, firing, refusals, falling together, views and replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.engine.events import Draft
from kriegsspiel.rulesets.panzerfaust.game import towing

from .conftest import HERE, advance, end_phase_d, fold

CARRIED = HERE / "guns_carried.yaml"


def new(seed: int = 1, **options) -> Game:
    return Game(load_scenario(CARRIED), seed=seed, options=options)


def _britain_waits(game: Game) -> None:
    st = game.state
    while game.rules.active_sides(st) == ["britain"]:
        end = next(c for c in game.legal_commands("britain") if c["type"] == "end_platoon")
        game.submit("britain", end)


def act(game: Game, platoon: str, *cmds: dict, end: bool = True, pips: int | None = None) -> None:
    """In phase F: when Germany may move a platoon, give `platoon` these orders (and end it);
    `pips` scripts the company's pips (their roll is not what is tested; no replay then)."""
    _britain_waits(game)
    if pips is not None:
        game.state.companies[game.state.platoons[platoon].company].pips = pips
    for c in cmds:
        game.submit("germany", c)
    if end:
        game.submit("germany", {"type": "end_platoon", "platoon": platoon})


def refused(game: Game, cmd: dict, reason: str, field: str | None = None) -> None:
    _britain_waits(game)
    before, n = game.state_hash(), len(game.events)
    with pytest.raises(IllegalCommand, match=reason) as err:
        game.submit("germany", cmd)
    if field is not None:
        assert err.value.field == field
    assert game.state_hash() == before and len(game.events) == n


# ----------------------------------------------------------------------------- en portee
def test_p34_a_portee_gun_rides_on_its_truck_and_fires_from_it():
    game = new()
    st = game.state
    gun, truck = st.elements["g-pak36"], st.elements["g-truck"]
    assert gun.portee and gun.limbered and (gun.x, gun.y) == (truck.x, truck.y)
    end_phase_d(game)
    advance(game, "G", 1)
    assert "g-pak36" in st.fire_order  # fired from the truck, no set-up (P315)
    assert towing.firing_limbered(gun)  # no second-shot bonus (p34)
    # turn 2: the truck drives 15 cm off-road: carried, not towed (no x1/4), and over half
    # its 25 cm move, so the gun does not fire this turn (p6)
    advance(game, "F", 2)
    refused(game, {"type": "move", "unit": "g-pak36", "path": [[40, 95]]}, "carried en portee")
    act(game, "g-port", {"type": "move", "unit": "g-truck", "path": [[40, 89]]})
    assert (gun.x, gun.y) == (40.0, 89.0) and gun.moved == truck.moved == 15.0
    ev = [e for e in game.events if e.type == "move"][-1]
    assert not any("x0.25" in line for line in ev.explanation)
    advance(game, "G", 2)
    assert "g-pak36" not in st.fire_order
    assert "moved over half its move" in towing.why_no_fire(st, gun)
    assert game.replay().state_hash() == game.state_hash()


def test_p34_loading_and_unloading_take_the_size_time_plus_one_move():
    game = new()
    st = game.state
    end_phase_d(game)
    gun, truck = st.elements["g-pak38"], st.elements["g-truck2"]
    act(game, "g-port",
        {"type": "limber", "unit": "g-pak38", "tower": "g-truck2", "portee": True})  # fmt: skip
    ev = [e for e in game.events if e.type == "tow_job"][-1]
    assert ev.data["kind"] == "load" and ev.data["moves"] == "2" and ev.data["done"] == 2
    assert any("medium truck or heavier" in line for line in ev.explanation)
    assert list(ev.visible_to) == ["germany"]
    advance(game, "G", 1)
    assert not gun.portee and "g-pak38" not in st.fire_order  # loading: no fire (p33)
    advance(game, "G", 2)
    assert gun.portee and gun.limbered and (gun.x, gun.y) == (truck.x, truck.y)
    assert "g-pak38" in st.fire_order
    # unloading: 1 + 1 moves again; the gun then stands behind the truck, unlimbered
    advance(game, "F", 3)
    act(game, "g-port", {"type": "unlimber", "unit": "g-pak38"})
    ev = [e for e in game.events if e.type == "tow_job"][-1]
    assert ev.data["kind"] == "unload" and ev.data["moves"] == "2"
    advance(game, "G", 4)
    assert not gun.portee and not gun.limbered and gun.tower is None and truck.towing is None
    assert (gun.x, gun.y) == (60.0, 108.0)  # 4 cm behind a truck facing south
    assert game.replay().state_hash() == game.state_hash()


def test_p34_portee_refusals():
    game = new()
    end_phase_d(game)
    refused(game, {"type": "limber", "unit": "g-pak40", "tower": "g-truck3", "portee": True},
            "not carried en portee: its gun notes", "tower")  # fmt: skip
    refused(game, {"type": "unlimber", "unit": "g-pak36", "limbered_fire": True},
            "fires from its truck", "limbered_fire")  # fmt: skip
    refused(game, {"type": "limber", "unit": "g-pak38", "tower": "g-truck", "portee": True},
            "already carries or tows", "tower")  # fmt: skip
    # the move templates offer loading only where the notes allow it
    _britain_waits(game)
    legal = game.legal_commands("germany")
    load = {"type": "limber", "unit": "g-pak38", "tower": "g-truck2", "portee": True}
    assert load | {"facing": "rear"} in legal  # the PaK 38 rides facing rear (p65 notes)
    assert load | {"facing": "front"} not in legal
    assert not any(c.get("portee") and c["unit"] == "g-pak40" for c in legal)


def test_p34_a_portee_gun_faces_and_bears_the_way_its_notes_say():
    game = new()
    st = game.state
    gun, truck = st.elements["g-pak38"], st.elements["g-truck2"]
    end_phase_d(game)
    refused(game, {"type": "limber", "unit": "g-pak38", "tower": "g-truck2", "portee": True,
                   "facing": "front"}, "face rear on its truck, not front", "facing")  # fmt: skip
    act(game, "g-port", {"type": "limber", "unit": "g-pak38", "tower": "g-truck2",
                         "portee": True}, pips=6)  # fmt: skip
    ev = [e for e in game.events if e.type == "tow_job"][-1]
    assert ev.data["facing"] == "rear" and any(
        "facing the rear (P331)" in x for x in ev.explanation
    )
    advance(game, "G", 3)
    assert gun.portee and gun.portee_facing == "rear"
    assert gun.facing == (truck.facing + 180) % 360 == 0.0  # the truck faces south (180)
    # the truck's rear is north (+y): the gun bears there, not over the cab
    assert towing.why_not_bearing(st, gun, (60, 140)) is None
    assert "faces the rear of its portee truck" in towing.why_not_bearing(st, gun, (60, 60))
    # the PaK 35/36 (front or rear, p65) was placed on its truck: its notes' first way, front
    pak36 = st.elements["g-pak36"]
    assert towing.portee_facing(st, pak36) == "front"
    assert towing.why_not_bearing(st, pak36, (40, 60)) is None
    assert towing.why_not_bearing(st, pak36, (40, 140)) is not None
    # direct fire asks the same question: the Cromwell behind the PaK 35/36's truck is refused
    from kriegsspiel.rulesets.panzerfaust.game import orders_fire

    tank = st.elements["b-tk-1"]
    assert "bears only that way" in orders_fire._can_hit(st, pak36, tank, (40, 140))
    # unloaded, it is a gun on the ground again, facing as it stands
    advance(game, "F", 4)
    act(game, "g-port", {"type": "unlimber", "unit": "g-pak38"}, pips=6)
    advance(game, "G", 5)
    assert not gun.portee and gun.portee_facing is None
    assert towing.why_not_bearing(st, gun, (60, 60)) is None


def test_p34_gun_and_truck_are_one_target():
    game = new()
    st = game.state
    fold(game, None, [Draft("volley", {"results": [{"target": "g-truck", "result": "destroyed"}]})])
    assert st.elements["g-pak36"].lost
    assert any(m.kind == "wreck" for m in st.markers.values())


def test_a_scenario_portee_gun_on_a_vehicle_that_cannot_carry_it_is_refused(tmp_path: Path):
    text = CARRIED.read_text().replace(
        "x: 40, y: 104, limbered: true, portee: true, tower: g-truck",
        "x: 40, y: 104, limbered: true, portee: true, tower: g-bike",
    )
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match="no truck or half-track"):
        Game(load_scenario(path), seed=1)


def test_views_show_the_portee_gun_to_its_side_and_riding_to_an_observer():
    game = new()
    st = game.state
    mine = next(u for u in game.view("germany")["units"] if u["id"] == "g-pak36")
    assert mine["portee"] is True and mine["tower"] == "g-truck"
    st.seen["britain"] = ["g-pak36"]  # a query on the state: the British see the gun alone
    from kriegsspiel.rulesets.panzerfaust.game.view import enemy_piece

    seen = enemy_piece(st, "britain", st.elements["g-pak36"])
    assert seen["portee"] is True and "tow_link" not in seen


# ----------------------------------------------------------------------------- crew apart
def test_p34_a_gun_whose_crew_rides_apart_cannot_unlimber_or_fire_until_they_meet():
    game = new()
    st = game.state
    gun = st.elements["g-lefh"]
    assert gun.crew_in == "g-lorry"
    end_phase_d(game)
    refused(game, {"type": "unlimber", "unit": "g-lefh"}, "crew rides apart", "unit")
    refused(game, {"type": "dismount", "unit": "g-lefh"}, "over 5 cm from the gun", "unit")
    # the crew's lorry pulls up beside the gun; the crew gets down (1 pip each order)
    spent = st.companies["g-b"].spent
    act(game, "g-how", {"type": "move", "unit": "g-lorry", "path": [[123, 140]]},
        {"type": "dismount", "unit": "g-lefh"}, end=False, pips=6)  # fmt: skip
    assert gun.crew_in is None and st.companies["g-b"].spent == spent + 2
    ev = [e for e in game.events if e.type == "crew_joins"][-1]
    assert list(ev.visible_to) == ["germany"]
    game.submit("germany", {"type": "end_platoon", "platoon": "g-how"})
    advance(game, "F", 2)
    act(game, "g-how", {"type": "unlimber", "unit": "g-lefh"})
    assert gun.job and gun.job["kind"] == "unlimber"


def test_p34_a_crew_boards_another_vehicle_within_its_room():
    game = new()
    st = game.state
    gun = st.elements["g-lefh"]
    gun.crew_in = None  # a query on the state: the crew is with its gun
    end_phase_d(game)
    refused(game, {"type": "embark", "unit": "g-lefh", "vehicle": "g-bike"},
            "room for 2 teams; .* crew is 3", "vehicle")  # fmt: skip
    refused(game, {"type": "embark", "unit": "g-lefh", "vehicle": "g-tow"},
            "already rides with its tower", "vehicle")  # fmt: skip
    act(game, "g-how", {"type": "move", "unit": "g-lorry", "path": [[122, 141]]},
        {"type": "embark", "unit": "g-lefh", "vehicle": "g-lorry"}, pips=6)  # fmt: skip
    ev = [e for e in game.events if e.type == "crew_parts"][-1]
    assert gun.crew_in == "g-lorry"
    assert any("capacity is lost" in line for line in ev.explanation)
    advance(game, "G", 1)
    assert "g-lefh" not in st.fire_order


def test_p34_the_crews_vehicle_destroyed_abandons_the_gun():
    game = new()
    st = game.state
    fold(game, None, [Draft("volley", {"results": [{"target": "g-lorry", "result": "destroyed"}]})])
    assert st.elements["g-lefh"].lost and not st.elements["g-tow"].lost


# ----------------------------------------------------------------------------- horse teams
def test_p35_a_horse_drawn_gun_needs_a_horse_team(tmp_path: Path):
    text = CARRIED.read_text().replace("tower: g-horse}", "tower: g-truck3}")
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match="drawn only by a horse team"):
        Game(load_scenario(path), seed=1)


def test_p13_a_horse_team_moves_5_cm_cross_country_with_its_gun():
    game = new()
    st = game.state
    end_phase_d(game)
    refused(game, {"type": "move", "unit": "g-horse", "path": [[160, 128]]},
            "moves at most 5 cm", "path")  # fmt: skip
    act(game, "g-horse-pl", {"type": "move", "unit": "g-horse", "path": [[165, 134]]})
    ev = [e for e in game.events if e.type == "move"][-1]
    assert any("horse-team rates include the gun" in line for line in ev.explanation)
    gun = st.elements["g-fk18"]
    assert gun.moved == 5.0 and gun.limbered


def test_option_horse_towing_p25_applies_the_4x2_towing_factor():
    game = new(horse_towing="p25")
    end_phase_d(game)
    refused(game, {"type": "move", "unit": "g-horse", "path": [[163, 134]]},
            "moves at most 1.25 cm", "path")  # fmt: skip


def test_p17_a_horse_team_is_fired_on_as_a_softskin_and_says_it_is_a_placeholder():
    game = new()
    st = game.state
    end_phase_d(game)
    advance(game, "G", 1)
    alias = st.aliases.alias("britain", "g-horse")
    while st.phase == "G" and st.turn == 1:
        firer = st.fire_order[st.fire_step]
        side = st.elements[firer].side
        if firer == "b-rifle":
            game.submit("britain", {"type": "fire", "unit": "b-rifle", "target": alias})
            break
        game.submit(side, {"type": "hold", "unit": firer})
    shot = [e for e in game.events if e.type == "shot"][-1]
    assert shot.data["unit"] == "b-rifle"
    assert any("placeholder used" in line and "P317" in line for line in shot.explanation)


def test_the_unit_card_says_how_the_gun_travels():
    game = new()
    st = game.state
    rows = dict(game.rules.unit_card(st, "germany", "g-pak36")["data"]["rows"])
    assert "carried en portee on g-truck" in rows["now"]
    rows = dict(game.rules.unit_card(st, "germany", "g-lefh")["data"]["rows"])
    assert "towed by g-tow" in rows["now"] and "crew rides apart, in g-lorry" in rows["now"]


def test_p34_the_guns_whose_notes_carry_them_en_portee():
    from kriegsspiel.rulesets import load

    cat = load("panzerfaust", overlays=())
    portee = {g.id: g.portee for g in cat.all("gun") if g.portee}
    assert len(portee) == 11  # pp. 50, 56, 65, 74 (P315)
    assert "15cwt" in portee["britain/40mm-l50-2-pdr"]
    assert "rear" in portee["germany/50mm-l60-pak-38"]
