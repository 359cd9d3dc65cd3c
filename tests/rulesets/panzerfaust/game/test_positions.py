"""Reoccupying an empty dug-in or camouflaged position (p9, p39, decision P318), played through
the engine: a team that leaves its foxhole leaves it empty for its side; another team of that
side moving into it takes its counters; what does not fit, and what the enemy is told."""

from __future__ import annotations

import copy

import yaml

from kriegsspiel.engine import Game
from kriegsspiel.engine.scenario import Scenario

from .conftest import HERE

RAW = yaml.safe_load((HERE / "fieldworks.yaml").read_text())


def _game(**flags) -> Game:
    raw = copy.deepcopy(RAW)
    for p in raw["forces"]["germany"]["companies"][0]["platoons"]:
        for t in p["teams"]:
            t.update(flags.get(t["id"], {}))
    return Game(Scenario.model_validate(raw), seed=1)


def _act(game: Game, side: str) -> None:
    st = game.state
    if st.phase == "F":
        end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
        game.submit(side, end)
    elif st.phase == "G":
        game.submit(side, {"type": "hold", "unit": st.fire_order[st.fire_step]})
    else:
        game.submit(side, {"type": "end_phase"})


def _to_orders(game: Game, turn: int) -> None:
    """Play on, doing nothing, until Germany may give phase F orders in `turn`; its pips are
    scripted (their roll is not what is tested)."""
    st = game.state
    while not (st.phase == "F" and "germany" in game.rules.active_sides(st) and st.turn == turn):
        _act(game, game.rules.active_sides(st)[0])
    st.companies["g-co"].pips = 6


def test_p9_p39_a_team_moving_into_an_empty_foxhole_takes_its_cover():
    game = _game(**{"g-inf-1": {"dug_in": True, "camouflaged": True}})
    st = game.state
    one, two = st.elements["g-inf-1"], st.elements["g-inf-2"]
    _to_orders(game, 1)
    game.submit("germany", {"type": "move", "unit": "g-inf-1", "path": [[40, 110]]})
    assert not one.has("dug_in") and not one.has("camouflaged")  # it left (p9, P265)
    (pos,) = st.positions.values()
    assert (pos["x"], pos["y"]) == (40, 115) and pos["counters"] == ["dug_in", "camouflaged"]
    # its own side is shown the empty position; the enemy is told nothing of it
    assert [p["counters"] for p in game.view("germany")["panzerfaust"]["positions"]] == [
        ["dug_in", "camouflaged"]
    ]
    assert game.view("britain")["panzerfaust"]["positions"] == []
    # another team of the platoon steps into it: dug in and camouflaged at once
    game.submit("germany", {"type": "move", "unit": "g-inf-2", "path": [[41, 115]]})
    assert two.has("dug_in") and two.has("camouflaged") and not st.positions
    ev = [e for e in game.events if e.type == "move"][-1]
    assert any("takes the empty dug in and camouflaged position" in line and "P318" in line
               for line in ev.explanation)  # fmt: skip
    assert list(ev.visible_to) == ["germany"]
    # later events of the turn leave it in the position it took
    game.submit("germany", {"type": "end_platoon", "platoon": "g-inf"})
    assert two.has("dug_in")
    # next turn: moving on leaves the position empty again, where it was
    _to_orders(game, 2)
    game.submit("germany", {"type": "move", "unit": "g-inf-2", "path": [[44, 115]]})
    assert not two.has("dug_in")
    (pos,) = st.positions.values()
    assert (pos["x"], pos["y"]) == (40, 115)


def test_p318_a_team_does_not_regain_the_position_it_just_left():
    game = _game(**{"g-inf-1": {"dug_in": True}})
    st = game.state
    _to_orders(game, 1)
    game.submit("germany", {"type": "move", "unit": "g-inf-1", "path": [[40, 113]]})
    assert not st.elements["g-inf-1"].has("dug_in") and len(st.positions) == 1


def test_p318_a_foxhole_takes_no_vehicle_and_a_position_nothing_larger():
    from kriegsspiel.rulesets.panzerfaust.game import fieldworks

    game = _game(**{"g-at-1": {"dug_in": True}, "g-pz-1": {"camouflaged": True}})
    st = game.state
    _to_orders(game, 1)
    game.submit("germany", {"type": "move", "unit": "g-at-1", "path": [[25, 70]]})
    game.submit("germany", {"type": "end_platoon", "platoon": "g-at"})
    while st.phase == "F" and game.rules.active_sides(st) == ["britain"]:
        _act(game, "britain")
    game.submit("germany", {"type": "move", "unit": "g-pz-1", "path": [[100, 100]]})
    foxhole, hide = (next(p for p in st.positions.values() if p["group"] == g)
                     for g in ("infantry", "vehicle"))  # fmt: skip
    assert foxhole["counters"] == ["dug_in"] and hide["counters"] == ["camouflaged"]
    assert hide["size"] == "C"
    pz, pak, rifle = (st.elements[u] for u in ("g-pz-1", "g-pak", "g-at-3"))
    assert not fieldworks.fits(st, pz, foxhole)  # a foxhole holds no vehicle
    assert not fieldworks.fits(st, pak, foxhole)  # nor a gun (size B > A)
    assert fieldworks.fits(st, rifle, foxhole)
    assert fieldworks.fits(st, rifle, hide) and fieldworks.fits(st, pak, hide)  # no larger
    assert not fieldworks.fits(st, pz, hide)  # the Pz IV that just left it (p9)
    assert not fieldworks.fits(st, st.elements["b-obs-1"], foxhole)  # the other side's
