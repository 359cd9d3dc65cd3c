"""Move input for the web table (issue 15 item 8, issue 14 item 7): the reach area, the order
preview with waypoints and an end facing, and the call-for-fire check, all through the rules'
own legality check. Game: qr-crossroads-armour, seed 1 (Germany is side A; the Panther stands
on the ridge, hills x0.75 on sheet L7)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.engine.commands import IllegalCommand
from kriegsspiel.engine.game import Game
from kriegsspiel.geometry import reach_cells
from kriegsspiel.server.app import shipped_scenarios


def game_at(scenario: str, phase: str) -> Game:
    g = Game(shipped_scenarios()[scenario], seed=1)
    while g.state.phase != phase:
        g.submit(g.rules.active_sides(g.state)[0], {"type": "end_phase"})
    return g


@pytest.fixture(scope="module")
def first_move() -> Game:
    return game_at("qr-crossroads-armour", "move_a1")


def test_reach_excludes_what_the_hill_costs(first_move):
    g = first_move
    # half of a 10" allowance is the old circle (5"); on the ridge the hill's x0.75 leaves 3.75"
    assert next(c for c in g.legal_commands("germany") if c.get("unit") == "g-panther")["max"] == 5
    cells = g.reach("germany", "g-panther")["cells"]
    far = max(math.dist(c, (15, 23)) for c in cells)
    assert 3.0 < far <= 3.75
    assert [15.5, 23.5] in cells and [19.5, 23.5] not in cells  # 4.5" away: inside the circle


def test_every_reach_cell_is_a_move_the_rules_accept(first_move):
    g = first_move
    for unit in ("g-panther", "g-pz4b"):
        cells = g.reach("germany", unit)["cells"]
        assert cells
        for c in cells[:: max(1, len(cells) // 12)]:
            assert g.preview("germany", {"type": "move", "unit": unit, "path": [c]})["ok"]


def test_reach_of_an_enemy_or_unknown_unit_is_refused(first_move):
    with pytest.raises(IllegalCommand):
        first_move.reach("germany", "u-m4a")
    with pytest.raises(IllegalCommand):
        first_move.reach("usa", "g-panther")  # not USA's step, nor its unit


def test_two_legs_and_an_end_facing_are_previewed_then_accepted():
    g = game_at("qr-crossroads-armour", "move_a1")
    cmd = {"type": "move", "unit": "g-pz4b", "path": [[31, 26], [33, 26]], "facing": 90}
    before = len(g.events)
    p = g.preview("germany", cmd)
    assert p["ok"] and [leg["length"] for leg in p["legs"]] == [2.0, 2.0]
    assert p["distance"] == 4.0 and p["cap"] == 5.0 and p["facing"] == 90
    assert p["pivots"] == "free"
    assert len(g.events) == before  # a preview writes nothing
    g.submit("germany", cmd)
    u = g.state.units["g-pz4b"]
    assert (u.pos, u.facing) == ((33.0, 26.0), 90.0)
    move = next(e for e in reversed(g.events) if e.type == "move")
    assert move.data["path"] == [[31.0, 28.0], [31.0, 26.0], [33.0, 26.0]]


def test_preview_names_the_terrain_of_each_leg_and_refuses_as_the_order_would():
    g = game_at("qr-crossroads-armour", "move_a1")
    p = g.preview("germany", {"type": "move", "unit": "g-panther", "path": [[15, 21]]})
    assert p["ok"] and p["legs"][0]["terrain"] == ["Hills", "Hulldown"]
    bad = {"type": "move", "unit": "g-panther", "path": [[19, 21]]}
    p = g.preview("germany", bad)
    assert not p["ok"] and "Hills: x0.75" in p["reason"] and p["field"] == "path"
    with pytest.raises(IllegalCommand) as exc:
        g.submit("germany", bad)
    assert exc.value.reason == p["reason"]
    out = g.preview("usa", {"type": "move", "unit": "u-m4a", "path": [[24, 5]]})
    assert not out["ok"] and "not your turn" in out["reason"]


def village_plot_step() -> Game:
    """qr-village-assault, seed 1: the British close in (each move to its reach cell furthest
    north) until German units see them; turn 4's plot step is then Germany's to act in."""
    g = Game(shipped_scenarios()["qr-village-assault"], seed=1)
    while not (g.state.turn == 4 and g.state.phase == "arty_plot"):
        side = g.rules.active_sides(g.state)[0]
        if g.state.phase.startswith("move") and side == "britain":
            for uid in ("b-sq5", "b-sq4", "b-fo"):
                cells = g.reach(side, uid)["cells"]
                best = max(cells, key=lambda c: c[1])
                g.submit(side, {"type": "move", "unit": uid, "path": [best]})
        g.submit(side, {"type": "end_phase"})
    return g


def test_call_for_fire_preview_at_a_map_point_rolls_no_dice():
    g = village_plot_step()
    art = g.view("germany")["quickref"]["artillery"]
    assert art["batteries"] == [
        {"battery": "medium-mortar", "name": art["batteries"][0]["name"], "left": 3}
    ]
    assert "g-hq" in art["observers"]
    # a map point between two British sections, not a unit's position
    cmd = {"type": "call_fire", "observer": "g-hq", "battery": "medium-mortar", "x": 17, "y": 33}
    before = len(g.events)
    assert g.preview("germany", cmd)["ok"]
    assert len(g.events) == before
    g.submit("germany", cmd)
    m = next(iter(g.state.missions.values()))
    assert (m.battery, m.x, m.y) == ("medium-mortar", 17.0, 33.0)
    assert "g-hq" not in g.view("germany")["quickref"]["artillery"]["observers"]
    again = g.preview("germany", {**cmd, "x": 16})
    assert not again["ok"]  # called already (and its part of the step is over)
    wrong = g.preview("germany", {**cmd, "observer": "g-sq1", "battery": "light-gun"})
    assert not wrong["ok"]


@settings(max_examples=60, deadline=None)
@given(
    cx=st.floats(0, 20),
    cy=st.floats(0, 20),
    r=st.floats(0, 8),
    cell=st.sampled_from([0.5, 1.0, 2.0]),
)
def test_reach_cells_lie_in_the_disc_the_bounds_and_the_predicate(cx, cy, r, cell):
    keep = lambda p: (p[0] + p[1]) % 3 < 2  # noqa: E731
    out = reach_cells((cx, cy), r, cell, (0, 0, 12, 16), keep)
    for x, y in out:
        assert math.dist((x, y), (cx, cy)) <= r and 0 <= x <= 12 and 0 <= y <= 16 and keep((x, y))
        assert (x / cell - 0.5) == pytest.approx(round(x / cell - 0.5))
    inside = [
        (i * cell + cell / 2, j * cell + cell / 2)
        for i in range(int(12 / cell))
        for j in range(int(16 / cell))
    ]
    expected = {p for p in inside if math.dist(p, (cx, cy)) <= r and keep(p)}
    assert set(out) == expected


def test_the_view_says_whose_order_an_undo_would_take_back():
    g = game_at("qr-crossroads-armour", "move_a1")
    g.submit("germany", {"type": "move", "unit": "g-pz4b", "path": [[31, 26]]})
    assert g.view("germany")["game"]["undo_mine"] is True
    assert g.view("usa")["game"]["undo_mine"] is False
    assert g.view("umpire")["game"]["undo_mine"] is True
    g.undo("germany")  # a move rolls no dice and here reveals nothing: undone at once
    assert g.state.units["g-pz4b"].pos == (31.0, 28.0)
    assert g.view("germany")["game"]["undo_mine"] is False


def village_fire_step() -> Game:
    """qr-village-assault, seed 1: British units walk to their reach cells nearest (31, 30)
    until turn 3's suppressive-fire step, where German infantry and MGs have targets."""
    g = Game(shipped_scenarios()["qr-village-assault"], seed=1)
    while not (g.state.turn == 3 and g.state.phase == "fire_suppressive"):
        side = g.rules.active_sides(g.state)[0]
        if g.state.phase.startswith("move") and side == "britain":
            for uid in ("b-fo", "b-coy", "b-sq6", "b-sq5", "b-churchill"):
                cells = g.reach(side, uid)["cells"]
                best = min(cells, key=lambda c: math.dist(c, (31, 30)))
                g.submit(side, {"type": "move", "unit": uid, "path": [best]})
        g.submit(side, {"type": "end_phase"})
    return g


def test_fire_choices_offer_group_partners_that_the_order_accepts():
    g = village_fire_step()
    shot = {"type": "fire", "unit": "g-hmg", "target": "b-sq5", "suppressive": True}
    assert shot in g.legal_commands("germany")
    choices = g.preview("germany", shot)
    assert choices["group"] == ["g-sq1", "g-sq2", "g-sq3"]
    order = {"type": "fire", "units": ["g-hmg", "g-sq1"], "target": "b-sq5", "suppressive": True}
    g.submit("germany", order)
    fire = next(e for e in reversed(g.events) if e.type == "fire")
    assert fire.data["firers"] == ["g-hmg", "g-sq1"]


def test_weapon_choices_name_each_attack_once_and_an_mg_is_refused_at_armour():
    g = game_at("qr-crossroads-armour", "fire_all")
    shot = {"type": "fire", "unit": "g-panther", "target": "u-m4a"}
    assert g.preview("germany", shot)["weapons"] == ["main"]  # "he" at a tank is the main gun
    with pytest.raises(IllegalCommand) as exc:
        g.submit("germany", {**shot, "weapon": "mg"})
    assert exc.value.field == "weapon" and "armoured" in exc.value.reason


def test_the_plot_step_opens_for_an_observer_with_no_enemy_in_sight():
    """Sheet L4: an observer calls fire on a point it sees; no seen enemy is needed. Before,
    the step ended by itself for a side that saw no enemy (issue 15 item 10)."""
    g = game_at("qr-village-assault", "arty_plot")
    assert g.state.turn == 1 and g.view("britain")["enemies"] == []
    assert set(g.rules.active_sides(g.state)) == {"britain", "germany"}
    cmd = {"type": "call_fire", "observer": "b-fo", "battery": "medium-mortar", "x": 28, "y": 12}
    g.submit("britain", cmd)
    # crossroads has no artillery: its plot step still ends by itself for both sides
    cross = game_at("qr-crossroads-armour", "fire_all")
    assert [e.data.get("auto") for e in cross.events if e.type == "end_phase"][-2:] == [True, True]
