"""Man-pack flamethrowers against AFVs (p21; decision P193) played through the game."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import flame

from .conftest import HERE, Dice, fold, settle, to_fire


def _to_flame() -> Game:
    game = Game(load_scenario(HERE / "flame.yaml"), seed=5)
    to_fire(game, "g-flame")
    return game


def test_p21_a_flamethrower_flames_an_afv_in_its_arc_and_reach():
    game = _to_flame()
    st = game.state
    front, aside = (st.aliases.alias("germany", t) for t in ("b-tk-1", "b-tk-2"))
    fires = [c for c in game.legal_commands("germany") if c["type"] == "fire"]
    assert {"type": "fire", "unit": "g-flame", "target": front} in fires
    assert all(c["target"] != aside for c in fires)  # 4.2 cm off but 45 degrees off its front
    with pytest.raises(IllegalCommand, match="30 degree arc"):
        game.submit("germany", {"type": "fire", "unit": "g-flame", "target": aside})
    cmd = {"type": "fire", "unit": "g-flame", "target": front}
    drafts = game.rules.resolve(st, "germany", cmd, Dice(6))  # 1D6 6: destroyed (p21)
    assert drafts[0].data["result"] == "destroyed"
    assert any("p21" in line for line in drafts[0].explanation)
    fold(game, "germany", drafts)
    settle(game, Dice(*[3] * 20))
    assert st.elements["b-tk-1"].lost


@pytest.mark.parametrize(("face", "result"), [(4, "no_effect"), (5, "immobilised")])
def test_p21_flame_results_below_six(face, result):
    game = _to_flame()
    st = game.state
    cmd = {"type": "fire", "unit": "g-flame", "target": st.aliases.alias("germany", "b-tk-1")}
    assert game.rules.resolve(st, "germany", cmd, Dice(face))[0].data["result"] == result


def test_p21_a_flamethrower_that_moved_over_half_cannot_flame():
    game = _to_flame()
    st = game.state
    team, tank = st.elements["g-flame"], st.elements["b-tk-1"]
    team.moved = 9.0
    why = flame.why_not(st, team, tank, (tank.x, tank.y))
    assert why is not None and "over half its move" in why and "(p21)" in why
    assert not [c for c in game.legal_commands("germany") if c["type"] == "fire"]
