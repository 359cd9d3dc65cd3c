"""Worked example #8 (p17): small arms at a softskin; casualties of half its capacity destroy
it, loaded or empty, and the passengers still alive get down beside it at once."""

from __future__ import annotations

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.events import Draft
from kriegsspiel.rulesets.panzerfaust.game import orders_fire

from .conftest import HERE, Dice, fold, to_fire


def _to_rifle() -> Game:
    game = Game(load_scenario(HERE / "sidecar.yaml"), seed=5)
    to_fire(game, "b-rifle")
    return game


def test_p17_small_arms_fire_at_a_loaded_softskin_is_offered_and_explained():
    game = _to_rifle()
    st = game.state
    alias = st.aliases.alias("britain", "g-bike")
    cmd = {"type": "fire", "unit": "b-rifle", "target": alias}
    assert cmd in game.legal_commands("britain")
    drafts = game.rules.resolve(st, "britain", cmd, Dice(*[1] * 10))
    shot = drafts[0]
    assert shot.data["result"].startswith("lost_")
    assert any("softskin" in line for line in shot.explanation)  # +1 row, p16-17
    odds = orders_fire.odds(st, "britain", cmd)
    assert abs(sum(odds["outcomes"].values()) - 1) < 1e-9


def test_p17_example_8_capacity_two_one_team_lost_destroyed_survivor_gets_down():
    game = _to_rifle()
    st = game.state
    bike = st.elements["g-bike"]
    assert bike.carrying == ["g-lmg-1", "g-lmg-2"]
    fold(game, None, [Draft("volley", {"results": [{"target": "g-bike", "result": "lost_1"}]})])
    assert st.elements["g-lmg-1"].lost  # the team's worth of casualties
    assert bike.lost  # 1 >= 2 / 2: destroyed
    assert [(m.x, m.y) for m in st.markers.values() if m.kind == "wreck"] == [(90.0, 50.0)]
    survivor = st.elements["g-lmg-2"]
    assert not survivor.lost and survivor.transport is None and survivor.on_table
    assert (survivor.x, survivor.y) == (90.0, 46.0)  # beside it, behind (riders.BEHIND)
    assert st.phase_data["morale"] == [["g-krad", 2]]


def test_p17_no_casualty_leaves_the_softskin_and_its_passengers_as_they_were():
    game = _to_rifle()
    st = game.state
    fold(game, None, [Draft("volley", {"results": [{"target": "g-bike", "result": "lost_0"}]})])
    assert not st.elements["g-bike"].lost and len(st.elements["g-bike"].carrying) == 2
