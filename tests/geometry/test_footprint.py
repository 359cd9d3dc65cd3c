"""Footprints: hand-computed distances, arcs at exact boundaries, movement; invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.geometry import (
    Footprint,
    Unit,
    aspect,
    bearing,
    convert,
    distance,
    in_arc,
    move_along,
    relative_bearing,
    turn_needed,
)

coord = st.floats(-100, 100, allow_nan=False)
size = st.floats(0.1, 10, allow_nan=False)
angle = st.floats(0, 360, allow_nan=False, exclude_max=True)
footprints = st.builds(Footprint, coord, coord, size, size, angle)


def test_units_convert():
    assert convert(1, Unit.INCH, Unit.CM) == pytest.approx(2.54)
    assert convert(25.4, "cm", "in") == pytest.approx(10)


def test_bearing_convention_is_compass():
    assert bearing((0, 0), (0, 1)) == pytest.approx(0)
    assert bearing((0, 0), (1, 0)) == pytest.approx(90)
    assert bearing((0, 0), (0, -1)) == pytest.approx(180)
    assert bearing((0, 0), (-1, 0)) == pytest.approx(270)
    assert relative_bearing((0, 0), 350, (1, 1)) == pytest.approx(55)


def test_polygon_of_a_turned_hull():
    hull = Footprint(0, 0, width=2, depth=4, facing=90)  # long axis along +x
    minx, miny, maxx, maxy = hull.polygon.bounds
    assert (minx, miny, maxx, maxy) == pytest.approx((-2, -1, 2, 1))


def test_edge_to_edge_distance_of_rotated_bases():
    diamond = Footprint(0, 0, 2, 2, facing=45)  # corner reaches x = sqrt(2)
    square = Footprint(5, 0, 2, 2, facing=0)  # near edge at x = 4
    assert distance(diamond, square) == pytest.approx(4 - math.sqrt(2))
    other = square.turned(45)  # corners meet corners
    assert distance(diamond, other) == pytest.approx(5 - 2 * math.sqrt(2))
    assert distance(diamond, Footprint(1, 0, 2, 2)) == 0.0


@pytest.mark.parametrize(
    ("shooter", "expected"),
    [
        ((0, 5), "front"),
        ((5, 5), "front"),  # exactly 45 degrees: the boundary counts as front
        ((-5, 5), "front"),
        ((5, 4.99), "side"),
        ((5, 0), "side"),
        ((5, -5), "rear"),  # exactly 135 degrees: boundary counts as rear
        ((-5, -4.99), "side"),
        ((0, -5), "rear"),
    ],
)
def test_aspect_at_arc_boundaries(shooter, expected):
    assert aspect(shooter, Footprint(0, 0, 2, 3, facing=0)) == expected


def test_aspect_with_configurable_arcs_and_turned_target():
    target = Footprint(0, 0, 2, 3, facing=90)  # facing +x
    assert aspect((5, 0), target) == "front"
    assert aspect((0, 5), target) == "side"
    assert aspect((0, 5), target, front_half_angle=90) == "front"
    assert aspect((-5, 1), target, rear_half_angle=10) == "side"
    assert aspect((-5, 0), target, rear_half_angle=10) == "rear"


def test_in_arc_for_a_turret():
    assert in_arc((0, 0), 90, (10, 10), half_angle=45)
    assert not in_arc((0, 0), 90, (10, 10.1), half_angle=45)
    assert in_arc((0, 0), 0, (0, -1), half_angle=180)


def test_move_along_path_and_turn():
    tank = Footprint(0, 0, 3, 5, facing=0)
    moved, length = move_along(tank, [(0, 4), (3, 8)])
    assert length == pytest.approx(9)
    assert moved.centre == (3, 8)
    assert moved.facing == pytest.approx(bearing((0, 4), (3, 8)))
    kept, _ = move_along(tank, [(0, -2)], face_direction=False)  # reversing
    assert kept.facing == 0
    assert turn_needed(tank, (-1, 0)) == pytest.approx(-90)
    assert tank.turned(-90).facing == pytest.approx(270)


@given(footprints, footprints)
def test_distance_symmetric_and_non_negative(a, b):
    d = distance(a, b)
    assert d >= 0
    assert d == pytest.approx(distance(b, a), abs=1e-9)


@given(footprints, st.floats(0.5, 50), st.floats(-44, 44))
def test_shooter_in_front_sees_front(target, r, offset):
    theta = math.radians(target.facing + offset)
    shooter = (target.x + r * math.sin(theta), target.y + r * math.cos(theta))
    assert aspect(shooter, target) == "front"
