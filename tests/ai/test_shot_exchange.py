"""The quickref bot's weighing of positions (issue 5 item 2): exact odds of shots not yet taken,
facing, unseen guns in concealing terrain, the last turn, and routes around closed ground."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.ai.quickref import plan as plan_module
from kriegsspiel.ai.quickref.bot import QuickrefBot
from kriegsspiel.ai.quickref.plan import Reach, destinations
from kriegsspiel.ai.quickref.shot_odds import ShotOdds, aspect_from
from kriegsspiel.ai.quickref.terrain import ViewTerrain, _segments_meet, view_terrain
from kriegsspiel.engine import Game
from kriegsspiel.engine.scenario import find_scenario
from kriegsspiel.rulesets.quickref.game.geometry_helpers import aspect
from kriegsspiel.rulesets.quickref.game.state import Unit

from . import exchange_reference as reference

VALUES = {"ko": 1.0, "damaged": 0.45, "tracked": 0.3}


def _unit(x: float, y: float, facing: float = 0.0) -> Unit:
    return Unit("u", "s", "t", "vehicle", "u", x, y, facing)


@given(
    st.floats(0, 48),
    st.floats(0, 36),
    st.floats(0, 48),
    st.floats(0, 36),
    st.floats(0, 359.9),
)
def test_aspect_from_positions_is_the_engines_aspect(fx, fy, tx, ty, facing):
    firer, target = _unit(fx, fy), _unit(tx, ty, facing)
    assert aspect_from((fx, fy), (tx, ty), facing, 45.0) == aspect(firer, target, 45.0)


def test_worth_is_the_exact_odds_weighted_by_outcome_values():
    shots = ShotOdds(VALUES)
    # M4 at a Pz IV H's side within the short band (L6): to-hit 8 on 1d10 -> 0.8, then the
    # Tank Hit Effect of pen 7 - side 5: ko 0.56, damaged 0.24 of all shots (odds CLI)
    got = shots.worth("usa/m4-medium-tank", "ger/pzkw-iv-h", 8, "side")
    assert got == pytest.approx(0.56 * 1.0 + 0.24 * 0.45)
    # the Panther's front shrugs the 75mm off: only 'ineffective'/'tracked' results remain
    front = shots.worth("usa/m4-medium-tank", "ger/pzkw-v", 8, "front")
    assert front == pytest.approx(0.16 * 0.3)
    # a gun that moved over half its move may not fire (Q6); beyond the long band: nothing
    assert (
        shots.worth("usa/m4-medium-tank", "ger/pzkw-iv-h", 8, "side", firer_moved="over_half") == 0
    )
    assert shots.worth("usa/m4-medium-tank", "ger/pzkw-iv-h", 60, "side") == 0
    # the range enters only through its band: every range in the short band is one answer
    assert {shots.worth("ger/pzkw-v", "usa/m4-medium-tank", r, "front") for r in (2, 9, 21)} == {
        shots.worth("ger/pzkw-v", "usa/m4-medium-tank", 21, "front")
    }


_EXAMPLES = itertools.count()
_TYPES = ("usa/m4-medium-tank", "ger/pzkw-iv-h", "ger/pzkw-v", "ger/stug-iii-g")
_KEYS = st.tuples(
    st.sampled_from(_TYPES),
    st.sampled_from(_TYPES),
    st.booleans(),
    st.sampled_from(("none", "half", "over_half")),
    st.sampled_from((None, "hills", "woods")),
)


@given(st.lists(st.lists(_KEYS, min_size=1, max_size=6), min_size=1, max_size=4))
def test_stacked_rows_are_each_keys_table_padded(calls):
    """Keys repeated within a call and across calls (rows are added as keys first appear)."""
    # a values dict of its own gets a stack of its own: every example starts empty
    shots = ShotOdds({"ko": 1.0, "damaged": 0.5, "tracked": 0.25, "example": next(_EXAMPLES)})
    for keys in calls:
        limits, worth = shots.stacked(tuple(keys))
        for row, (firer, target, moved, firer_moved, cover) in enumerate(keys):
            lim, w = shots.table(
                firer, target, target_moved=moved, firer_moved=firer_moved, cover=cover
            )
            assert limits[row, : len(lim)].tolist() == lim.tolist()
            assert (limits[row, len(lim) :] == np.inf).all()
            assert worth[row, :, : len(lim)].tolist() == w[:, : len(lim)].tolist()
            assert (worth[row, :, len(lim) :] == 0).all()


def test_segment_test_inlined_agrees_with_the_reference():
    vt = ViewTerrain([f.model_dump() for f in find_scenario("qr-village-assault").terrain])
    rng = random.Random(5)
    for _ in range(3000):
        a = (rng.uniform(0, 48), rng.uniform(0, 36))
        b = (round(rng.uniform(0, 48)), round(rng.uniform(0, 36)))  # integers: collinear cases
        for p in vt.patches:
            x0, y0, x1, y1 = p.box
            apart = max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1
            apart = apart or max(a[1], b[1]) < y0 or min(a[1], b[1]) > y1
            ref = not apart and any(
                _segments_meet(a, b, p.ring[i - 1], p.ring[i]) for i in range(len(p.ring))
            )
            assert p.meets_boundary(a, b) == ref


def test_distances_and_containment_in_batches_are_the_scalar_ones():
    vt = ViewTerrain([f.model_dump() for f in find_scenario("qr-village-assault").terrain])
    rng = random.Random(7)
    pts = [(rng.uniform(-2, 50), rng.uniform(-2, 38)) for _ in range(400)]
    pts += [(float(round(x)), float(round(y))) for x, y in pts[:100]]  # on vertices and edges
    for p in vt.patches:
        inside = p.contains_many(np.asarray(pts))
        far = p.distances(np.asarray(pts))
        assert inside.tolist() == [p.contains(q) for q in pts]
        assert far == pytest.approx([p.distance(q) for q in pts], abs=1e-12)
    assert any(p.contains(q) for p in vt.patches for q in pts)
    every = vt.concealing_distances(np.asarray(pts))  # all concealing patches at once
    for k, p in enumerate(vt.concealing):
        assert every[:, k].tolist() == p.distances(np.asarray(pts)).tolist()


@pytest.mark.parametrize("sid", ["qr-village-assault", "qr-crossroads-armour"])
def test_sight_matrix_is_the_pairwise_sight(sid):
    vt = ViewTerrain([f.model_dump() for f in find_scenario(sid).terrain])
    rng = random.Random(11)
    corners = [q for p in vt.blockers for q in p.ring]
    frm = [(rng.uniform(0, 48), rng.uniform(0, 36)) for _ in range(60)] + corners[:20]
    to = [(float(rng.randint(0, 48)), float(rng.randint(0, 36))) for _ in range(30)]
    matrix = vt.los_matrix(np.asarray(frm), np.asarray(to))
    assert matrix.tolist() == [[vt.los(a, b) for b in to] for a in frm]
    assert matrix.any() and not matrix.all()
    want = np.asarray([[rng.random() < 0.5 for _ in to] for _ in frm])
    some = vt.los_matrix(np.asarray(frm), np.asarray(to), want)
    assert (some == (matrix | ~want)).all()  # only the wanted pairs are worked out
    for _ in range(2):  # few pairs go through the memo of pairs: once worked out, then read
        for k in range(0, 80, 8):
            few = vt.los_matrix(np.asarray(frm[k : k + 8]), np.asarray(to[:10]))
            assert few.tolist() == matrix[k : k + 8, :10].tolist()


def test_route_goes_round_the_hamlet_and_the_engine_accepts_it():
    """From behind the hamlet wall no straight line reaches the crossroads; the route finds
    the road between the buildings, and a real game takes it as a legal move."""
    game = Game(find_scenario("qr-crossroads-armour"), seed=1)
    sc = game.scenario
    vt = view_terrain([f.model_dump() for f in sc.terrain])
    start, goal = (30.0, 12.0), (26.0, 19.5)
    assert vt.path_limit([start, goal], True, 10.0, 0.0) is None  # through hamlet-2
    pts, length = vt.route(start, goal, 48, 36, True, 10.0, 0.0)
    assert pts and math.dist(pts[-1], goal) < math.dist(start, goal) - 3
    limit = vt.path_limit([start, *pts], True, 10.0, 0.0)
    assert limit is not None and length <= limit
    assert length == pytest.approx(sum(map(math.dist, [start, *pts], pts)))
    # play it: put a Sherman there in the move step and give the routed path
    state = game.state
    u = state.units["u-m4b"]
    u.x, u.y = start
    while state.phase not in ("move_a1", "move_b") or "usa" not in game.rules.active_sides(state):
        side = game.rules.active_sides(state)[0]
        cmd = {"type": "end_phase"}
        if state.phase == "initiative" and side == state.initiative_winner and not state.side_a:
            cmd = {"type": "initiative", "side_a": "germany"}
        game.submit(side, cmd)
        state = game.state
    half = 5.0 if state.phase == "move_a1" else 10.0
    pts, _ = vt.route(start, goal, 48, 36, True, half, 0.0)
    game.submit("usa", {"type": "move", "unit": "u-m4b", "path": [list(p) for p in pts]})
    assert (game.state.units["u-m4b"].x, game.state.units["u-m4b"].y) == pts[-1]


@settings(deadline=None)  # the first call builds the travel-distance grid
@given(
    st.tuples(st.floats(0, 48), st.floats(0, 36)),
    st.booleans(),
    st.floats(1.0, 12.0),
    st.lists(st.tuples(st.floats(0, 48), st.floats(0, 36)), max_size=3),
    st.booleans(),
)
def test_destinations_reach_no_further_than_allowed_and_withdraw_away(
    here, vehicle, cap, enemies, withdraw
):
    """Every straight-line destination is within the unit's allowance along a path the terrain
    allows it that far (`reach`); withdrawing, none is nearer any enemy; the process memo
    returns what a fresh walk gives; the rows and their cover are the paths' ends'."""
    vt = view_terrain([f.model_dump() for f in find_scenario("qr-village-assault").terrain])
    unit = Reach(here, vehicle, cap, 0.0)
    goals, table = ((24.0, 18.0),), (48.0, 36.0)
    contact = () if vehicle or withdraw else tuple(enemies)
    away = tuple(enemies) if withdraw else None
    ground = destinations(vt, unit, goals, table, contact, away)
    got = ground.paths
    plan_module._DESTS.clear()
    assert destinations(vt, unit, goals, table, contact, away).paths == got
    assert ground.rows.tolist() == [list(here), *(list(p[-1]) for p, _ in got)]
    assert ground.cover().tolist() == [vt.cover(x, y, vehicle) for x, y in ground.rows.tolist()]
    for path, length in got:
        if len(path) == 1 and path[0] not in contact:
            end = path[0]
            assert length == pytest.approx(math.dist(here, end))
            assert length <= vt.reach(here, end, vehicle, cap, 0.0) + 1e-6
        if withdraw:
            assert all(math.dist(path[-1], e) >= math.dist(here, e) for e in enemies)


def _view(turn: int, phase: str, units, enemies, terrain=(), objectives=()):
    return {
        "you": "usa",
        "turn": turn,
        "turn_limit": 8,
        "phase": phase,
        "table": {"width": 48, "depth": 36},
        "terrain": list(terrain),
        "objectives": list(objectives),
        "units": units,
        "enemies": enemies,
        "last_known": [],
    }


SHERMAN = {
    "id": "m4",
    "type": "usa/m4-medium-tank",
    "kind": "vehicle",
    "x": 10.0,
    "y": 10.0,
    "facing": 0.0,
    "moved_this_turn": 0.0,
}
PANTHER = {"id": "pz", "type": "ger/pzkw-v", "kind": "vehicle", "x": 30.0, "y": 10.0, "facing": 270}


def test_sight_kept_on_destination_lists_is_sight_worked_out_afresh():
    """`_sight` with the grounds of the rows keeps each ground's sight from each enemy
    position and reads it again: as enemies come, go and move, every answer is the one worked
    out afresh, and a position met before is not worked out again."""
    sc = find_scenario("qr-village-assault")
    terrain = [f.model_dump() for f in sc.terrain]
    vt = view_terrain(terrain)
    bot = QuickrefBot("balanced")
    grounds = [
        destinations(vt, Reach(here, False, 6.0, 0.0), ((24.0, 18.0),), (48.0, 36.0))
        for here in [(6.0, 4.0), (20.0, 8.0), (30.0, 30.0)]
    ]
    rows = np.concatenate([g.rows for g in grounds])
    rng = random.Random(3)
    spots = [(rng.uniform(0, 48), rng.uniform(0, 36)) for _ in range(6)]
    for picture in ([0, 1], [1, 2, 3], [0, 3], [4, 5, 0], [2]):
        enemies = [
            {"id": f"e{k}", "kind": "infantry", "x": spots[k][0], "y": spots[k][1]} for k in picture
        ]
        view = _view(2, "move_b", [], enemies, terrain)
        kept = bot._sight(view, rows, grounds)
        fresh = bot._sight(view, rows)
        assert kept.seen.tolist() == fresh.seen.tolist()
        assert kept.dist.tolist() == fresh.dist.tolist()
    assert all(set(g.seen) == set(spots) for g in grounds)
    assert kept.seen.any() and not kept.seen.all()


def _exchange(bot, view, u, pos, moved):
    """The batched exchange at one destination: (score, why, facing)."""
    x = bot._exchange(view, [u], np.zeros(1, dtype=int), [moved], bot._sight(view, [pos]))
    return float(x.score[0]), x.why(0), float(x.facing[0])


def test_exchange_turns_the_front_to_the_threat_and_counts_the_shots():
    bot = QuickrefBot("balanced")
    view = _view(2, "move_b", [SHERMAN], [PANTHER])
    bot.decide(view, [{"type": "end_phase"}], lambda c: {})
    score, why, facing = _exchange(bot, view, SHERMAN, (12.0, 10.0), "half")
    assert facing == pytest.approx(90.0)  # nose towards the Panther, due east
    shots = bot.shots
    threat = shots.worth("ger/pzkw-v", "usa/m4-medium-tank", 18, "front", target_moved=True)
    shot = shots.worth("usa/m4-medium-tank", "ger/pzkw-v", 18, "front", firer_moved="half")
    p = bot.profile
    assert score == pytest.approx(p.kill * shot * 1.5 - p.loss * threat * 1.5)
    assert "threat" in why


def test_no_fire_follows_the_last_turns_move():
    bot = QuickrefBot("balanced")
    view = _view(8, "move_b", [SHERMAN], [PANTHER])
    bot.decide(view, [{"type": "end_phase"}], lambda c: {})
    assert bot._fire_ahead(view) == 0.0
    assert _exchange(bot, view, SHERMAN, (12.0, 10.0), "half")[0] == 0.0
    earlier = _view(7, "move_b", [SHERMAN], [PANTHER])
    assert bot._fire_ahead(earlier) == 1.0
    assert bot._fire_ahead(_view(8, "fire_all", [SHERMAN], [PANTHER])) == 1.0


def test_moved_state_follows_the_half_move_line():
    view = _view(3, "move_b", [SHERMAN], [])
    states = QuickrefBot._moved_states(view, SHERMAN, 10.0, np.asarray([0.0, 5.0, 5.5]))
    assert states == ["none", "half", "over_half"]
    a1 = _view(3, "move_a1", [SHERMAN], [])
    assert QuickrefBot._moved_states(a1, SHERMAN, 5.0, np.asarray([5.0])) == ["half"]  # A's 1st
    # a unit that already moved 4" of its 10" this turn: 1" more is still within half
    went = dict(SHERMAN, moved_this_turn=4.0)
    assert QuickrefBot._moved_states(view, went, 6.0, np.asarray([1.0, 1.5])) == [
        "half",
        "over_half",
    ]


WOODS = {
    "id": "woods",
    "kind": "woods",
    "height": 3,
    "polygon": [[20, 4], [26, 4], [26, 16], [20, 16]],
}


def test_unseen_guns_are_suspected_in_woods_not_yet_looked_into():
    bot = QuickrefBot("balanced")
    far = dict(SHERMAN, x=2.0, y=10.0)
    view = _view(2, "move_b", [far], [PANTHER], terrain=[WOODS])
    bot.decide(view, [{"type": "end_phase"}], lambda c: {})
    assert "woods" not in bot._scouted
    assert reference.suspects(bot, view, far, (14.0, 10.0), 90.0, "half") > 0
    assert _suspects(bot, view, far, (14.0, 10.0), 90.0) > 0
    near = dict(SHERMAN, x=15.0, y=10.0)  # within 10" of the woods: looked into
    view = _view(2, "move_b", [near], [PANTHER], terrain=[WOODS])
    bot.decide(view, [{"type": "end_phase"}], lambda c: {})
    assert "woods" in bot._scouted
    assert reference.suspects(bot, view, near, (14.0, 10.0), 90.0, "half") == 0
    assert _suspects(bot, view, near, (14.0, 10.0), 90.0) == 0


def _suspects(bot, view, u, pos, facing) -> float:
    rows = np.asarray([pos])
    return float(bot._suspects(view, [u["type"]], rows, np.asarray([[facing]]), [True])[0, 0])


HEDGES = [
    WOODS,
    {"id": "farm", "kind": "building", "polygon": [[30, 20], [34, 20], [34, 24], [30, 24]]},
    {"id": "hill", "kind": "hill", "height": 2, "polygon": [[5, 22], [15, 22], [15, 30], [5, 30]]},
]
STUART = "usa/m5-light-tank"
TIGER = dict(PANTHER, id="tg", type="ger/pzkw-vi", x=40.0, y=30.0, facing=200.0)


@given(
    st.lists(st.tuples(st.floats(0, 48), st.floats(0, 36)), min_size=1, max_size=12),
    st.floats(0, 359.9),
    st.sampled_from(["none", "half", "over_half"]),
    st.integers(2, 8),
)
def test_batched_exchange_is_the_one_at_a_time_reference(dests, facing, moved, turn):
    """Every destination's score, shot, threat and facing as the plain-Python oracle works
    them out, for the destinations of two units of different types weighed together (known
    enemies seen or hidden by woods, a building and a hill, unseen guns in the woods, the
    enemy's shots shared, the last turn)."""
    bot = QuickrefBot("balanced")
    me = dict(SHERMAN, facing=facing)
    friend = dict(SHERMAN, id="m4b", type=STUART, x=26.0, y=26.0, facing=300.0)
    view = _view(turn, "move_b", [me, friend], [PANTHER, TIGER], terrain=HEDGES)
    bot.decide(view, [{"type": "end_phase"}], lambda c: {})
    bot._scouted.discard("woods")
    owner = np.arange(len(dests)) % 2  # alternate rows: mine, the friend's
    units = [me, friend]
    batch = bot._exchange(view, units, owner, [moved] * len(dests), bot._sight(view, dests))
    for i, pos in enumerate(dests):
        u = units[owner[i]]
        score, shot, threat, face = reference.exchange(bot, view, u, pos, moved)
        assert batch.score[i] == pytest.approx(score, abs=1e-9)
        assert batch.shot[i] == pytest.approx(shot, abs=1e-9)
        assert batch.threat[i] == pytest.approx(threat, abs=1e-9)
        assert batch.facing[i] == pytest.approx(face, abs=1e-6)
