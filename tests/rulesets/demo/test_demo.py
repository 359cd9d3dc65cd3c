"""The demo ruleset's own turn loop: alternating activations, a reaction prompt asked at every
move whatever the asked side could do, hidden pieces and per-side aliases (issue 14 item 9)."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand
from kriegsspiel.engine.aliases import PREFIX
from kriegsspiel.engine.scenario import Scenario, find_scenario


@pytest.fixture()
def game() -> Game:
    return Game(find_scenario("demo-patrol"), seed=3)


def active(game: Game) -> str:
    return game.rules.active_sides(game.state)[0]


def test_activations_alternate_and_each_move_prompts_the_other_side(game):
    """Four blue pieces against three red: one each in turn, blue's last one at the end."""
    order = []
    while game.state.turn == 1 and game.outcome is None:
        side = active(game)
        if game.state.prompt is not None:
            game.submit(side, {"type": "decline"})
            continue
        order.append(side)
        hold = next(c for c in game.legal_commands(side) if c["type"] == "hold")
        game.submit(side, hold)
    assert order == ["blue", "red", "blue", "red", "blue", "red", "blue"]
    assert game.state.turn == 2 and active(game) == "red"  # even turns: red first


WAITING = {"kind": "waiting", "for": "red", "deadline_s": None}


def test_a_move_prompts_even_a_side_with_nothing_able_to_react():
    """Red set up out of reach (at the south edge): blue's move still asks red, who can only
    decline, and blue sees the same 'waiting' as when red could fire."""
    raw = find_scenario("demo-patrol").model_dump()
    for u, x in zip(raw["forces"]["red"]["units"], (15, 45, 30), strict=True):
        u.update(x=x, y=1, hidden=False)
    game = Game(Scenario.model_validate(raw), seed=3)
    game.submit("blue", {"type": "move", "unit": "b-scouts-1", "x": 5, "y": 38})
    assert game.legal_commands("red") == [{"type": "decline"}]
    red_prompt = game.view("red")["prompt"]
    assert red_prompt["kind"] == "opportunity_fire" and red_prompt["action"]["type"] == "move"
    assert game.view("blue")["prompt"] == WAITING
    with pytest.raises(IllegalCommand, match="not your turn"):
        game.submit("blue", {"type": "hold", "unit": "b-rifles-1"})
    game.submit("red", {"type": "decline"})
    assert game.view("blue")["prompt"] is None and active(game) == "red"


def test_a_piece_in_range_may_react_once(game):
    """A move the eastern picket sees within its range: it may react, blue waits alike."""
    game.submit("blue", {"type": "hold", "unit": "b-scouts-1"})
    game.submit("red", {"type": "hold", "unit": "r-rifles-1"})
    game.submit("blue", {"type": "move", "unit": "b-rifles-2", "x": 38, "y": 28})
    reacts = {c["unit"] for c in game.legal_commands("red") if c["type"] == "react"}
    assert reacts == {"r-rifles-1", "r-rifles-2", "r-scouts"}  # all within their range
    assert game.view("blue")["prompt"] == WAITING
    action = game.view("red")["prompt"]["action"]
    assert action["type"] == "move" and action["unit"].startswith(PREFIX)
    events = game.submit("red", {"type": "react", "unit": "r-rifles-2"})
    assert {e.type for e in events} >= {"reaction", "shot_at"}
    assert game.state.pieces["r-rifles-2"].hidden is False  # firing gives the picket away
    notice = next(e for e in events if e.type == "shot_at")
    assert notice.visible_to == ("blue",) and notice.data["by"].startswith(PREFIX)
    game.submit("red", {"type": "hold", "unit": "r-scouts"})
    game.submit("blue", {"type": "move", "unit": "b-rifles-1", "x": 24, "y": 28})
    again = {c["unit"] for c in game.legal_commands("red") if c["type"] == "react"}
    assert "r-rifles-2" not in again and "r-rifles-1" in again  # once a turn


def test_hidden_pieces_and_aliases(game):
    blue = game.view("blue")
    assert [e["name"] for e in blue["enemies"]] == ["enemy scouts"]  # the pickets are hidden
    alias = blue["enemies"][0]["id"]
    assert alias.startswith(PREFIX) and alias != "r-scouts"
    assert game.view("spectator")["enemies"] == []  # a spectator sees no live piece
    assert "r-scouts" not in str(blue)
    # a piece is fired at by the name its enemy knows it by, never by its true id
    game.submit("blue", {"type": "move", "unit": "b-rifles-1", "x": 24, "y": 27})
    game.submit("red", {"type": "decline"})
    game.submit("red", {"type": "hold", "unit": "r-rifles-1"})
    with pytest.raises(IllegalCommand, match="not an enemy piece you observe"):
        game.submit("blue", {"type": "fire", "unit": "b-rifles-2", "target": "r-scouts"})
    fire = {"type": "fire", "unit": "b-rifles-2", "target": alias}  # 28 cm: within 30
    assert fire in game.legal_commands("blue")
    events = game.submit("blue", fire)
    mine = next(e for e in events if e.type == "fire")
    assert mine.visible_to == ("blue",) and mine.data["target"] == alias


def test_every_legal_template_fits_its_command_model(game):
    models = game.rules.command_models()
    for _ in range(40):
        if game.outcome is not None:
            break
        side = active(game)
        legal = game.legal_commands(side)
        for t in legal:
            models[t["type"]].model_validate(t)
        game.submit(side, legal[-1])


def test_a_move_beyond_reach_or_off_the_table_is_refused(game):
    with pytest.raises(IllegalCommand, match="at most 15 cm"):
        game.submit("blue", {"type": "move", "unit": "b-scouts-1", "x": 15, "y": 10})
    with pytest.raises(IllegalCommand, match="off the table"):
        game.submit("blue", {"type": "move", "unit": "b-scouts-1", "x": 15, "y": 45})
    with pytest.raises(IllegalCommand, match="cannot reach the south edge"):
        game.submit("blue", {"type": "exit", "unit": "b-scouts-1", "edge": "south"})
