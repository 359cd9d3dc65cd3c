"""The scalar sight path agrees with the vectorised core; quickref's crest rule for hills."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import LineString, Point, box

from kriegsspiel.geometry import (
    Feature,
    SightRules,
    Table,
    line_of_sight,
    sightbatch,
    visible,
    visible_many,
)

BLOCKS = frozenset({"woods", "building", "wall"})


@pytest.fixture(scope="module")
def monkeypatch_once():
    """A monkeypatch that hypothesis' repeated examples may share (undone after the module)."""
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def crest_table() -> Table:
    return Table(40, 20, "in", [Feature("ridge", "hill", box(15, 0, 25, 20), {"height": 1})])


def test_crest_hides_the_low_ground_behind_it():
    t = crest_table()
    # both on the flat (ground 0), eyes 1 high: the line runs at 1 over a crest of 1
    assert not line_of_sight(t, (5, 10), (35, 10), BLOCKS, 1, 1, hills="crest").visible
    # under the default rule a crest blocks only a line strictly below its top
    assert line_of_sight(t, (5, 10), (35, 10), BLOCKS, 1, 1).visible
    # eyes 0.5: blocked under both rules
    assert not line_of_sight(t, (5, 10), (35, 10), BLOCKS, 0.5, 0.5).visible


def test_crest_never_hides_from_an_end_on_the_hill():
    t = crest_table()
    # the observer stands on the hill (ground 1): nothing behind the crest is hidden from it
    assert line_of_sight(t, (16, 10), (39, 10), BLOCKS, 0.5, 0.5, hills="crest").visible
    rules = SightRules(BLOCKS, hills="crest")
    assert visible(t, (16, 10), (39, 10), rules, 0.5, 0.5)
    assert visible(t, (39, 10), (16, 10), rules, 0.5, 0.5)
    assert not visible(t, (1, 10), (39, 10), rules, 0.5, 0.5)


def random_table(seed: int, n: int = 40) -> Table:
    rng = np.random.default_rng(seed)
    features = []
    for i in range(n):
        x, y = (float(v) for v in rng.integers(0, 30, 2))
        kind = str(rng.choice(["woods", "building", "wall", "hill", "field"]))
        if kind == "wall":
            geom = LineString(
                [(x, y), (x + float(rng.integers(1, 6)), y + float(rng.integers(-3, 4)))]
            )
            attrs = {"height": 0.5}
        elif kind == "building":
            geom = box(x, y, x + float(rng.integers(1, 4)), y + float(rng.integers(1, 4)))
            attrs = {"height": float(rng.integers(1, 3))}
        elif kind == "hill":
            geom = Point(x, y).buffer(float(rng.integers(2, 6)), quad_segs=3)
            attrs = {"height": float(rng.integers(1, 3))}
        elif kind == "woods" and i % 3:  # concave: a U (a line may cross it four times)
            w = float(rng.integers(3, 7))  # or a square with a clearing (a hole)
            inner = box(x + 1, y + 1, x + w - 1, y + w + (1 if i % 3 == 1 else -1))
            geom = box(x, y, x + w, y + w).difference(inner)
            attrs = {}
        else:
            geom = Point(x, y).buffer(float(rng.integers(1, 4)), quad_segs=2)
            attrs = {}
        features.append(Feature(f"f{i}", kind, geom, attrs))
    return Table(30, 30, "in", features)


coord = st.one_of(
    st.floats(0, 30, allow_nan=False), st.integers(0, 30).map(float)
)  # whole inches: on vertices and edges


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 5),
    pts=st.lists(st.tuples(coord, coord, coord, coord), min_size=1, max_size=30),
    eyes=st.tuples(st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([0.0, 0.5, 1.0])),
    kw=st.sampled_from(
        [
            {},
            {"hills": "crest"},
            {"see_into": 1.0},
            {"own_depth": 1.5},
            {"see_into": 0.5, "hills": "crest"},
        ]
    ),
    rounds=st.sampled_from([0, 4096]),
)
def test_single_checks_agree_with_the_batch(seed, pts, eyes, kw, rounds, monkeypatch_once):
    """The scalar path, the array batch (in one round or likeliest blocker first) and the
    naive core (every line against every feature, no index) agree, hills and crests too."""
    monkeypatch_once.setattr(sightbatch, "ROUNDS", rounds)
    t = random_table(seed)
    a = np.array([p[:2] for p in pts])
    b = np.array([p[2:] for p in pts])
    batch = visible_many(t, a, b, BLOCKS, eyes[0], eyes[1], **kw)
    core = visible_many(t, a, b, BLOCKS, eyes[0], eyes[1], use_index=False, **kw)
    rules = SightRules(BLOCKS, **kw)
    single = [visible(t, p[:2], p[2:], rules, *eyes) for p in pts]
    assert single == batch.tolist() == core.tolist()


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 5),
    pts=st.lists(st.tuples(coord, coord, coord, coord), min_size=1, max_size=40),
    chunk=st.sampled_from([7, 10**9]),
)
def test_plain_blockers_settle_lines_as_the_core_does(seed, pts, chunk, monkeypatch_once):
    """Woods and hills read as flat blockers (as the quickref bot reads them): the array
    path decides nearly every line, in one pass or in many small ones, as the core does."""
    t = random_table(seed)
    flat = Table(30, 30, "in", t.features, hill_kinds=())
    kinds = frozenset({"woods", "hill"})
    a = np.array([p[:2] for p in pts])
    b = np.array([p[2:] for p in pts])
    monkeypatch_once.setattr(sightbatch, "CHUNK", chunk)
    fast = visible_many(flat, a, b, kinds)
    assert fast.tolist() == visible_many(flat, a, b, kinds, use_index=False).tolist()


def test_the_scalar_path_decides_most_lines_itself():
    t = random_table(1)
    lines = SightRules(BLOCKS, hills="crest").lines(t)
    rng = np.random.default_rng(3)
    answers = [
        lines.visible(tuple(rng.uniform(0, 30, 2)), tuple(rng.uniform(0, 30, 2)), 0.5, 0.5)
        for _ in range(500)
    ]
    decided = [x for x in answers if x is not None]
    assert len(decided) > 450 and set(decided) == {True, False}


def test_the_batch_decides_most_lines_itself():
    """Hills, tall buildings and walls are settled in array arithmetic too: only lines that
    graze an edge or tie a height go to the exact core."""
    t = random_table(2)
    rng = np.random.default_rng(5)
    a, b = rng.uniform(0, 30, (2000, 2)), rng.uniform(0, 30, (2000, 2))
    for kw in ({}, {"hills": "crest"}, {"see_into": 1.0, "own_depth": 1.5}):
        lines = SightRules(BLOCKS, **kw).lines(t)
        seen, decided = lines.batch.decide(a, b, np.full(2000, 0.5), np.full(2000, 1.0))
        assert decided.mean() > 0.97
        assert 0.05 < seen[decided].mean() < 0.95
