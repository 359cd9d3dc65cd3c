"""Random-bot battles of the test scenario through the battle simulator (issue 19 items 6-7):
20 battles end without error, each with a verdict and a summary, the same on one worker or two."""

from __future__ import annotations

from kriegsspiel.sim import BattleSpec, battle_seed, run_battles

from .conftest import SKIRMISH


def test_twenty_random_bot_battles_end_with_a_verdict():
    specs = [BattleSpec(str(SKIRMISH), i, battle_seed(5, i)) for i in range(20)]
    results = run_battles(specs, "local", workers=1)
    assert len(results) == 20
    for r in results:
        assert r["reason"] and r["turns"] <= 6
        assert set(r["losses"]) == {"germany", "britain"}
        assert set(r["objectives"]) == {"farm"}
    assert any(r["losses"]["germany"] or r["losses"]["britain"] for r in results)
    again = run_battles(specs[:4], "local", workers=2)
    assert again == results[:4]


def test_every_legal_template_is_accepted_as_given():
    """The templates a side is offered are commands the rules accept (the bots rely on it)."""
    import random

    from kriegsspiel.engine import Game

    from .conftest import skirmish

    for seed in (1, 2, 3):
        game = Game(skirmish(), seed=seed, options={"hidden_deployment": seed == 3})
        rng = random.Random(seed)
        for _ in range(300):
            if game.outcome is not None:
                break
            side = game.rules.active_sides(game.state)[0]
            cmd = rng.choice(game.legal_commands(side))
            game.submit(side, cmd)  # raises if a template is refused
