"""The odds preview before a direct shot (issue 19 item 6, the generic odds hook): exact odds of
the very resolution the command rolls, checked as the command would be, refused with a reason
where no single preview exists (HE area fire, another phase, an element not yet to fire)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from kriegsspiel.engine import Game
from kriegsspiel.engine.commands import IllegalCommand

from .conftest import end_phase_d, skirmish


def to_phase_g(game: Game) -> None:
    """Turn 1 of the skirmish (seed 7): every platoon stands in F; in G elements hold until one
    is offered a shot at a tank."""
    end_phase_d(game)
    while game.state.phase == "F":
        side = next(s for s in game.sides if game.legal_commands(s))
        end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
        game.submit(side, end)
    while game.state.phase == "G" and not _tank_shots(game):
        side = next(s for s in game.sides if game.legal_commands(s))
        game.submit(side, next(c for c in game.legal_commands(side) if c["type"] == "hold"))
    assert game.state.phase == "G"


@pytest.fixture
def at_g() -> Game:
    game = Game(skirmish(), seed=7)
    to_phase_g(game)
    return game


def shots(game: Game, side: str) -> list[dict]:
    """The fire commands offered to `side`, not those at an AFV's crew (p17, test_crew_fire)."""
    return [c for c in game.legal_commands(side) if c["type"] == "fire" and not c.get("crew")]


def _tank_shots(game: Game) -> list[tuple[str, dict]]:
    out = []
    for side in game.sides:
        enemies = {u["id"]: u for u in game.view(side)["enemies"]}
        out += [(side, c) for c in shots(game, side) if enemies[c["target"]]["kind"] == "afv"]
    return out


def tank_shot(game: Game) -> tuple[str, dict]:
    return _tank_shots(game)[0]


def test_odds_of_a_shot_at_a_tank_are_exact_and_sum_to_one(at_g: Game):
    side, cmd = tank_shot(at_g)
    odds = at_g.odds(side, cmd)
    assert sum(Fraction(x) for x in odds["exact"].values()) == 1
    assert set(odds["outcomes"]) == set(odds["exact"])
    assert {"miss", "destroyed"} <= set(odds["outcomes"])
    for name, p in odds["outcomes"].items():
        assert p == pytest.approx(float(Fraction(odds["exact"][name])))


def test_the_preview_is_the_distribution_the_shot_rolls(at_g: Game):
    side, cmd = tank_shot(at_g)
    odds = at_g.odds(side, cmd)
    n = 400
    seen: Counter[str] = Counter()
    for seed in range(n):  # resolving gives events only: the state stays as it was
        drafts = at_g.rules.resolve(at_g.state, side, cmd, random.Random(seed))
        seen[next(d.data["result"] for d in drafts if d.type == "shot")] += 1
    assert set(seen) <= set(odds["outcomes"])
    for name, p in odds["outcomes"].items():  # within 5 standard errors of the exact odds
        assert abs(seen[name] / n - p) <= 5 * (p * (1 - p) / n) ** 0.5 + 1e-9, name


def test_odds_are_refused_with_a_reason(at_g: Game):
    side, cmd = tank_shot(at_g)
    other = next(s for s in at_g.sides if s != side)
    with pytest.raises(IllegalCommand, match="turn to fire"):
        at_g.odds(other, {**cmd, "unit": next(u["id"] for u in at_g.view(other)["units"])})
    infantry = [
        c for c in shots(at_g, side)
        if {u["id"]: u for u in at_g.view(side)["enemies"]}[c["target"]]["kind"] == "infantry"
    ]  # fmt: skip
    for c in infantry:
        try:
            at_g.odds(side, c)
        except IllegalCommand as e:
            assert "HE area fire" in str(e)
    fresh = Game(skirmish(), seed=7)
    with pytest.raises(IllegalCommand, match="phase G"):
        fresh.odds("germany", {"type": "fire", "unit": "g-pak", "target": "x"})
