"""The board's and the move pricing's shortcuts give the rules' answers (game/board.py,
game/movement.py): the pure-cell grid names the features the spatial index names for any
point, and a cost priced against a limit is past the limit exactly when the full cost is."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import Point

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.registry import entry
from kriegsspiel.rulesets.panzerfaust.game import movement

SHIPPED = sorted(entry("panzerfaust").scenarios.glob("*.yaml"))
GAMES = [Game(load_scenario(p), seed=1) for p in SHIPPED]

xs = st.floats(0, 180, allow_nan=False)
ys = st.floats(0, 120, allow_nan=False)
# whole and tenth centimetres land on cell edges and feature corners
coords = st.one_of(xs, xs.map(round), xs.map(lambda v: round(v, 1)))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(GAMES))), coords, st.one_of(ys, ys.map(round)))
def test_grid_names_the_features_the_index_names(g, x, y):
    board = GAMES[g].state.board
    exact = board.table.tree.query(Point(x, y), predicate="intersects")
    assert board.at(x, y) == tuple(board.features[i] for i in sorted(exact))


def test_grid_has_pure_and_mixed_cells():
    for game in GAMES:
        grid, cols = game.state.board._grid
        cells = [c for row in grid for c in row]
        assert any(c is None for c in cells) and any(c for c in cells)  # both kinds exist


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(range(len(GAMES))),
    st.lists(st.tuples(xs, ys), min_size=2, max_size=4),
    st.floats(0, 60, allow_nan=False),
)
def test_a_limited_cost_is_past_the_limit_exactly_when_the_full_cost_is(g, points, limit):
    state = GAMES[g].state
    start, path = points[0], points[1:]
    full = movement.cost(state, start, path)
    limited = movement.cost(state, start, path, limit)
    assert (limited <= limit) == (full <= limit)
    if full <= limit:
        assert limited == full
    assert full >= sum(map(math.dist, points[:-1], points[1:])) / state.board.max_keep - 1e-9
