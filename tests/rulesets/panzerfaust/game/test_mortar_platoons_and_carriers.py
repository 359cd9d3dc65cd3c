"""On-board mortar platoons directed by an FAO (p36, P325) and mortars on vehicles (p36; vehicle
notes p63 and p92; P326-P327), played through the real engine. The old "not implemented"
refusals for both are gone."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.engine.scenario import Scenario

from .test_artillery import MORTAR, SUPPORT, events
from .test_support import advance

CARRIER = {"id": "g-sdkfz", "type": "germany/sdkfz-251-2", "x": 115, "y": 70, "facing": 200}
US_CARRIER = {"id": "g-m21", "type": "usa_europe/m4a1-m21-mtr-carrier", "x": 115, "y": 70,
              "facing": 200}  # fmt: skip
SECOND = {**MORTAR, "id": "g-mortar-2", "x": 112}
FC = {"id": "g-mfc", "type": "germany/81mm-mortar", "on_board": "g-mortars", "calibre_mm": 81,
      "observers": ["g-fao"]}  # fmt: skip


def _raw(fc: bool = True, carrier: dict | None = CARRIER) -> dict:
    raw = load_scenario(SUPPORT).model_dump(exclude_none=True)
    plats = raw["forces"]["germany"]["companies"][0]["platoons"]
    plats.append({"id": "g-mortars", "teams": [MORTAR, SECOND]})
    if carrier:
        plats.append({"id": "g-carriers", "teams": [carrier]})
    raw["forces"]["germany"]["batteries"] = [FC] if fc else []
    return raw


def _game(seed: int = 3, **kw) -> Game:
    return Game(Scenario.model_validate(_raw(**kw)), seed=seed)


def _called(target=(95, 24)) -> Game:
    """A game whose FAO calls the platoon down on turn 1 (the first seed where 3D6 <= 9)."""
    for seed in range(1, 40):
        g = _game(seed, carrier=None)
        advance(g, "A", 1)
        g.submit("germany", {"type": "fire_mission", "battery": "g-mfc", "x": target[0],
                             "y": target[1]})  # fmt: skip
        advance(g, "E", 1)
        g.submit("germany", {"type": "call_down", "battery": "g-mfc", "observer": "g-fao"})
        if events(g, "barrage"):
            return g
    raise AssertionError("no seed called the platoon down")


# ----------------------------------------------------------------------------- FAO platoon
def test_p36_an_fao_calls_the_on_board_platoon_down_from_order_to_landing():
    """Phase A: the POA is written; E: the FAO's 3D6 call-down (placeholder P85) brings the
    whole platoon's fire down, a 6 cm zone (81 mm, p35) with +1 for two mortars (p37); both
    mortars have fired and flashed; H: the zone rolls; next turn it keeps falling (p36)."""
    g = _called()
    (c,) = [e for e in events(g, "call_down") if e.data["result"] == "arrives"]
    assert c.visible_to == ("germany",)
    assert any("roll call-down: 3d6" in ln for ln in c.explanation)
    assert any("placeholder" in ln for ln in c.explanation)
    (b,) = events(g, "barrage")
    assert b.visible_to == ("germany",)
    assert b.data["radius"] == 6 and b.data["pairs"] == 2 and b.data["mortar"]
    assert b.data["mortars"] == ["g-mortar-1", "g-mortar-2"]
    assert any("on-board platoon g-mortars" in ln and "P325" in ln for ln in b.explanation)
    assert all(g.state.elements[m].fired for m in b.data["mortars"])
    advance(g, "I", 1)
    lines = [ln for e in events(g, "bz_results_seen") for ln in e.explanation]
    assert any("mortar's first turn" in ln for ln in lines)
    assert any("2 pairs/mortars" in ln for ln in lines)
    advance(g, "F", 2)
    assert [e.data["turns"] for e in events(g, "barrage")] == [1, 2]
    assert g.replay().state_hash() == g.state_hash()


def test_the_enemy_learns_nothing_of_the_platoons_names_from_its_fire():
    g = _called()
    for e in g.events:
        if "britain" in (e.visible_to or ()) and e.type.startswith(("barrage", "call_down")):
            assert "g-mortar" not in str(e.data) and "g-mfc" not in str(e.data)


def test_only_an_fao_directs_the_platoon():
    g = _game(carrier=None)
    advance(g, "A", 1)
    g.submit("germany", {"type": "fire_mission", "battery": "g-mfc", "x": 95, "y": 24})
    advance(g, "E", 1)
    offered = [c for c in g.legal_commands("germany") if c["type"] == "call_down"]
    assert offered == [{"type": "call_down", "battery": "g-mfc", "observer": "g-fao"}]
    before = g.state_hash()
    with pytest.raises(IllegalCommand, match="only an FAO directs an on-board platoon"):
        g.submit("germany", {"type": "call_down", "battery": "g-mfc", "observer": "g-co-hq"})
    assert g.state_hash() == before


def test_a_point_below_the_minimum_range_is_refused_when_written():
    g = _game(carrier=None)
    advance(g, "A", 1)
    with pytest.raises(IllegalCommand, match=r"outside the 81 mm mortar's range 30-150 cm \(p35\)"):
        g.submit("germany", {"type": "fire_mission", "battery": "g-mfc", "x": 110, "y": 50})


def test_a_platoon_with_a_mortar_that_fired_over_open_sights_cannot_be_called_down():
    g = _game(carrier=None)
    advance(g, "A", 1)
    g.submit("germany", {"type": "fire_mission", "battery": "g-mfc", "x": 95, "y": 24})
    advance(g, "E", 1)
    g.submit("germany", {"type": "mortar_fire", "unit": "g-mortar-2", "x": 90, "y": 20})
    assert not [c for c in g.legal_commands("germany") if c["type"] == "call_down"]
    with pytest.raises(IllegalCommand, match="fires as a whole at one point"):
        g.submit("germany", {"type": "call_down", "battery": "g-mfc", "observer": "g-fao"})


def test_a_platoon_with_a_mortar_that_moved_cannot_be_called_down():
    g = _game(carrier=None)
    advance(g, "A", 1)
    g.submit("germany", {"type": "fire_mission", "battery": "g-mfc", "x": 95, "y": 24})
    advance(g, "E", 1)
    g.state.elements["g-mortar-2"].moved = 3.0  # e.g. a compulsory move before phase E
    with pytest.raises(IllegalCommand, match="has moved this turn"):
        g.submit("germany", {"type": "call_down", "battery": "g-mfc", "observer": "g-fao"})


def test_a_platoon_without_fire_control_is_told_so_not_not_implemented():
    g = _game(fc=False, carrier=None)
    advance(g, "A", 1)
    with pytest.raises(IllegalCommand, match="has no Battery Fire Control") as ex:
        g.submit("germany", {"type": "fire_mission", "battery": "g-mortars", "x": 95, "y": 24})
    assert "not implemented" not in str(ex.value)
    with pytest.raises(IllegalCommand, match="not one of your off-table batteries"):
        g.submit("germany", {"type": "fire_mission", "battery": "g-inf", "x": 95, "y": 24})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"on_board": "g-inf-x"}, "is not a platoon of germany"),
        ({"calibre_mm": 120}, "is not the 81 mm of g-mortar-1"),
        ({"counter_battery": True}, "no counter-battery fire"),
    ],
)
def test_fire_control_set_up_errors(change, message):
    raw = _raw(carrier=None)
    raw["forces"]["germany"]["batteries"] = [{**FC, **change}]
    with pytest.raises(ValueError, match=message):
        Game(Scenario.model_validate(raw), seed=1)


# ----------------------------------------------------------------------------- carriers
def test_p63_a_mortar_carrier_fires_its_own_mortar_from_the_vehicle():
    g = _game(fc=False)
    advance(g, "E", 1)
    assert [c for c in g.legal_commands("germany") if c.get("unit") == "g-sdkfz"]
    g.submit("germany", {"type": "mortar_fire", "unit": "g-sdkfz", "x": 95, "y": 24})
    (f,) = events(g, "mortar_fired")
    assert f.data["radius"] == 6 and f.data["calibre"] == 81
    assert any("from the vehicle" in ln and "P326" in ln for ln in f.explanation)
    assert g.state.elements["g-sdkfz"].fired
    advance(g, "I", 1)
    assert events(g, "bz_results")
    assert g.replay().state_hash() == g.state_hash()


def test_a_carrier_that_moved_last_turn_is_not_yet_laid():
    g = _game(fc=False)
    advance(g, "F", 1)
    for _ in range(30):  # the carriers' platoon drives 5 cm toward the British in turn 1
        side = g.rules.active_sides(g.state)[0]
        legal = g.legal_commands(side)
        move = [c for c in legal if c.get("platoon") == "g-carriers" and c.get("order") == "move"]
        if move:
            g.submit(side, {**move[0], "dx": 0.0, "dy": -5.0})
            break
        g.submit(side, next(c for c in legal if c["type"] in ("end_platoon", "end_phase")))
    assert g.state.elements["g-sdkfz"].moved > 0
    advance(g, "E", 2)
    with pytest.raises(IllegalCommand, match="must stand still a whole turn"):
        g.submit("germany", {"type": "mortar_fire", "unit": "g-sdkfz", "x": 95, "y": 24})
    assert not [c for c in g.legal_commands("germany") if c.get("unit") == "g-sdkfz"]
    advance(g, "E", 3)  # it stood still through turn 2: laid
    g.submit("germany", {"type": "mortar_fire", "unit": "g-sdkfz", "x": 95, "y": 24})


def test_under_the_option_a_carrier_is_not_laid_on_turn_one():
    raw = _raw(fc=False)
    g = Game(Scenario.model_validate(raw), seed=3, options={"vehicle_mortar_setup_laid": False})
    advance(g, "E", 1)
    with pytest.raises(IllegalCommand, match="must stand still a whole turn"):
        g.submit("germany", {"type": "mortar_fire", "unit": "g-sdkfz", "x": 95, "y": 24})


def test_p92_the_us_carrier_fires_only_in_its_arc():
    g = _game(fc=False, carrier={**US_CARRIER, "facing": 20})  # facing away from the British
    advance(g, "E", 1)
    with pytest.raises(IllegalCommand, match=r"30 degrees either side of its front \(p92"):
        g.submit("germany", {"type": "mortar_fire", "unit": "g-m21", "x": 95, "y": 24})
    g = _game(fc=False, carrier=US_CARRIER)
    advance(g, "E", 1)
    g.submit("germany", {"type": "mortar_fire", "unit": "g-m21", "x": 95, "y": 24})
