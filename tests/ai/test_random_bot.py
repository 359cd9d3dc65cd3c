"""The random-legal bot works from any ruleset's command models (issue 14 item 7): it keeps a
template's model fields only and draws the required fields a template leaves open."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kriegsspiel.ai import RandomBot, make_bot
from kriegsspiel.engine import Game
from kriegsspiel.engine.scenario import find_scenario

VIEW = {"table": {"width": 60, "depth": 40, "unit": "cm"}, "units": []}


class Deploy(BaseModel):
    type: Literal["deploy"]
    unit: str
    x: float
    y: float
    posture: Literal["prone", "standing"]
    pips: int = Field(ge=1, le=3)
    note: str


def test_open_fields_are_drawn_from_the_model_and_hints_dropped():
    bot = RandomBot(5, {"deploy": Deploy})
    template = {"type": "deploy", "unit": "a", "note": "n", "max_hint": 4}
    seen = set()
    for _ in range(50):
        cmd = bot.decide(VIEW, [template], lambda c: {}).command
        Deploy.model_validate(cmd)  # a whole, valid command
        assert "max_hint" not in cmd and 0 <= cmd["x"] <= 60 and 0 <= cmd["y"] <= 40
        seen.add((cmd["posture"], cmd["pips"]))
    assert {p for p, _ in seen} == {"prone", "standing"} and {n for _, n in seen} == {1, 2, 3}


def test_a_field_with_nothing_to_draw_from_is_left_to_the_rules():
    cmd = RandomBot(1, {"deploy": Deploy}).decide(
        VIEW, [{"type": "deploy", "unit": "a", "x": 1, "y": 2}], lambda c: {}
    )
    assert "note" not in cmd.command and cmd.command["x"] == 1


def test_the_registry_gives_the_random_bot_its_rulesets_models():
    game = Game(find_scenario("demo-patrol"), seed=1)
    bot = make_bot("demo", "random", 3)
    assert set(bot.models) == set(game.rules.command_models())
    side = game.rules.active_sides(game.state)[0]
    cmd = bot.decide(game.view(side), game.legal_commands(side), lambda c: {}).command
    game.submit(side, cmd)
