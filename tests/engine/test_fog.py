"""Fog of war (issue 3): no view and no event delivered to a side holds the position of an enemy
unit that side does not observe."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.scenario import all_scenarios, find_scenario
from kriegsspiel.geometry import visible_many
from kriegsspiel.rulesets.quickref.game.rules import game_rules

from .play import random_play

PROBE = Path(__file__).parent / "scenarios" / "infantry_probe.yaml"
POSITION_KEYS = {"x", "y", "path", "facing"}


def unit_refs(data: dict) -> set[str]:
    refs = set()
    for key in ("unit", "target", "observer"):
        if isinstance(data.get(key), str):
            refs.add(data[key])
    for key in ("firers", "units"):
        refs.update(x for x in data.get(key, []) if isinstance(x, str))
    if isinstance(data.get("buttoned"), dict):
        refs.update(data["buttoned"])
    return refs


def has_position(data: dict) -> bool:
    if POSITION_KEYS & set(data):
        return True
    return isinstance(data.get("set"), dict) and bool(POSITION_KEYS & set(data["set"]))


def check_fog(game: Game, start: int) -> None:
    state = game.state
    for side in game.sides:
        enemy = {u.id for u in state.units.values() if u.side != side}
        seen = set(state.seen.get(side, []))
        view = game.view(side)
        assert {u["id"] for u in view["units"]} <= {
            u.id for u in state.units.values() if u.side == side
        }
        assert {u["id"] for u in view["enemies"]} == seen
        for mark in view["last_known"]:
            assert mark["id"] not in seen
        for e in game.events[start:]:
            if not e.visible(side):
                continue
            hidden = (unit_refs(e.data) & enemy) - seen
            assert not (hidden and has_position(e.data)), (side, e.type, e.data)
        for mission in view["missions"]:
            assert mission["side"] == side


def run(game: Game, seed: int) -> None:
    last = [len(game.events)]

    def step(g: Game) -> None:
        check_fog(g, last[0])
        last[0] = len(g.events)

    random_play(game, random.Random(seed), on_step=step)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_fog_probe(seed, play_seed):
    run(Game(load_scenario(PROBE), seed=seed), play_seed)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 1))
def test_fog_shipped_scenarios(seed, which):
    scenarios = [s for s in all_scenarios() if s.ruleset == "quickref"]
    run(Game(scenarios[which % len(scenarios)], seed=seed), seed)


def test_hidden_unit_is_not_in_the_enemy_view():
    g = Game(load_scenario(PROBE), seed=1)
    assert "b2" not in g.state.seen["red"] and "b2" not in {
        u["id"] for u in g.view("red")["enemies"]
    }
    assert "b2" in {u["id"] for u in g.view("umpire")["units"]}
    spectator = g.view("spectator")
    assert "b2" not in {u["id"] for u in spectator["enemies"]} and spectator["units"] == []


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 2))
def test_sight_after_a_move_equals_a_full_look(seed, which):
    """The quickref fold looks again only where a move can change sight (`refresh_after_move`);
    after every command, what each side sees and its last-known markers equal a full refresh."""
    import copy

    from kriegsspiel.rulesets.quickref.game import sight

    scenarios = [load_scenario(PROBE)] + [s for s in all_scenarios() if s.ruleset == "quickref"]
    game = Game(scenarios[which % len(scenarios)], seed=seed)

    def step(g: Game) -> None:
        fresh = copy.deepcopy(g.state)
        sight.refresh(g.rules.board(fresh), fresh)
        assert fresh.seen == g.state.seen
        assert fresh.last_known == g.state.last_known

    random_play(game, random.Random(seed), on_step=step)


@pytest.mark.parametrize("sid", ["qr-crossroads-armour", "qr-village-assault"])
def test_board_sight_is_the_geometry_layers_crest_rule(sid):
    """The board's sight lines (memoised, one at a time) are the geometry layer's batch answer
    under quickref's rules (LOS YES features block, hills by the crest rule), on random, grid
    and vertex points, and both answers occur."""
    board = game_rules().board(Game(find_scenario(sid), seed=1).state)
    rng = random.Random(3)
    verts = [v for f in board.features for v in f.shape.exterior.coords]

    def point():
        r = rng.random()
        if r < 0.2:
            return (float(rng.randint(0, 48)), float(rng.randint(0, 36)))
        return rng.choice(verts) if r < 0.3 else (rng.uniform(0, 48), rng.uniform(0, 36))

    pairs = [(point(), point()) for _ in range(1500)]
    a, b = np.array([p for p, _ in pairs]), np.array([q for _, q in pairs])
    rules = board.sight
    batch = visible_many(board.table, a, b, rules.blocks, 0.5, 0.5, hills=rules.hills)
    assert [board.los(p, q, 0.5) for p, q in pairs] == batch.tolist()
    assert set(batch.tolist()) == {True, False}
