"""The incremental spotting refresh (game/sight.py `look`) gives the answers of a full
recompute: random-bot games are folded twice, once as played (each refresh reuses the pairs
that cannot have changed) and once with the memo dropped before every event (every pair
worked out afresh); the two states must agree after every event (p8-9 spotting, the seen
sets, last-seen marks, dummies turned over)."""

from __future__ import annotations

import pytest

from kriegsspiel.ai.harness import play
from kriegsspiel.ai.registry import make_bot
from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.game import ENGINE_EVENTS
from kriegsspiel.engine.registry import entry

from .conftest import HERE

SHIPPED = entry("panzerfaust").scenarios


def _played(path, seed: int, commands: int) -> Game:
    game = Game(load_scenario(path), seed=seed)
    bots = {s: make_bot("panzerfaust", "random", seed + i) for i, s in enumerate(game.sides)}
    play(game, bots, max_commands=commands)
    return game


@pytest.mark.parametrize(
    ("path", "seeds", "commands"),
    [
        (HERE / "skirmish.yaml", range(3), 300),
        (HERE / "ambush.yaml", range(2), 300),
        (SHIPPED / "pf-kursk-attack.yaml", range(1), 200),
    ],
    ids=lambda v: getattr(v, "stem", None),
)
def test_incremental_spotting_equals_a_full_recompute(path, seeds, commands):
    looked = 0
    for seed in seeds:
        game = _played(path, seed, commands)
        inc = game.rules.initial_state(game.scenario, game.seed, game.options)
        full = game.rules.initial_state(game.scenario, game.seed, game.options)
        assert inc.to_json() == full.to_json()
        for e in game.events:
            if e.type in ENGINE_EVENTS:
                continue
            full.cache.pop("sight", None)  # every pair worked out again
            game.rules.apply(inc, e)
            game.rules.apply(full, e)
            assert inc.to_json() == full.to_json(), (seed, e.index, e.type)
            looked += "sight" in inc.cache
        assert inc.to_json() == game.state.to_json()  # the fold reproduces the game played
    assert looked > 50
