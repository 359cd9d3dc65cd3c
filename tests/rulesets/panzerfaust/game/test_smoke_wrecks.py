"""Smoke and WP laid by direct fire (pp. 32-33; decisions P190-P191) and wrecks blocking
sight (p8; decision P192), played through the Panzerfaust game."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand
from kriegsspiel.engine.events import Draft
from kriegsspiel.rulesets.panzerfaust.game import area, sight, smoke, wrecks

from .conftest import Dice, fold, settle, skirmish, to_fire
from .test_worked_examples import _duel_to_fire


def _next_turn(game: Game, n: int) -> None:
    """The turn starts (its phase A begins): smoke fired before it forms or goes."""
    fold(game, None, [Draft("phase", {"turn": n, "phase": "A"})])


def _markers(game: Game, side: str) -> list[dict]:
    return game.view(side)["panzerfaust"]["markers"]


def test_p33_smoke_forms_next_turn_blocks_sight_and_lasts_three_turns_without_wind():
    game = Game(skirmish(), seed=7)
    to_fire(game, "g-pak")
    st = game.state
    cmd = {"type": "smoke", "unit": "g-pak", "x": 95.0, "y": 24.0, "wp": False}
    assert cmd in game.legal_commands("germany")  # offered on the enemy it observes
    assert "b-inf-2" in st.seen["germany"]
    # 75 mm at 60 cm: 3D6 3 is under any to-hit number
    drafts = game.rules.resolve(st, "germany", cmd, Dice(1, 1, 1))
    (fired,) = drafts
    assert fired.type == "smoke_fired" and fired.visible_to == ("germany",)
    assert any("3D6" in line or "3d6" in line for line in fired.explanation)
    assert any("turn 2 to 4" in line and "(p33)" in line for line in fired.explanation)
    fold(game, "germany", drafts)
    (cloud,) = [m for m in st.markers.values() if m.kind == "smoke"]
    assert cloud.radius == 6  # 65-76 mm: BZR 6 cm (p32)
    assert [m["kind"] for m in _markers(game, "germany")].count("smoke") == 1
    assert all(m["kind"] != "smoke" for m in _markers(game, "britain"))  # not yet formed
    assert sight.clear(st, (118.0, 84.0), (95.0, 24.0))  # it does not block this turn
    _next_turn(game, 2)
    assert [m["kind"] for m in _markers(game, "britain")].count("smoke") == 1  # public now
    assert not sight.clear(st, (118.0, 84.0), (95.0, 24.0))  # into the cloud: blocked
    assert not sight.clear(st, (95.0, 40.0), (95.0, 5.0))  # across it: blocked
    assert sight.clear(st, (118.0, 84.0), (140.0, 20.0))  # beside it: clear
    assert not any(
        "b-inf-2" in seen for o, seen in st.spotted.items() if st.elements[o].side == "germany"
    )
    _next_turn(game, 4)
    assert smoke.clouds(st)  # no wind: three turns, 2-4 (p33)
    _next_turn(game, 5)
    assert not smoke.clouds(st) and not any(m.kind == "smoke" for m in st.markers.values())


def test_p33_a_failed_smoke_roll_lays_nothing():
    game = Game(skirmish(), seed=7)
    to_fire(game, "g-pak")
    cmd = {"type": "smoke", "unit": "g-pak", "x": 95.0, "y": 24.0}
    drafts = game.rules.resolve(game.state, "germany", cmd, Dice(6, 6, 6))
    assert drafts[0].data["placed"] is False and "marker" not in drafts[0].data
    assert any("misses" in line for line in drafts[0].explanation)
    fold(game, "germany", drafts)
    assert not any(m.kind == "smoke" for m in game.state.markers.values())
    assert game.state.elements["g-pak"].fired


def test_p33_light_wind_two_turns_spreading_downwind_from_the_second():
    game = Game(skirmish(), seed=7)
    to_fire(game, "g-pak")
    st = game.state
    st.pregame = {"weather": {"wind": "light", "wind_direction": "W"}}  # from the west (P191)
    cmd = {"type": "smoke", "unit": "g-pak", "x": 95.0, "y": 24.0}
    fold(game, "germany", game.rules.resolve(st, "germany", cmd, Dice(1, 1, 1)))
    (cloud,) = [m for m in st.markers.values() if m.kind == "smoke"]
    assert (cloud.data["until"], cloud.data["drift"], cloud.data["heading"]) == (3, 5, 90.0)
    _next_turn(game, 2)
    assert smoke.spread(cloud, 2) == (95.0, 24.0)  # laid: no spread yet
    assert sight.clear(st, (105.0, 40.0), (105.0, 5.0))  # 10 cm east of the centre: clear
    _next_turn(game, 3)
    assert smoke.spread(cloud, 3) == (100.0, 24.0) and cloud.data["to"] == [100.0, 24.0]
    assert not sight.clear(st, (105.0, 40.0), (105.0, 5.0))  # spread 5 cm east: blocked
    _next_turn(game, 4)
    assert not smoke.clouds(st)


def test_p33_no_smoke_in_a_gale_refused_with_its_reason():
    game = Game(skirmish(), seed=7)
    to_fire(game, "g-pak")
    game.state.pregame = {"weather": {"wind": "gale", "wind_direction": "N"}}
    assert not [c for c in game.legal_commands("germany") if c["type"] == "smoke"]
    with pytest.raises(IllegalCommand, match="gale wind smoke disperses at once"):
        game.submit("germany", {"type": "smoke", "unit": "g-pak", "x": 95.0, "y": 24.0})


def test_p33_smoke_refusals_name_what_is_wrong():
    game = Game(skirmish(), seed=7)
    to_fire(game, "g-pak")
    with pytest.raises(IllegalCommand, match="no WP rounds"):  # German guns had none
        game.submit("germany", {"type": "smoke", "unit": "g-pak", "x": 95, "y": 24, "wp": True})
    with pytest.raises(IllegalCommand, match="off the table"):
        game.submit("germany", {"type": "smoke", "unit": "g-pak", "x": 95, "y": -5})
    with pytest.raises(IllegalCommand, match="inside its own beaten zone"):
        game.submit("germany", {"type": "smoke", "unit": "g-pak", "x": 118, "y": 80})
    with pytest.raises(IllegalCommand, match="not that element's turn"):
        game.submit("germany", {"type": "smoke", "unit": "g-pz-1", "x": 95, "y": 24})


def test_p33_wp_rolls_against_every_enemy_soft_element_in_the_zone():
    game = Game(skirmish(), seed=7)
    to_fire(game, "b-tk-1")
    st = game.state
    cmd = {"type": "smoke", "unit": "b-tk-1", "x": 95.0, "y": 96.0, "wp": True}
    assert cmd in game.legal_commands("britain")
    # placed (3D6 3), then g-inf-1 (95, 96) rolls 1+1+1: destroyed; g-inf-2 (105, 96) is
    # 10 cm away, outside the 6 cm zone
    drafts = game.rules.resolve(st, "britain", cmd, Dice(1, 1, 1, 1, 1, 1))
    fired, hits = drafts[0], drafts[1]
    assert fired.data["placed"] and fired.data["wp"]
    assert hits.type == "area_hits" and hits.visible_to == ()
    assert [(r["target"], r["result"]) for r in hits.data["results"]] == [("g-inf-1", "destroyed")]
    told = [d for d in drafts if d.type == "shot_at"]
    assert [d.visible_to for d in told] == [("germany",)]
    assert any("WP" in line and "-2" in line for line in told[0].explanation)
    fold(game, "britain", drafts)
    if st.fire_order[st.fire_step] == "b-tk-2":  # it fires with b-tk-1: results land together
        fold(game, "britain", [Draft("hold", {"unit": "b-tk-2"})])
    settle(game, Dice(*[3] * 20))
    assert st.elements["g-inf-1"].lost
    (cloud,) = [m for m in st.markers.values() if m.kind == "smoke"]
    assert (cloud.data["from_turn"], cloud.data["until"]) == (2, 3)  # WP, no wind: 2 turns (p33)


def test_p8_a_destroyed_tank_leaves_a_wreck_that_blocks_sight():
    game = _duel_to_fire()
    st = game.state
    alias = st.aliases.alias("germany", "b-tk-1")
    cmd = {"type": "fire", "unit": "g-pak", "target": alias, "at": 8.0}
    fold(game, "germany", game.rules.resolve(st, "germany", cmd, Dice(1, 1, 1, 3, 1, 6, 6)))
    settle(game, Dice(*[3] * 20))
    (wreck,) = [m for m in st.markers.values() if m.kind == "wreck"]
    assert "b-tk-1" not in wreck.id  # the marker does not name the element
    assert (wreck.x, wreck.y, wreck.radius) == (74.0, 40.0, 2.5)  # Cromwell: size C
    assert sorted(wreck.visible_to) == ["britain", "germany"]  # the PaK saw it
    assert not sight.clear(st, (74.0, 60.0), (74.0, 20.0))  # across the wreck: blocked
    assert sight.clear(st, (74.0, 60.0), (74.0, 41.0))  # against the wreck: sees past it
    assert sight.clear(st, (80.0, 60.0), (80.0, 20.0))  # beside it: clear
    assert any(m["kind"] == "wreck" for m in _markers(game, "germany"))


def test_p8_a_wreck_nobody_saw_is_known_only_to_its_side_until_observed():
    game = Game(skirmish(), seed=7)
    st = game.state
    tank = st.elements["b-tk-2"]
    st.seen["germany"] = []
    st.last_seen["germany"] = {}
    tank.lost = True
    wrecks.leave(st, tank)
    (wreck,) = [m for m in st.markers.values() if m.kind == "wreck"]
    assert wreck.visible_to == ["britain"]
    assert not any(m["kind"] == "wreck" for m in _markers(game, "germany"))
    sight.look(st)  # the German line observes the open ground it stands on
    assert wreck.visible_to == ["britain", "germany"]


def test_p32_he_at_a_target_inside_smoke_rolls_with_minus_one():
    game = Game(skirmish(), seed=7)
    to_fire(game, "g-pak")
    st = game.state
    cmd = {"type": "smoke", "unit": "g-pak", "x": 95.0, "y": 24.0}
    fold(game, "germany", game.rules.resolve(st, "germany", cmd, Dice(1, 1, 1)))
    pak = st.elements["g-pak"]
    ((_, _, before),) = area.fire(st, pak, (95.0, 24.0), Dice(3, 3, 3))
    assert not any("in smoke" in line for line in before.lines())  # not formed yet
    _next_turn(game, 2)
    ((t, _, res),) = area.fire(st, pak, (95.0, 24.0), Dice(3, 3, 3))
    assert t.id == "b-inf-2" and any("target in smoke" in line for line in res.lines())
