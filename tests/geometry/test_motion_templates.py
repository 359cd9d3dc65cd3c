"""Paths, pivots, swept footprints, templates and scatter: properties and hand cases."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import Point as SPoint

from kriegsspiel.geometry import Footprint, bearing, in_arc, path_length
from kriegsspiel.geometry.motion import (
    pivot_sweep,
    point_along,
    point_at_fraction,
    swept,
    turns,
)
from kriegsspiel.geometry.templates import (
    cone,
    rectangle,
    ring,
    scatter,
    scatter_bearing,
    scatter_outcomes,
    share_under,
    under,
)

xy = st.tuples(st.floats(-50, 50), st.floats(-50, 50))
paths = st.lists(xy, min_size=1, max_size=5)


def test_point_along_a_hand_path():
    path = [(0, 0), (0, 10), (10, 10)]
    assert point_along(path, 5).point == (0, 5) and point_along(path, 5).heading == 0
    assert point_along(path, 15).point == (5, 10) and point_along(path, 15).heading == 90
    assert point_at_fraction(path, 0.25).point == (0, 5)
    assert point_at_fraction(path, 2).point == (10, 10)  # clamped to the end
    assert point_along(path, -3).point == (0, 0)


@settings(max_examples=80, deadline=None)
@given(paths, st.floats(0, 1))
def test_the_point_at_a_fraction_is_that_far_along(path, f):
    at = point_at_fraction(path, f)
    total = path_length(path)
    assert at.distance == pytest.approx(f * total, abs=1e-6)
    # the way there along the path is as long as the distance it reports
    k = 0
    walked = 0.0
    while k + 1 < len(path) and walked + math.dist(path[k], path[k + 1]) < at.distance - 1e-9:
        walked += math.dist(path[k], path[k + 1])
        k += 1
    assert walked + math.dist(path[k], at.point) == pytest.approx(at.distance, abs=1e-6)


@settings(max_examples=80, deadline=None)
@given(xy, st.floats(0, 359), paths, st.one_of(st.none(), st.floats(0, 359)))
def test_turns_add_up_to_the_change_of_facing(start, facing, path, end):
    fp = Footprint(start[0], start[1], 2, 4, facing)
    ts = turns(fp, path, end)
    assert all(-180 < t <= 180 + 1e-9 for t in ts)
    points = [start, *path]
    legs = [(a, b) for a, b in zip(points, points[1:], strict=False) if math.dist(a, b) > 0]
    final = end if end is not None else (bearing(*legs[-1]) if legs else facing)
    assert (facing + sum(ts) - final) % 360 == pytest.approx(0, abs=1e-6) or (
        facing + sum(ts) - final
    ) % 360 == pytest.approx(360, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(xy, st.floats(0, 359), st.lists(xy, min_size=1, max_size=3), st.floats(0, 359))
def test_a_swept_area_holds_every_position_of_the_move(start, facing, path, end):
    fp = Footprint(start[0], start[1], 2, 4, facing)
    area = swept(fp, path, end)
    assert area.buffer(1e-6).covers(fp.polygon)
    total = path_length([start, *path])
    for f in (0.0, 0.3, 0.5, 0.8, 1.0):
        at = point_along([start, *path], f * total)
        if at.heading is not None:
            pose = fp.moved_to(at.point, at.heading)
            assert area.buffer(1e-6).covers(pose.polygon)
    last = point_along([start, *path], total)
    assert area.buffer(1e-6).covers(fp.moved_to(last.point, end).polygon)


def test_pivot_sweep_of_a_hull():
    hull = Footprint(0, 0, 2, 4, 0)  # 2 across, 4 long
    assert pivot_sweep(hull, 0).area == pytest.approx(8)
    full = pivot_sweep(hull, 180)
    # a half turn sweeps (nearly) the disc its corners trace: radius sqrt(5)
    assert math.pi * 5 * 0.97 < full.area <= math.pi * 5 + 1e-9
    assert swept(hull, [(0, 10)]).area == pytest.approx(2 * 14)  # straight on: a long box


@settings(max_examples=60, deadline=None)
@given(xy, st.floats(0.5, 20), st.floats(0, 0.9), st.floats(0, 1), st.floats(0, 359))
def test_ring_holds_the_points_between_its_radii(c, outer, k, r, b):
    inner = outer * k
    t = ring(c, outer, inner)
    assert t.area == pytest.approx(math.pi * (outer**2 - inner**2), rel=0.01)
    d = inner + (outer - inner) * (0.05 + 0.9 * r)  # well inside the band
    p = (c[0] + math.sin(math.radians(b)) * d, c[1] + math.cos(math.radians(b)) * d)
    assert t.covers(SPoint(p))


@settings(max_examples=60, deadline=None)
@given(xy, st.floats(0, 359), st.floats(5, 80), st.floats(2, 30), xy)
def test_cone_is_the_arc_within_reach(apex, facing, half, length, p):
    c = cone(apex, facing, half, length)
    d = math.dist(apex, p)
    rel = abs((bearing(apex, p) - facing + 180) % 360 - 180)
    if d < length * 0.99 and rel < half - 0.5:
        assert c.covers(SPoint(p))
    if d > length or rel > half + 0.5:
        assert not c.buffer(-1e-9).contains(SPoint(p))
    assert in_arc(apex, facing, c.centroid.coords[0], half)


def test_rectangle_and_what_lies_under_it():
    zone = rectangle((10, 0), 0, 4, 12)  # from (10, 0) 12 up the table, 4 wide
    assert zone.bounds == pytest.approx((8, 0, 12, 12))
    bases = [
        Footprint(10, 6, 1, 1),
        Footprint(12.4, 6, 1, 1),  # overlaps the edge: touched, centre outside
        Footprint(20, 6, 1, 1),
    ]
    assert under(zone, bases) == [0, 1]
    assert under(zone, bases, "centre") == [0]
    assert share_under(zone, bases[1]) == pytest.approx(0.1)
    assert under(zone, []) == []


def test_scatter_on_a_d8_diagram():
    assert scatter_bearing(1, 8) == 0 and scatter_bearing(3, 8) == 90
    assert scatter_bearing(1, 10, reference=270) == 270
    x, y = scatter((0, 0), 3, 8, 4)
    assert (x, y) == pytest.approx((4, 0))
    with pytest.raises(ValueError, match="not on a d8"):
        scatter_bearing(9, 8)


@settings(max_examples=40, deadline=None)
@given(
    xy,
    st.sampled_from([6, 8, 10, 12]),
    st.lists(st.integers(0, 12), min_size=1, max_size=6, unique=True),
)
def test_scatter_outcomes_are_a_distribution(origin, faces, dists):
    each = Fraction(1, len(dists))
    outcomes = scatter_outcomes(origin, faces, [(d, each) for d in dists])
    assert sum(p for _, p in outcomes) == 1
    for at, _ in outcomes:
        assert any(math.dist(origin, at) == pytest.approx(d, abs=1e-6) for d in dists)
    if 0 in dists:  # a hit on the aim point is one outcome
        assert dict(outcomes)[(round(origin[0], 9), round(origin[1], 9))] == each
