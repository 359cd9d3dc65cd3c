"""What on-board mortar fire still refuses (p36, decision P267): an on-board mortar platoon
directed by an FAO, and a vehicle's own mortar, each with its "not implemented" reason."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.engine.scenario import Scenario

from .test_artillery import MORTAR, SUPPORT
from .test_support import advance

CARRIER = {"id": "g-sdkfz", "type": "germany/sdkfz-251-2", "x": 115, "y": 70, "facing": 200}


def _game() -> Game:
    raw = load_scenario(SUPPORT).model_dump(exclude_none=True)
    plats = raw["forces"]["germany"]["companies"][0]["platoons"]
    plats.append({"id": "g-mortars", "teams": [MORTAR]})
    plats.append({"id": "g-carriers", "teams": [CARRIER]})
    return Game(Scenario.model_validate(raw), seed=3)


def test_p36_an_fao_directing_an_on_board_mortar_platoon_is_refused_as_not_implemented():
    g = _game()
    before = g.state_hash()
    with pytest.raises(IllegalCommand, match=r"not implemented: an on-board mortar platoon "
                       r"directed by an FAO \(p36\)"):  # fmt: skip
        g.submit("germany", {"type": "fire_mission", "battery": "g-mortars", "x": 95, "y": 24})
    with pytest.raises(IllegalCommand, match="not one of your off-table batteries"):
        g.submit("germany", {"type": "fire_mission", "battery": "g-inf", "x": 95, "y": 24})
    assert g.state_hash() == before


def test_p36_a_mortar_carrier_firing_its_own_mortar_is_refused_as_not_implemented():
    g = _game()
    advance(g, "E", 1)
    assert not [c for c in g.legal_commands("germany") if c.get("unit") == "g-sdkfz"]
    with pytest.raises(IllegalCommand, match=r"not implemented: mortars on vehicles \(p36"):
        g.submit("germany", {"type": "mortar_fire", "unit": "g-sdkfz", "x": 95, "y": 24})
