"""Reassigning a counter-battery battery to normal fire (p37: a five-move delay; decision
P313), through the game: a secret phase A order, CBF refused from then on, normal fire
missions refused until five turns later and accepted after."""

from __future__ import annotations

import json

import pytest

from kriegsspiel.engine import Game, IllegalCommand
from kriegsspiel.engine.scenario import Scenario
from kriegsspiel.rulesets.panzerfaust.game import counter_battery

from .test_artillery import B_BTY, CBF, events, scenario
from .test_support import advance, told


def _game() -> Game:
    raw = scenario(germany={"batteries": [CBF], "listening_post": True},
                   britain={"batteries": [B_BTY]}).model_dump(exclude_none=True)  # fmt: skip
    raw["victory"]["turn_limit"] = 8
    return Game(Scenario.model_validate(raw), seed=4)


def test_p37_a_cbf_battery_takes_no_fire_mission_until_reassigned():
    g = _game()
    with pytest.raises(IllegalCommand, match="write `reassign_battery`"):
        g.submit("germany", {"type": "fire_mission", "battery": "g-cbf", "x": 60, "y": 60})
    assert {"type": "reassign_battery", "battery": "g-cbf"} in g.legal_commands("germany")
    assert not [c for c in g.legal_commands("germany") if c["type"] == "fire_mission"]


def test_p37_a_reassigned_battery_fires_normally_five_turns_later_and_no_more_cbf():
    g = _game()
    n = len(g.events)
    g.submit("germany", {"type": "reassign_battery", "battery": "g-cbf"})
    (order,) = [e for e in g.events[n:] if e.type == "fire_order"]
    assert order.visible_to == ("germany",)  # written in secret
    assert any("from turn 6" in x and "p37" in x for x in order.explanation)
    assert not [e for e in told(g, "britain", n) if "g-cbf" in json.dumps(e.data)]
    mine = g.view("germany")["panzerfaust"]["support"]["batteries"][0]
    assert mine["reassigned"] == 1 and mine["counter_battery"] is False
    with pytest.raises(IllegalCommand, match="reassigned to normal fire in turn 1"):
        g.submit("germany", {"type": "reassign_battery", "battery": "g-cbf"})
    advance(g, "E", 2)  # the British battery fired in turns 1 and 2: the post located it
    (loc,) = g.view("germany")["panzerfaust"]["support"]["listening_post"]["located"]
    assert loc["seen"] == 2 and not counter_battery.legal(g.state, "germany")
    with pytest.raises(IllegalCommand, match="fires no more counter-battery fire"):
        counter_battery.resolve(g.state, "germany", {"battery": "g-cbf",
                                                     "target": loc["target"]}, None)  # fmt: skip
    advance(g, "A", 5)
    with pytest.raises(IllegalCommand, match="normal fire from turn 6"):
        g.submit("germany", {"type": "fire_mission", "battery": "g-cbf", "x": 60, "y": 60})
    advance(g, "A", 6)
    assert g.state.turn == 6
    g.submit("germany", {"type": "fire_mission", "battery": "g-cbf", "x": 60, "y": 60})
    assert events(g, "fire_order")[-1].data["orders"]["kind"] == "fire"


def test_p37_a_battery_is_never_assigned_to_cbf_during_the_game():
    g = _game()
    with pytest.raises(IllegalCommand, match="only before the game"):
        g.submit("britain", {"type": "reassign_battery", "battery": "b-bty"})
