"""A Retreat result in the direct fire phase (p24 Morale Test Notes; decision P312): the move
being backtracked becomes a retreat at once (the barn, withdrawal.yaml: 4 Platoon steps 5 cm
north in phase F; in phase G it loses a team and breaks, and its company with it)."""

from __future__ import annotations

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import orders_fire

from .conftest import HERE, Dice, end_phase_d, fold


def _broken_in_g(**options) -> tuple[Game, list]:
    game = Game(load_scenario(HERE / "withdrawal.yaml"), seed=7, options=options or None)
    end_phase_d(game)
    st = game.state
    game.submit("britain", {"type": "group", "platoon": "b-inf", "order": "move",
                            "dx": 0.0, "dy": 5.0})  # fmt: skip
    while st.phase == "F":
        side = game.rules.active_sides(st)[0]
        game.submit(side, next(c for c in game.legal_commands(side) if c["type"] == "end_platoon"))
    assert st.phase == "G" and (st.elements["b-inf-hq"].x, st.elements["b-inf-hq"].y) == (20, 25)
    orders_fire.land(st, [{"target": "b-inf-2", "result": "lost_1"}])
    drafts = []
    dice = Dice(1, 1, 1, 1)  # the platoon 1+1-3: Retreat; the company 1+1-2: Retreat
    while more := game.rules.automatic(st, dice):
        fold(game, None, more)
        drafts += more
    return game, drafts


def test_p24_a_unit_broken_in_the_fire_phase_retreats_instead_of_completing_its_move():
    game, drafts = _broken_in_g()
    st = game.state
    assert [d.type for d in drafts] == ["morale", "morale", "fire_retreat"]
    move = drafts[-1]
    assert move.visible_to == ("britain",)
    (m,) = move.data["moves"]
    assert m["unit"] == "b-inf-hq" and m["path"][0][:2] == [20.0, 20.0]  # from where it began
    hq = st.elements["b-inf-hq"]
    assert (hq.x, hq.y) == (20.0, 10.0) and hq.moved == 10.0  # 10 cm south (p12, p24)
    assert "does not complete its move" in move.explanation[0] and "P312" in move.explanation[0]
    assert "toward its south edge" in move.explanation[0]
    # the team in the barn, 12 cm from the German riflemen it sees, surrendered (p24)
    assert st.elements["b-inf-1"].lost
    # 5 Platoon did not move: the company's Retreat moves it in the next phase F, as before
    assert st.elements["b-two-1"].has("retreat") and st.elements["b-two-1"].moved == 0
    assert not st.phase_data.get("fire_retreats")
    assert game.rules.automatic(st, Dice()) == []


def test_p312_option_next_turn_keeps_the_move_and_retreats_in_the_next_phase_f():
    game, drafts = _broken_in_g(fire_phase_retreat="next_turn")
    st = game.state
    assert drafts[-1].type == "fire_retreat" and drafts[-1].data == {"moves": []}
    hq = st.elements["b-inf-hq"]
    assert (hq.x, hq.y) == (20.0, 25.0) and hq.has("retreat")
    assert not st.phase_data.get("fire_retreats")
