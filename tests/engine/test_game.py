"""The engine on quickref: phases, replay, undo, seeded dice, illegal commands with reasons."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.engine import Game, IllegalCommand, load_scenario

from .play import random_play

PROBE = Path(__file__).parent / "scenarios" / "infantry_probe.yaml"


@pytest.fixture()
def game() -> Game:
    return Game(load_scenario(PROBE), seed=1)


def advance_to(game: Game, phase: str) -> None:
    for _ in range(200):
        if game.state.phase == phase:
            return
        side = game.rules.active_sides(game.state)[0]
        legal = game.legal_commands(side)
        init = [c for c in legal if c["type"] == "initiative" and c["side_a"] == "red"]
        game.submit(side, init[0] if init else {"type": "end_phase"})
    raise AssertionError(f"never reached {phase}")


def test_turn_sequence_order(game):
    seen = []
    advance_to(game, "move_a1")
    for e in game.events:
        if e.type == "phase" and e.data["phase"] not in seen:
            seen.append(e.data["phase"])
    assert seen == [
        "initiative",
        "arty_fire",
        "arty_adjust",
        "arty_plot",
        "fire_suppressive",
        "fire_all",
        "move_a1",
    ]
    assert game.state.side_a == "red"


def test_replay_and_hash(game):
    random_play(game, random.Random(3))
    assert game.outcome is not None
    again = game.replay()
    assert again.state_hash() == game.state_hash()
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]


def test_same_seed_same_commands_same_dice():
    a, b = (Game(load_scenario(PROBE), seed=9) for _ in range(2))
    random_play(a, random.Random(5))
    random_play(b, random.Random(5))
    assert a.state_hash() == b.state_hash()
    c = Game(load_scenario(PROBE), seed=10)
    random_play(c, random.Random(5))
    assert [e.data for e in c.events if e.type == "initiative"] != [
        e.data for e in a.events if e.type == "initiative"
    ] or c.state_hash() != a.state_hash()


def test_undo_restores_state(game):
    advance_to(game, "move_a1")
    before = game.state_hash()
    game.submit("red", {"type": "move", "unit": "r1", "path": [[15, 4]]})
    assert game.state.units["r1"].y == 4
    game.undo("red")
    assert game.state.units["r1"].y == 2 and game.state_hash() == before
    assert game.replay().state_hash() == before
    with pytest.raises(IllegalCommand, match="nothing to undo|only your own"):
        Game(load_scenario(PROBE), seed=1).undo("red")


@pytest.mark.parametrize(
    "options", [{"allow_undo": False}, {"allow_undo": "false"}, {"undo": "off"}]
)
def test_undo_can_be_forbidden(options):
    g = Game(load_scenario(PROBE), seed=1, options=options)
    advance_to(g, "move_a1")
    g.submit("red", {"type": "move", "unit": "r1", "path": [[15, 4]]})
    with pytest.raises(IllegalCommand, match="undo is off"):
        g.undo("red")
    g.undo()  # the umpire still may
    assert g.state.units["r1"].y == 2


@pytest.mark.parametrize(
    "side,cmd,reason",
    [
        ("blue", {"type": "move", "unit": "b1", "path": [[15, 19]]}, "not your turn"),
        ("red", {"type": "fly"}, "unknown command .fly."),
        ("red", {"type": "fire", "unit": "r2", "target": "b3"}, "not allowed in Move"),
    ],
)
def test_out_of_phase(game, side, cmd, reason):
    advance_to(game, "move_a1")
    with pytest.raises(IllegalCommand, match=reason):
        game.submit(side, cmd)


def test_illegal_moves(game):
    advance_to(game, "move_a1")
    n = len(game.events)
    with pytest.raises(IllegalCommand, match="no unit .b1. of yours"):
        game.submit("red", {"type": "move", "unit": "b1", "path": [[15, 19]]})
    with pytest.raises(IllegalCommand, match=r"may move 3.0"):
        game.submit("red", {"type": "move", "unit": "r1", "path": [[15, 6]]})
    with pytest.raises(IllegalCommand, match="off the table"):
        game.submit("red", {"type": "move", "unit": "r1", "path": [[-1, 2]]})
    with pytest.raises(IllegalCommand, match="path"):
        game.submit("red", {"type": "move", "unit": "r1", "path": "north"})
    with pytest.raises(IllegalCommand, match="unknown side"):
        game.submit("green", {"type": "end_phase"})
    with pytest.raises(IllegalCommand, match="string 'type'"):
        game.submit("red", {"unit": "r1"})
    assert len(game.events) == n  # nothing changed


def test_fire_needs_sight_and_range(game):
    advance_to(game, "fire_all")
    assert game.state.seen["red"] == ["b3"]
    with pytest.raises(IllegalCommand, match="in sight"):
        game.submit("red", {"type": "fire", "unit": "r1", "target": "b1"})  # behind the wood
    with pytest.raises(IllegalCommand, match="in sight"):
        game.submit("red", {"type": "fire", "unit": "r1", "target": "nobody"})
    with pytest.raises(IllegalCommand, match="suppressive fire was the previous step"):
        game.submit("red", {"type": "fire", "unit": "r2", "target": "b3", "suppressive": True})
    events = game.submit("red", {"type": "fire", "unit": "r2", "target": "b3"})
    assert events[0].type == "fire" and events[0].explanation
    assert any("long range +2" in line for line in events[0].explanation)
    with pytest.raises(IllegalCommand, match="already fired"):
        game.submit("red", {"type": "fire", "unit": "r2", "target": "b3"})
    with pytest.raises(IllegalCommand, match="in sight|line of sight"):
        game.submit("red", {"type": "fire", "unit": "rhq", "target": "b1"})


def test_game_reaches_a_result_with_the_default_winner():
    g = Game(load_scenario(PROBE), seed=2)
    while g.outcome is None:
        side = g.rules.active_sides(g.state)[0]
        legal = g.legal_commands(side)
        init = [c for c in legal if c["type"] == "initiative"]
        g.submit(side, init[0] if init else {"type": "end_phase"})
    assert g.outcome["winner"] == "blue" and g.state.turn == 3


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_random_games_replay_exactly(seed, play_seed):
    g = Game(load_scenario(PROBE), seed=seed)
    random_play(g, random.Random(play_seed))
    assert g.replay().state_hash() == g.state_hash()


def test_suppressed_unit_may_only_withdraw():
    for seed in range(200):
        g = Game(load_scenario(PROBE), seed=seed)
        advance_to(g, "fire_all")
        g.submit("red", {"type": "fire", "unit": "r2", "target": "b3"})
        g.submit("red", {"type": "end_phase"})
        g.submit("blue", {"type": "end_phase"}) if "blue" in g.rules.active_sides(g.state) else None
        b3 = g.state.units["b3"]
        if b3.suppressed and not b3.removed and (b3.x, b3.y) == (25, 15):
            break
    else:
        pytest.fail("no seed suppressed b3")
    advance_to(g, "move_b")
    with pytest.raises(IllegalCommand, match="may only withdraw"):
        g.submit("blue", {"type": "move", "unit": "b3", "path": [[24, 13]]})  # towards r2
    g.submit("blue", {"type": "move", "unit": "b3", "path": [[26, 17]]})  # away is fine


def test_gun_may_not_fire_after_moving_more_than_half():
    from kriegsspiel.engine.scenario import find_scenario

    g = Game(find_scenario("qr-crossroads-armour"), seed=0)
    for _ in range(100):
        if g.state.phase == "move_b":
            break
        side = g.rules.active_sides(g.state)[0]
        init = [c for c in g.legal_commands(side) if c["type"] == "initiative"]
        g.submit(
            side, {"type": "initiative", "side_a": "germany"} if init else {"type": "end_phase"}
        )
    assert g.state.side_a == "germany"
    g.submit("usa", {"type": "move", "unit": "u-m4c", "path": [[20, 10]]})  # 8.2" of 10": over half
    for _ in range(100):
        if g.state.phase == "fire_all" and g.state.turn == 2:
            break
        side = g.rules.active_sides(g.state)[0]
        init = [c for c in g.legal_commands(side) if c["type"] == "initiative"]
        g.submit(
            side, {"type": "initiative", "side_a": "germany"} if init else {"type": "end_phase"}
        )
    assert g.state.units["u-m4c"].moved == "over_half" and "g-panther" in g.state.seen["usa"]
    with pytest.raises(IllegalCommand, match="moved more than half its move"):
        g.submit("usa", {"type": "fire", "unit": "u-m4c", "target": "g-panther"})


def test_legal_commands_memo_is_per_event_and_hands_out_copies():
    """The quickref rules memoise a side's legal templates until the next event: the answers
    are equal to a fresh computation, callers get their own copies, and the memo is neither
    kept past an event nor part of the state hash."""
    from kriegsspiel.engine.scenario import find_scenario
    from kriegsspiel.rulesets.quickref.game.legal import legal_commands as compute

    game = Game(find_scenario("qr-crossroads-armour"), seed=4)
    side = game.rules.active_sides(game.state)[0]
    first = game.legal_commands(side)
    first[0]["type"] = "scribbled"
    again = game.legal_commands(side)
    assert again == compute(game.rules, game.state, side) and again[0]["type"] != "scribbled"
    before = game.state_hash()
    game.state.legal_memo.clear()
    assert game.state_hash() == before
    game.legal_commands(side)
    game.submit(side, {"type": "end_phase"})
    memo = game.state.legal_memo
    assert all(v.all() == compute(game.rules, game.state, s) for s, v in memo.items())


def test_a_units_plain_data_is_its_fields_in_order():
    """`Unit.to_dict` (what views are built from) gives every field, in the dataclass's order,
    with its value after the unit changed, and nothing else set on the unit."""
    from dataclasses import fields

    from kriegsspiel.rulesets.quickref.game.state import Unit

    u = Unit("u1", "usa", "m4a3", "vehicle", "Sherman", 3.0, 4.0, facing=90.0)
    u.x, u.suppressed, u.fired_turn = 7.5, True, 2
    want = {f.name: getattr(u, f.name) for f in fields(Unit)}
    got = u.to_dict()
    assert list(got.items()) == list(want.items())
    got["x"] = 0.0
    assert u.x == 7.5  # a copy
    u.note = "scribbled"  # not a field: not in the data
    assert list(u.to_dict().items()) == list(want.items())


@pytest.mark.parametrize(
    "path, limit",
    [
        ([(2.0, 2.0), (2.0, 6.0)], 6.0),  # open ground: the full 6"
        ([(2.0, 16.0), (2.0, 10.0)], 6.0),  # beside the orchard, not into it
        ([(2.0, 16.0), (6.0, 16.0)], 4.0),  # into the orchard (woods: 2" for infantry)
        ([(6.0, 16.0), (2.0, 16.0)], 4.0),  # out of it
        ([(6.0, 16.0), (8.0, 16.0)], 4.0),  # within it
        ([(2.0, 16.0), (15.0, 16.0)], 4.0),  # across it
    ],
)
def test_a_move_pays_for_ground_it_enters_crosses_or_starts_in(path, limit):
    """Decision Q36: the chart's cost of a feature is paid by a path that enters, crosses or
    starts in it (the village's orchard is woods, from (4, 12) to (14, 20); woods cost
    infantry a flat 2" of their 6", L7 chart)."""
    from kriegsspiel.engine.scenario import find_scenario
    from kriegsspiel.rulesets.quickref.game.orders_move import move_limit

    game = Game(find_scenario("qr-village-assault"), seed=1)
    board = game.rules.board(game.state)
    squad = game.state.units["b-sq1"]
    assert move_limit(game.rules.rules, board, squad, path)[0] == limit


def test_every_automatic_step_change_says_why():
    """Issue 15 item 7: a step the umpire ends or changes by itself names its cause, in the
    event (read by the table and the CLI log) and in the CLI's words."""
    from kriegsspiel.cli.play import Names, describe_event
    from kriegsspiel.rulesets.quickref.game.sequence import BY_ID

    game = Game(load_scenario(PROBE), seed=3)
    random_play(game, random.Random(3), max_commands=300)
    autos = [e for e in game.events if e.type == "end_phase" and e.data.get("auto")]
    phases = [e for e in game.events if e.type == "phase" and e.data["phase"] != "initiative"]
    assert autos and phases
    idle = {p.idle for p in BY_ID.values()}
    for e in autos:
        assert e.data["reason"] in idle, e.data
    for e in phases:
        assert e.data["reason"], e.data
    names = Names(game.view("umpire"))
    words = describe_event(autos[0], names)
    assert words is not None and autos[0].data["reason"] in words
