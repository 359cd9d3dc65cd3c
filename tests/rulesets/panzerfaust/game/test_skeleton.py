"""The game can be created from a scenario and advanced through its phases (issue 19 item 1-2)."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game
from kriegsspiel.engine.envelope import check_envelope
from kriegsspiel.engine.scenario import Scenario
from kriegsspiel.rulesets.panzerfaust.game import phases

from .conftest import skirmish


def test_game_starts_in_turn_1_and_rolls_pips(game: Game):
    st = game.state
    assert st.turn == 1
    assert st.phase == "D"  # A and C pass (no artillery or aircraft), B rolls the pips
    assert all(1 <= c.pips <= 6 for c in st.companies.values())
    # veterans re-roll 1-2 (p7)
    assert st.companies["g-co"].pips >= 3
    notes = [e.explanation for e in game.events if e.type == "phase" and e.data["phase"] == "A"]
    assert notes == [("phase A: no written orders for artillery and aircraft in this scenario",)]


def test_structure_company_platoon_element(game: Game):
    st = game.state
    assert st.companies["g-co"].platoons == ["g-pz", "g-inf", "g-at"]
    assert st.platoons["g-inf"].hq == "g-inf-hq"
    assert st.companies["g-co"].hq == "g-co-hq"
    assert st.elements["g-pz-1"].kind == "afv" and st.elements["g-pz-1"].turret == 180
    assert st.elements["g-pz-1"].radio  # a Pz IV's chart radio (p61)


def test_phase_table_has_every_phase_of_p6():
    assert [p.id for p, _ in phases.TABLE] == list("ABCDEFGHI")


def test_views_pass_the_envelope(game: Game):
    for side in [*game.sides, "umpire", "spectator"]:
        check_envelope(game.view(side))


def test_end_phase_moves_on_to_movement(game: Game):
    for side in game.sides:
        game.submit(side, {"type": "end_phase"})
    assert game.state.phase == "F"
    assert game.rules.active_sides(game.state)  # a side moves a platoon


def test_generic_artillery_list_is_refused():
    """Panzerfaust batteries are declared in the forces block (guns, calibre); the generic
    list, which carries neither, is refused by name."""
    sc = skirmish()
    raw = sc.model_dump()
    raw["artillery"] = [{"side": "germany", "battery": "germany/10.5cm-lefh-18"}]
    with pytest.raises(NotImplementedError, match="forces.<side>.batteries"):
        Game(Scenario.model_validate(raw), seed=1)
