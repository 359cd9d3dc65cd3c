"""Table queries: point/footprint lookups, segment and path crossings, the spatial index."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import LineString, Point, box

from kriegsspiel.geometry import Feature, Footprint, Table, blocking_predicate


def small_table() -> Table:
    return Table(
        48,
        48,
        "in",
        [
            Feature("wood", "woods", box(10, 10, 20, 20), {"density": "thin"}),
            Feature("hedge", "hedge", LineString([(25, 0), (25, 48)])),
            Feature("hill1", "hill", box(30, 30, 48, 48), {"height": 1, "level": 1}),
            Feature("hill2", "hill", box(38, 38, 46, 46), {"height": 2, "level": 2}),
        ],
    )


def test_features_at_point_and_under_footprint():
    table = small_table()
    assert [f.id for f in table.features_at((15, 15))] == ["wood"]
    assert [f.id for f in table.features_at((40, 40))] == ["hill1", "hill2"]
    under = table.features_under(Footprint(24.5, 20, 2, 2))
    assert [f.id for f in under] == ["hedge"]


def test_ground_height_is_highest_hill():
    table = small_table()
    assert table.ground_height((5, 5)) == 0
    assert table.ground_height((32, 32)) == 1
    assert table.ground_height((40, 40)) == 2


def test_path_length_inside_a_wood():
    table = small_table()
    path = [(0, 15), (15, 15), (15, 25), (30, 25)]  # 5 in along, 5 in up: 10 in the wood
    crossings = table.path_crossings(path)
    assert [c.feature.id for c in crossings] == ["wood", "hedge"]
    wood, hedge = crossings
    assert wood.length == pytest.approx(10)
    assert wood.crossings == 1
    assert (hedge.length, hedge.crossings) == (0.0, 1)


def test_segment_crossings_from_inside_do_not_count_entering():
    table = small_table()
    (wood,) = table.crossings((15, 15), (15, 5))
    assert wood.length == pytest.approx(5)
    assert wood.crossings == 0


def test_re_entering_a_feature_counts_twice():
    table = Table(
        20, 20, "cm", [Feature("u", "woods", box(0, 0, 10, 10).difference(box(4, 0, 6, 8)))]
    )
    (c,) = table.crossings((-1, 5), (11, 5))
    assert c.crossings == 2
    assert c.length == pytest.approx(8)


def test_blocking_predicate_from_kinds_or_callable():
    wood = small_table().by_id["wood"]
    assert blocking_predicate({"woods"})(wood)
    assert not blocking_predicate(lambda f: f.attributes.get("density") == "thick")(wood)


def test_duplicate_ids_rejected():
    f = Feature("x", "woods", box(0, 0, 1, 1))
    with pytest.raises(ValueError):
        Table(10, 10, "in", [f, f])


boxes = st.tuples(st.floats(0, 90), st.floats(0, 90), st.floats(0.5, 10), st.floats(0.5, 10)).map(
    lambda t: box(t[0], t[1], t[0] + t[2], t[1] + t[3])
)


@settings(max_examples=50)
@given(
    st.lists(boxes, min_size=1, max_size=30),
    st.tuples(st.floats(0, 100), st.floats(0, 100), st.floats(0, 100), st.floats(0, 100)),
)
def test_index_query_equals_naive(geoms, seg):
    table = Table(100, 100, "in", [Feature(str(i), "woods", g) for i, g in enumerate(geoms)])
    line = LineString([seg[:2], seg[2:]]) if seg[:2] != seg[2:] else Point(seg[:2])
    expected = [f.id for f in table.features if f.geometry.intersects(line)]
    assert [f.id for f in table.query(line)] == expected


def test_clip_lines_keeps_only_what_lies_inside_the_area():
    """A building's section line drawn past its walls stops at them; a line leaving a
    U-shaped area and coming back is two parts; one that meets it at a point only is nothing."""
    from kriegsspiel.geometry import clip_lines

    barn = [(40, 60), (80, 60), (80, 70), (40, 70)]
    assert clip_lines(barn, [[(60, 55), (60, 75)]]) == [[(60.0, 60.0), (60.0, 70.0)]]
    assert clip_lines(barn, [[(30, 50), (40, 60), (30, 70)], [(60, 65)]]) == []
    u = [(0, 0), (30, 0), (30, 20), (20, 20), (20, 10), (10, 10), (10, 20), (0, 20)]
    assert clip_lines(u, [[(-5, 15), (35, 15)]]) == [[(0.0, 15.0), (10.0, 15.0)],
                                                     [(20.0, 15.0), (30.0, 15.0)]]  # fmt: skip
