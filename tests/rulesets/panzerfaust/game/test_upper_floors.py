"""Sight and fire from upper floors (p8 note 4, P329) and buildings cut into sections (p19,
P328), played on the scenario upper-floors.yaml through the real engine."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import melee_contact, melee_groups, sight
from kriegsspiel.rulesets.panzerfaust.game.board import Board

from .conftest import HERE, to_fire

FLOORS = HERE / "upper-floors.yaml"


def _game(**opts) -> Game:
    return Game(load_scenario(FLOORS), seed=1, options=opts or None)


def test_a_team_three_floors_up_sees_over_the_bocage_that_hides_the_ground_floor_p8():
    """The bocage (height 3) stands 6 cm east of the house: the line from the third floor
    (eye 4) clears it, the one from the ground floor does not; the Soviet team in the open
    does not see the house's upper floor either (inside a building, p8)."""
    st = _game().state
    top, ground, field = (st.elements[i] for i in ("g-top", "g-ground", "s-field"))
    assert sight.sees(st, top, field, {})
    assert not sight.sees(st, ground, field, {})
    assert st.seen["germany"] == ["s-field"]
    assert st.spotted == {"g-top": {"s-field": field.feature}}
    assert "g-top" not in st.seen["ussr"]  # fog: the enemy knows nothing of the house


def test_height_advantage_three_floors_up_is_x1_5_p8_note_4():
    st = _game().state
    top, ground, field = (st.elements[i] for i in ("g-top", "g-ground", "s-field"))
    assert sight.reach(st, top, field) == pytest.approx(1.5 * sight.reach(st, ground, field))
    top.floor = 2  # two floors up: no advantage
    assert sight.reach(st, top, field) == pytest.approx(sight.reach(st, ground, field))


def test_fire_from_the_third_floor_at_the_team_beyond_the_bocage():
    game = _game()
    to_fire(game, "g-top")
    start = len(game.events)
    target = game.state.aliases.alias("germany", "s-field")
    game.submit("germany", {"type": "fire", "unit": "g-top", "target": target})
    types = [e.type for e in game.events[start:]]
    assert "shot" in types, types


def test_building_sections_split_close_combat_p19():
    """The barn is cut in two by a section line at x = 60: the German team in the west end
    and the Soviet team in the east end are in the same building but not in CQC; put into
    one section, they fight whatever the distance (p17)."""
    st = _game().state
    west, east = st.elements["g-west"], st.elements["s-east"]
    barn = melee_contact.building(st, west.x, west.y)
    assert [melee_contact.section(st, barn, e.x, e.y) for e in (west, east)] == [0, 1]
    assert melee_groups.foes(st, west) == []
    east.x = 58.0  # moved into the west section
    st.cache.clear()
    assert melee_groups.foes(st, west) == [east]


def test_a_section_line_that_divides_nothing_is_refused_when_the_game_starts():
    sc = load_scenario(FLOORS)
    bad = sc.model_copy(deep=True)
    barn = next(f for f in bad.terrain if f.id == "barn")
    barn.attributes["sections"] = [[[100, 0], [100, 10]]]
    with pytest.raises(
        ValueError, match="barn: attributes.sections\\[0\\]: the line does not divide"
    ):
        Board(bad)
    barn.attributes["sections"] = [[[60, 55]]]
    with pytest.raises(ValueError, match="at least 2 points"):
        Board(bad)
    bocage = next(f for f in bad.terrain if f.id == "bocage")
    bocage.attributes["sections"] = []
    barn.attributes.pop("sections")
    with pytest.raises(ValueError, match="only a building has sections"):
        Board(bad)


def test_a_section_line_drawn_past_the_walls_is_drawn_inside_them_p340(tmp_path, monkeypatch):
    """The barn's section line runs from y = 55 to 75 across a barn 60 to 70 deep: the view
    sends, and the picture draws, only the stretch inside the walls."""
    from shapely import LineString, Polygon

    from kriegsspiel.render import table as picture

    game = _game()
    barn = Polygon([(40, 60), (80, 60), (80, 70), (40, 70)])
    sent = game.view("ussr")["panzerfaust"]["sections"]
    assert sent == [{"feature": "barn", "line": [[60.0, 60.0], [60.0, 70.0]]}]
    figures = []
    monkeypatch.setattr(picture.plt, "close", figures.append)
    picture.render_view(game.view("germany"), tmp_path / "barn.png")
    (fig,) = figures
    dashed = [ln for ln in fig.axes[0].lines if ln.get_linestyle() == "--"]
    assert [list(zip(*ln.get_data(), strict=True)) for ln in dashed] == [
        [(60.0, 60.0), (60.0, 70.0)]
    ]
    for ln in dashed:
        assert barn.buffer(1e-9).contains(LineString(list(zip(*ln.get_data(), strict=True))))
    monkeypatch.undo()
    picture.plt.close(fig)
