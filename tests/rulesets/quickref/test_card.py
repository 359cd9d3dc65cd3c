"""Unit cards and the sight check (issue 15 item 9): chart data from the seed, state with
reminders, and answers built only from what the asking side may know."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.engine import Game, IllegalCommand
from kriegsspiel.engine.scenario import find_scenario


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(find_scenario("qr-crossroads-armour"), seed=1)


def test_an_own_tank_card_holds_its_chart_row(game):
    """The Panther's row of the German chart (sheet L1): 21/63", to-hit 8/5, pen 16/12,
    HE 6, armour 15 front / 6 side, speed 10."""
    card = game.rules.unit_card(game.state, "germany", "g-panther")
    data = card["data"]
    assert card["own"] and data["record"] == "ger/pzkw-v"
    assert data["gun"]["bands"] == [
        {"band": "short", "up_to": 21, "to_hit": 8, "pen": 16},
        {"band": "long", "up_to": 63, "to_hit": 5, "pen": 12},
    ]
    assert data["gun"]["he"] == 6 and data["armour"] == {"front": 15, "side": 6}
    assert data["speed"] == 10 and card["now"]["move_allowance"] == 10.0
    assert data["source"]["page"] == "L1" and data["provenance"] == "seed"


def test_state_comes_with_a_reminder(game):
    state = copy.deepcopy(game.state)
    u = state.units["g-panther"]
    u.suppressed, u.moved, u.fired_turn, u.fired_phase = True, "over_half", 1, "fire_all"
    card = game.rules.unit_card(state, "germany", "g-panther")
    assert card["state"] == ["suppressed", "fired", "moved_over_half"]
    assert len(card["reminders"]) == 3 and "next turn" in card["reminders"][0]


def test_an_enemy_card_tells_only_what_is_seen(game):
    seen = game.state.seen["germany"][0]
    card = game.rules.unit_card(game.state, "germany", seen)
    assert not card["own"] and "now" not in card
    state = copy.deepcopy(game.state)
    state.units[seen].moved, state.units[seen].fired_turn = "over_half", 1
    state.units[seen].fired_phase = "fire_all"
    assert game.rules.unit_card(state, "germany", seen)["state"] == []  # not seen: not told
    unseen = next(
        u.id
        for u in game.state.units.values()
        if u.side == "usa" and u.id not in game.state.seen["germany"]
    )
    refusals = []
    for uid in (unseen, "no-such-unit"):
        with pytest.raises(IllegalCommand) as exc:
            game.rules.unit_card(game.state, "germany", uid)
        refusals.append(exc.value.reason.replace(uid, "ID"))
    assert refusals[0] == refusals[1]  # an unseen enemy is refused like a unit that is not


def test_sight_check_over_terrain(game):
    """Woods conceal beyond 10" (decision Q32); open ground in sight is seen."""
    far_woods = game.rules.sight_check(game.state, "germany", "g-panther", 10, 10)
    assert far_woods["clear_line"] and not far_woods["sees"] and "10" in far_woods["reason"]
    near = game.rules.sight_check(game.state, "germany", "g-panther", 15, 20)
    assert near["sees"] and near["distance"] == 3.0
    with pytest.raises(IllegalCommand, match="off the table"):
        game.rules.sight_check(game.state, "germany", "g-panther", -1, 10)
    with pytest.raises(IllegalCommand):
        game.rules.sight_check(game.state, "germany", "u-m4a", 10, 10)  # not an own unit


@settings(max_examples=25, deadline=None)
@given(
    st.floats(0, 48),
    st.floats(0, 36),
    st.lists(st.tuples(st.floats(0, 48), st.floats(0, 36), st.booleans()), min_size=8, max_size=8),
)
def test_sight_check_never_consults_enemy_pieces(game, x, y, moves):
    """Wherever the enemy's pieces are, and whether they stand or not, the answer is the same."""
    before = game.rules.sight_check(game.state, "germany", "g-pz4a", x, y)
    state = copy.deepcopy(game.state)
    enemies = [u for u in state.units.values() if u.side == "usa"]
    for u, (ex, ey, gone) in zip(enemies, moves, strict=False):
        u.x, u.y, u.removed = ex, ey, gone
    assert game.rules.sight_check(state, "germany", "g-pz4a", x, y) == before
