"""Line of sight: hand-computed cases and properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import LineString, box

from kriegsspiel.geometry import (
    Feature,
    Footprint,
    Table,
    line_of_sight,
    line_of_sight_to_footprint,
    visible_many,
)

BLOCKS = {"woods", "building", "wall"}


def table() -> Table:
    return Table(
        60,
        60,
        "in",
        [
            Feature("wood", "woods", box(10, 10, 20, 20), {"density": "thick"}),
            Feature("wall", "wall", LineString([(30, 0), (30, 8)]), {"height": 0.5}),
            Feature("hill", "hill", box(40, 20, 50, 40), {"height": 2}),
            Feature("house", "building", box(2, 40, 6, 44), {"height": 1.5}),
        ],
    )


def test_clear_line():
    r = line_of_sight(table(), (0, 0), (0, 30), BLOCKS)
    assert r.visible and r.blocked_by == () and r.passes_through == ()


def test_blocked_by_a_wood():
    r = line_of_sight(table(), (5, 15), (25, 15), BLOCKS)
    assert not r.visible
    assert r.blocked_by == ("wood",)
    assert r.inside == {"wood": pytest.approx(10)}


def test_wood_not_blocking_reports_passes_through():
    r = line_of_sight(table(), (5, 15), (25, 15), {"building"})
    assert r.visible and r.passes_through == ("wood",)


def test_seen_from_inside_a_woods_edge():
    t = table()
    assert line_of_sight(t, (11, 15), (0, 15), BLOCKS).visible  # observer in the wood
    assert line_of_sight(t, (0, 15), (11, 15), BLOCKS).visible  # target in the wood
    # by default the own wood never blocks, however deep; own_depth limits that
    assert line_of_sight(t, (11, 15), (25, 15), BLOCKS).visible
    assert not line_of_sight(t, (11, 15), (25, 15), BLOCKS, own_depth=1).visible
    # only 1 in of the own wood may be seen through
    assert line_of_sight(t, (11, 15), (0, 15), BLOCKS, own_depth=1).visible
    assert not line_of_sight(t, (12, 15), (0, 15), BLOCKS, own_depth=1).visible
    # see 3 in into any wood near the endpoints
    assert line_of_sight(t, (7.5, 15), (12.5, 15), BLOCKS, see_into=3).visible


def test_low_wall_and_eye_height():
    t = table()
    assert not line_of_sight(t, (25, 4), (35, 4), BLOCKS).visible
    assert line_of_sight(t, (25, 4), (35, 4), BLOCKS, 1.0, 1.0).visible
    # eye 0.6 behind the wall at 5 in, target at 0 at 10 in: line at the wall = 0.6 - 0.6*5/10
    assert not line_of_sight(t, (25, 4), (35, 4), BLOCKS, 0.6, 0.0).visible
    assert line_of_sight(t, (29, 4), (35, 4), BLOCKS, 0.6, 0.0).visible  # 0.6*5/6 = 0.5 ≥ top
    assert line_of_sight(t, (25, 4), (35, 4), BLOCKS, 0.2, 0.0, see_into=5).visible  # inclusive
    assert not line_of_sight(t, (25, 4), (35, 4), BLOCKS, 0.2, 0.0, see_into=4.9).visible


def test_hill_crest_blocks_low_observers_but_not_one_on_the_hill():
    t = table()
    left, right = (35, 30), (55, 30)
    assert not line_of_sight(t, left, right, BLOCKS, 1, 1).visible
    assert line_of_sight(t, left, right, BLOCKS, 1, 1).blocked_by == ("hill",)
    on_hill = (42, 30)  # eye at 3; at the crest 2 in away the line is 3 - 2 * 2/7 > 2
    assert line_of_sight(t, on_hill, left, BLOCKS, 1, 1).visible
    assert line_of_sight(t, left, on_hill, BLOCKS, 1, 1).visible


def test_building_height_and_hill_observer_sees_over_it():
    t = Table(
        60,
        60,
        "in",
        [
            Feature("hill", "hill", box(0, 0, 10, 60), {"height": 3}),
            Feature("house", "building", box(20, 20, 24, 40), {"height": 1.5}),
        ],
    )
    assert not line_of_sight(t, (15, 30), (30, 30), BLOCKS, 1, 1).visible
    assert line_of_sight(t, (8, 30), (30, 30), BLOCKS, 1, 1).visible


def test_to_footprint_centre_or_any_part():
    t = table()
    target = Footprint(15, 23, 4, 4)  # half behind the wood's top edge at y = 20
    assert not line_of_sight_to_footprint(t, (15, 0), target, BLOCKS, mode="centre").visible
    r = line_of_sight_to_footprint(t, (0, 28), target, BLOCKS, mode="any")
    assert r.visible
    hidden = Footprint(15, 15, 1, 1)
    assert line_of_sight_to_footprint(t, (0, 0), hidden, BLOCKS).visible  # target in the wood
    assert not line_of_sight_to_footprint(t, (15, 0), Footprint(15, 30, 2, 2), BLOCKS).visible


@pytest.mark.parametrize(("see_into", "own_depth"), [(0.0, None), (0.0, 1.0), (2.0, None)])
def test_batch_matches_single(see_into, own_depth):
    rng = np.random.default_rng(1)
    a, b = rng.uniform(0, 60, (300, 2)), rng.uniform(0, 60, (300, 2))
    t = table()
    opts = {"see_into": see_into, "own_depth": own_depth}
    batch = visible_many(t, a, b, BLOCKS, 0.5, 0.5, **opts)
    naive = visible_many(t, a, b, BLOCKS, 0.5, 0.5, use_index=False, **opts)
    single = [
        line_of_sight(t, tuple(p), tuple(q), BLOCKS, 0.5, 0.5, **opts).visible
        for p, q in zip(a, b, strict=True)
    ]
    assert batch.tolist() == single == naive.tolist()
    assert 0 < sum(single) < len(single)


pt = st.tuples(st.floats(0, 60), st.floats(0, 60))


@settings(max_examples=200)
@given(pt, pt, st.floats(0, 3))
def test_los_symmetric_with_equal_eye_heights(a, b, eye):
    t = table()
    assert (
        line_of_sight(t, a, b, BLOCKS, eye, eye).visible
        == line_of_sight(t, b, a, BLOCKS, eye, eye).visible
    )


@st.composite
def random_tables(draw) -> Table:
    features = []
    for i in range(draw(st.integers(1, 12))):
        # table coordinates to a thousandth of a unit: agreement at the edge of float
        # precision (a base 1e-305 outside a wood) is not a rules question
        x, y = round(draw(st.floats(0, 50)), 3), round(draw(st.floats(0, 50)), 3)
        w, d = round(draw(st.floats(1, 10)), 3), round(draw(st.floats(1, 10)), 3)
        kind = draw(st.sampled_from(["woods", "building", "wall", "hill", "field"]))
        height = draw(st.none() | st.floats(0.5, 3)) if kind != "hill" else draw(st.floats(1, 3))
        geom = LineString([(x, y), (x + w, y + d)]) if kind == "wall" else box(x, y, x + w, y + d)
        features.append(Feature(f"f{i}", kind, geom, {} if height is None else {"height": height}))
    return Table(60, 60, "in", features)


@settings(max_examples=60, deadline=None)
@given(random_tables(), st.lists(st.tuples(pt, pt), min_size=1, max_size=20), st.floats(0, 2))
def test_batch_fast_path_equals_full_evaluation(t, lines, eye):
    a = np.array([p for p, _ in lines])
    b = np.array([q for _, q in lines])
    batch = visible_many(t, a, b, BLOCKS, eye, eye)
    full = [line_of_sight(t, p, q, BLOCKS, eye, eye).visible for p, q in lines]
    assert batch.tolist() == full
