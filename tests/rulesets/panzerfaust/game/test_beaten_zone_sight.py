"""Sight through a battery's beaten zone (p8, modifier note 5; decision P314), through the
game: the German 105 mm battery (two pairs, four guns) map-fires on the British line at
(90, 22) in turn 1 (support.yaml); lines of sight through its 12 cm zone see half as far that
turn; a mortar's zone does not halve sight, nor does a two-gun battery's."""

from __future__ import annotations

import math

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.scenario import Scenario
from kriegsspiel.rulesets.panzerfaust.game import beaten_sight, sight

from .test_artillery import MORTAR, SUPPORT, scenario
from .test_support import advance


def _pair(g: Game):
    st = g.state
    return st.elements["g-fao"], st.elements["b-inf-2"]  # 56.8 cm apart, across the zone


def test_p8_a_line_through_a_four_gun_batterys_zone_sees_half_as_far():
    g = Game(scenario(), seed=3)
    fao, rifles = _pair(g)
    assert math.dist((fao.x, fao.y), (rifles.x, rifles.y)) > 50
    full = sight.reach(g.state, fao, rifles)
    assert sight.sees(g.state, fao, rifles, {})  # before the fire: 56.8 cm is in range
    advance(g, "F", 1)
    (zone,) = beaten_sight.zones(g.state)
    assert zone == (90.0, 22.0, 12)
    assert sight.reach(g.state, fao, rifles) == full / 2
    assert not sight.sees(g.state, fao, rifles, {})  # a fresh look sees only 50 cm
    # a line that misses the zone keeps its range
    tank = g.state.elements["b-tk-1"]
    assert not beaten_sight.through(g.state, (fao.x, fao.y), (tank.x, tank.y))
    assert sight.reach(g.state, fao, tank) == sight.reach(g.state, fao, tank, False)
    # p8: once spotted, a target stays spotted while it stays in sight and in its feature
    assert "b-inf-2" in g.state.seen["germany"]
    advance(g, "A", 2)  # the zone of turn 1 no longer fires
    assert beaten_sight.zones(g.state) == ()
    assert sight.reach(g.state, fao, rifles) == full


def test_p8_the_incremental_sight_refresh_knows_the_zone():
    """Forgotten by the FAO in turn 1 (say it looked away), the British rifle team 57 cm off
    across the zone is not picked up again while the zone fires; in turn 2, with nothing about
    either of them changed, the refresh works the pair out again and spots it (the zones are
    in the sight memo's world key); a full recompute agrees each time."""
    g = Game(scenario(), seed=3)
    advance(g, "F", 1)
    st = g.state
    st.spotted["g-fao"].pop("b-inf-2")
    sight.look(st)
    assert "b-inf-2" not in st.spotted["g-fao"]
    advance(g, "A", 2)
    assert "b-inf-2" in st.spotted["g-fao"]
    before = {k: dict(v) for k, v in st.spotted.items()}
    st.cache.clear()
    sight.look(st)
    assert {k: dict(v) for k, v in st.spotted.items()} == before


def test_p8_a_mortar_zone_and_a_two_gun_battery_do_not_halve_sight():
    raw = load_scenario(SUPPORT).model_dump(exclude_none=True)
    raw["forces"]["germany"]["companies"][0]["platoons"].append(
        {"id": "g-mortars", "teams": [MORTAR]}
    )
    raw["forces"]["germany"]["batteries"][0]["count"] = 1  # one pair: two guns
    g = Game(Scenario.model_validate(raw), seed=3)
    advance(g, "E", 1)
    g.submit("germany", {"type": "mortar_fire", "unit": "g-mortar-1", "x": 95, "y": 24})
    bz = [m for m in g.state.markers.values() if m.kind == "bz"]
    assert len(bz) == 2  # the battery's map fire and the mortar's zone
    assert beaten_sight.zones(g.state) == ()
    fao, rifles = _pair(g)
    assert sight.reach(g.state, fao, rifles) == sight.reach(g.state, fao, rifles, False)
