"""Fog of war (issue 3): no view and no event delivered to a side holds the position of an enemy
unit that side does not observe; no refusal tells a side anything of unseen enemies, and no
counter or log number tells it how many commands it did not see (issue 13 items 3-4)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
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


FRESH = "zz-nobody"


def probes(g: Game, side: str, uid: str, rng: random.Random) -> list[dict]:
    """Commands naming `uid` in every place a unit or mission id goes."""
    mine = [u.id for u in g.state.alive(side)] or [FRESH]
    own, seen = rng.choice(mine), (g.state.seen.get(side) or [FRESH])[0]
    x, y = rng.uniform(0, g.scenario.table.width), rng.uniform(0, g.scenario.table.depth)
    battery = g.scenario.artillery[0].battery if g.scenario.artillery else "medium-mortar"
    return [
        {"type": "move", "unit": uid, "path": [[x, y]]},
        {"type": "dismount", "unit": uid},
        {"type": "hatches", "buttoned": {uid: True}},
        {"type": "fire", "unit": uid, "target": seen},
        {"type": "fire", "units": [own, uid], "target": seen},
        {"type": "fire", "unit": own, "target": uid},
        {"type": "fire", "unit": own, "target": uid, "suppressive": True},
        {"type": "assault", "unit": uid, "target": seen},
        {"type": "assault", "unit": own, "target": uid},
        {"type": "call_fire", "observer": uid, "battery": battery, "x": x, "y": y},
        {"type": "hold", "mission": uid},
        {"type": "adjust", "mission": uid, "x": x, "y": y},
        {"type": "initiative", "side_a": uid},
    ]


def answer(g: Game, side: str, cmd: dict) -> tuple[str, str | None] | None:
    """The refusal (reason, field), or None if accepted (then undone by the umpire)."""
    try:
        g.submit(side, cmd)
    except IllegalCommand as exc:
        return exc.reason, exc.field
    g.undo("umpire")
    return None


def check_refusals(g: Game, rng: random.Random) -> None:
    """For every refusal, naming an unseen enemy instead of a made-up id changes nothing but
    that string; no refusal names an unseen enemy's id (or a name no known unit has)."""
    state = g.state
    before = g.state_hash()
    for side in g.sides:
        seen = set(state.seen.get(side, []))
        unseen = [u for u in state.units.values() if u.side != side and u.id not in seen]
        if not unseen:
            continue
        known_names = {u.name for u in state.units.values() if u.side == side or u.id in seen}
        secret = [u.id for u in unseen] + [u.name for u in unseen if u.name not in known_names]
        enemy = rng.choice(unseen)
        for cmd_x, cmd_f in zip(
            probes(g, side, enemy.id, random.Random(1)),
            probes(g, side, FRESH, random.Random(1)),
            strict=True,
        ):
            a, b = answer(g, side, cmd_x), answer(g, side, cmd_f)
            assert (a is None) == (b is None), (side, cmd_x, a, b)
            if a is not None:
                assert (a[0].replace(enemy.id, FRESH), a[1]) == b, (side, cmd_x, a, b)
                others = [t for t in secret if t != enemy.id]
                assert not [t for t in others if t in a[0]], (side, cmd_x, a)
        # a suppressed unit's refusal to close on an unseen enemy names nobody unseen
        for u in state.alive(side):
            if u.suppressed:
                cmd = {"type": "move", "unit": u.id, "path": [[enemy.x, enemy.y]]}
                got = answer(g, side, cmd)
                assert got is None or not [t for t in secret if t in got[0]], got
    assert g.state_hash() == before


def check_counters(g: Game) -> None:
    """A seat's log numbers its entries and commands 0, 1, 2 ... with no gaps, and its view's
    event counter is its own count."""
    for side in (*g.sides, "spectator"):
        log = g.log_for(side)
        everything = g.seat_log(side).entries
        assert [t[2]["index"] for t in everything] == list(range(len(everything)))
        commands = sorted({t[2]["command"] for t in everything})
        assert commands == list(range(len(commands)))
        assert g.view(side)["game"]["events"] == len(everything) >= len(log)


def run(game: Game, seed: int) -> None:
    last = [len(game.events)]
    rng = random.Random(seed)
    n = [0]

    def step(g: Game) -> None:
        check_fog(g, last[0])
        n[0] += 1
        if n[0] % 7 == 0 and g.outcome is None:
            check_refusals(g, rng)
            check_counters(g)
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


def test_a_refusal_that_would_name_an_unseen_enemy_is_made_plain():
    """The engine's last check (engine/refusals.py): a ruleset's slip naming an unseen enemy
    reaches the side as a plain refusal; naming what the side knows or wrote passes."""
    from kriegsspiel.engine.refusals import PLAIN, guard

    g = Game(load_scenario(PROBE), seed=1)
    assert "b2" not in g.state.seen["red"]
    st_, rules = g.state, g.rules
    slip = IllegalCommand("r1 would close on b2 (squad in the house)", "path")
    assert guard(slip, rules, st_, "red", '{"unit":"r1"}').reason == PLAIN
    assert guard(slip, rules, st_, "red", '{"unit":"r1"}').field == "path"
    echo = IllegalCommand("no unit 'b2' of yours on the table", "unit")
    assert guard(echo, rules, st_, "red", '{"unit":"b2"}') is echo
    own = IllegalCommand("r1 has already fired", "units")
    assert guard(own, rules, st_, "red", "{}") is own
    assert guard(slip, rules, st_, "umpire", "{}") is slip
