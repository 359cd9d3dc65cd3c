"""A gun towed by a vehicle its notes name though too small for the crew (p34 special cases;
the US 57mm M1 and 75mm pack howitzer behind a jeep, p94; decision P332), through the real
engine: the tow is allowed, the tower waits until the crew rides in a second vehicle, and a
gun without such a note is still refused by tow class."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario

from .conftest import HERE, advance, end_phase_d


def new(seed: int = 1) -> Game:
    return Game(load_scenario(HERE / "small_tow.yaml"), seed=seed)


def _germany_waits(game: Game) -> None:
    while game.rules.active_sides(game.state) == ["germany"]:
        end = next(c for c in game.legal_commands("germany") if c["type"] == "end_platoon")
        game.submit("germany", end)


def order(game: Game, cmd: dict) -> None:
    _germany_waits(game)
    game.state.companies["u-a"].pips = 6  # the pips' roll is not tested (so no replay check)
    game.submit("usa", cmd)


def test_p34_a_jeep_tows_the_57mm_once_the_crew_rides_in_a_second_vehicle():
    game = new()
    st = game.state
    gun, jeep = st.elements["u-57"], st.elements["u-jeep"]
    end_phase_d(game)
    order(game, {"type": "limber", "unit": "u-57", "tower": "u-jeep"})
    ev = [e for e in game.events if e.type == "tow_job"][-1]
    assert any("crew rides in a second vehicle" in line and "P332" in line
               for line in ev.explanation)  # fmt: skip
    advance(game, "F", 2)
    assert gun.limbered and gun.tower == "u-jeep"
    _germany_waits(game)
    with pytest.raises(IllegalCommand, match="too small to carry .* crew"):
        game.submit("usa", {"type": "move", "unit": "u-jeep", "path": [[60, 90]]})
    order(game, {"type": "embark", "unit": "u-57", "vehicle": "u-truck"})
    assert gun.crew_in == "u-truck"
    order(game, {"type": "move", "unit": "u-jeep", "path": [[60, 95]]})
    assert (jeep.x, jeep.y) == (60.0, 95.0) and gun.moved == jeep.moved


def test_p34_a_gun_whose_notes_name_no_small_tower_is_refused_by_tow_class():
    game = new()
    end_phase_d(game)
    _germany_waits(game)
    with pytest.raises(IllegalCommand, match="tows guns up to size A") as err:
        game.submit("usa", {"type": "limber", "unit": "u-76", "tower": "u-jeep2"})
    assert err.value.field == "tower"
