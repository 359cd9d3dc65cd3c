"""A mortar carrier's mortar set up on the ground and loaded again (notes p49, p63, p92; p12
set-up and embarking times; decisions P327, P346-P348), played through the engine on the test
scenario `mortar_carrier.yaml` (German Sd.Kfz. 251/2 and 250/7, a US M21).

Golden times, by hand: an 81 mm mortar has a crew of 1 team on the p35 table, which is p12's
light mortar (1 team): 1 move to set up + 1/2 move to get off the vehicle (p12) = 1 1/2 moves,
so two turns: ordered in turn 1's movement, done at the end of turn 2's, first fire in turn 3's
phase E (E comes before F, p6)."""

from __future__ import annotations

import math
import random

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.engine.scenario import Scenario
from kriegsspiel.rulesets.panzerfaust.game import mortar_debark, mortar_sights
from kriegsspiel.rulesets.panzerfaust.rules.tables import rules

from .conftest import HERE, advance

SCENARIO = HERE / "mortar_carrier.yaml"
TARGET = {"x": 75.0, "y": 30.0}  # the US platoon HQ team, 75 cm south of the carriers


def _raw() -> dict:
    return load_scenario(SCENARIO).model_dump(exclude_none=True)


def _game(seed: int = 3, raw: dict | None = None, **options) -> Game:
    return Game(Scenario.model_validate(raw or _raw()), seed=seed, options=options)


def _with(vehicle: str, **team) -> dict:
    """The scenario with the first German carrier replaced by `vehicle`."""
    raw = _raw()
    first = raw["forces"]["germany"]["companies"][0]["platoons"][0]["teams"][0]
    first.update(type=vehicle, **team)
    return raw


def _at_turn(g: Game, unit: str) -> str:
    """Phase F: end other platoons' moves until `unit`'s platoon may be ordered; its side."""
    platoon = g.state.elements[unit].platoon
    for _ in range(40):
        side = g.rules.active_sides(g.state)[0]
        legal = g.legal_commands(side)
        if side == "germany" and {"type": "end_platoon", "platoon": platoon} in legal:
            return side
        g.submit(side, next(c for c in legal if c["type"] in ("end_platoon", "end_phase")))
    raise AssertionError(f"{unit}'s platoon never came to move")


def _order(g: Game, cmd: dict) -> list:
    _at_turn(g, cmd["unit"])
    return g.submit("germany", cmd)


def _offered(g: Game, side: str, unit: str, kind: str) -> list[dict]:
    return [c for c in g.legal_commands(side) if c.get("unit") == unit and c["type"] == kind]


def _debarked(seed: int = 3, raw: dict | None = None, **options) -> Game:
    g = _game(seed, raw, **options)
    advance(g, "F", 1)
    _order(g, {"type": "debark_mortar", "unit": "g-mtr-1"})
    return g


def _events(g: Game, kind: str) -> list:
    return [e for e in g.events if e.type == kind]


# ----------------------------------------------------------------------------- the cycle
def test_p63_debark_fire_from_the_ground_then_embark_and_fire_from_the_vehicle():
    g = _game()
    advance(g, "F", 1)
    _at_turn(g, "g-mtr-1")
    assert _offered(g, "germany", "g-mtr-1", "debark_mortar") == [
        {"type": "debark_mortar", "unit": "g-mtr-1"}
    ]
    g.submit("germany", {"type": "debark_mortar", "unit": "g-mtr-1"})
    (ev,) = _events(g, "mortar_debarked")
    assert ev.visible_to == ("germany",)
    assert ev.data["moves"] == "3/2" and ev.data["done"] == 2
    text = " | ".join(ev.explanation)
    assert "crews a 81 mm mortar with 1 team(s), as p12 crews a light mortar (P346)" in text
    assert "done at the end of turn 2's movement" in text
    assert "fires from turn 3" in text and "P327" in text
    st = g.state
    team = st.elements["g-mtr-1-mortar"]
    # the carrier at (60, 105) faces 180 (south): its right is west, 4 cm: (56, 105)
    assert (round(team.x, 6), round(team.y, 6)) == (56.0, 105.0)
    assert team.type == "germany/81mm-mortar" and team.kind == "infantry"
    assert team.platoon == "g-mortars" and "g-mtr-1-mortar" in st.platoons["g-mortars"].members
    assert team.troop_class == "regular" and team.active
    # the carrier stays put in the turn of the order (P346)
    assert not [c for c in g.legal_commands("germany") if c.get("unit") == "g-mtr-1"
                and c["type"] == "move"]  # fmt: skip
    with pytest.raises(IllegalCommand, match="stays put this turn while its crew gets"):
        g.submit("germany", {"type": "move", "unit": "g-mtr-1", "path": [[60, 100]]})

    advance(g, "E", 2)  # still setting up: neither the team nor the vehicle fires
    assert not [c for c in g.legal_commands("germany") if c.get("unit", "").startswith("g-mtr-1")]
    with pytest.raises(IllegalCommand, match=r"setting it up until the end of turn 2's movement"):
        g.submit("germany", {"type": "mortar_fire", "unit": "g-mtr-1-mortar", **TARGET})
    with pytest.raises(IllegalCommand, match=r"off the vehicle with its crew .*P327"):
        g.submit("germany", {"type": "mortar_fire", "unit": "g-mtr-1", **TARGET})

    advance(g, "E", 3)  # set up: the team fires as a mortar team (p36)
    assert _offered(g, "germany", "g-mtr-1-mortar", "mortar_fire")
    g.submit("germany", {"type": "mortar_fire", "unit": "g-mtr-1-mortar", **TARGET})
    (f,) = [e for e in _events(g, "mortar_fired") if e.data["unit"] == "g-mtr-1-mortar"]
    assert f.data["radius"] == 6 and f.data["calibre"] == 81  # p35: 76-82 mm, BZR 6 cm
    assert not any("from the vehicle" in ln for ln in f.explanation)
    assert st.elements["g-mtr-1-mortar"].fired

    advance(g, "F", 3)
    _at_turn(g, "g-mtr-1")
    assert _offered(g, "germany", "g-mtr-1", "embark_mortar")
    g.submit("germany", {"type": "embark_mortar", "unit": "g-mtr-1"})
    (em,) = _events(g, "mortar_embarking")
    assert em.data["done"] == 4 and em.data["moves"] == "3/2"
    with pytest.raises(IllegalCommand, match="stays put while its mortar team loads"):
        g.submit("germany", {"type": "move", "unit": "g-mtr-1", "path": [[60, 100]]})

    advance(g, "G", 4)  # loaded by the end of turn 4's movement
    team, v = st.elements["g-mtr-1-mortar"], st.elements["g-mtr-1"]
    assert team.transport == "g-mtr-1" and team.id in v.carrying and not team.active
    advance(g, "E", 5)  # the carrier lays its mortar again by a whole turn standing still
    with pytest.raises(IllegalCommand, match="must stand still a whole turn"):
        g.submit("germany", {"type": "mortar_fire", "unit": "g-mtr-1", **TARGET})
    advance(g, "E", 6)
    g.submit("germany", {"type": "mortar_fire", "unit": "g-mtr-1", **TARGET})
    (last,) = [e for e in _events(g, "mortar_fired") if e.data["unit"] == "g-mtr-1"]
    assert any("from the vehicle" in ln for ln in last.explanation)
    assert g.replay().state_hash() == g.state_hash()


def test_a_second_debark_sets_the_same_team_down_again():
    g = _debarked()
    advance(g, "F", 3)
    _order(g, {"type": "embark_mortar", "unit": "g-mtr-1"})
    advance(g, "F", 5)
    _order(g, {"type": "debark_mortar", "unit": "g-mtr-1"})
    st = g.state
    assert [m for m in st.platoons["g-mortars"].members if "mortar" in m] == ["g-mtr-1-mortar"]
    assert st.elements["g-mtr-1-mortar"].active and not st.elements["g-mtr-1"].carrying
    assert g.replay().state_hash() == g.state_hash()


# ----------------------------------------------------------------------------- refusals
def test_debark_refusals_name_their_reason():
    g = _game()
    advance(g, "F", 1)
    _at_turn(g, "g-mtr-1")
    with pytest.raises(
        IllegalCommand, match=r"is not a mortar carrier: its chart mounts no mortar"
    ):
        g.submit("germany", {"type": "debark_mortar", "unit": "g-co-hq"})
    g.submit("germany", {"type": "move", "unit": "g-mtr-2", "path": [[75, 100]]})
    before = g.state_hash()
    with pytest.raises(IllegalCommand, match=r"has moved this turn: its crew gets the mortar down"):
        g.submit("germany", {"type": "debark_mortar", "unit": "g-mtr-2"})
    assert g.state_hash() == before
    assert not _offered(g, "germany", "g-mtr-2", "debark_mortar")
    with pytest.raises(IllegalCommand, match="not an element of yours"):
        g.submit("germany", {"type": "debark_mortar", "unit": "u-m21"})


def test_debarking_twice_is_refused():
    g = _debarked()
    advance(g, "F", 2)
    _at_turn(g, "g-mtr-1")
    assert not _offered(g, "germany", "g-mtr-1", "debark_mortar")
    with pytest.raises(IllegalCommand, match=r"already off the vehicle: Sdkfz 251/2 mortar team"):
        g.submit("germany", {"type": "debark_mortar", "unit": "g-mtr-1"})


def test_p49_the_indian_pattern_carriers_mortar_stays_aboard():
    g = _game(raw=_with("britain/ip-carrier-3in-mortar"))
    advance(g, "F", 1)
    _at_turn(g, "g-mtr-2")
    assert not _offered(g, "germany", "g-mtr-1", "debark_mortar")
    with pytest.raises(
        IllegalCommand, match=r"cannot be dismounted: it fires from the vehicle only \(p49\)"
    ):
        g.submit("germany", {"type": "debark_mortar", "unit": "g-mtr-1"})


def test_embark_refusals_name_their_reason():
    g = _game()
    advance(g, "F", 1)
    _at_turn(g, "g-mtr-1")
    with pytest.raises(IllegalCommand, match="is aboard: there is nothing to load"):
        g.submit("germany", {"type": "embark_mortar", "unit": "g-mtr-1"})
    g.submit("germany", {"type": "debark_mortar", "unit": "g-mtr-1"})
    with pytest.raises(IllegalCommand, match="setting it up until the end of turn 2's movement"):
        g.submit("germany", {"type": "embark_mortar", "unit": "g-mtr-1"})
    advance(g, "F", 3)  # set up; the carrier drives 10 cm north, away from its team
    _order(g, {"type": "move", "unit": "g-mtr-1", "path": [[60, 115]]})
    with pytest.raises(IllegalCommand, match="has moved this turn: the mortar is loaded"):
        g.submit("germany", {"type": "embark_mortar", "unit": "g-mtr-1"})
    advance(g, "F", 4)
    _at_turn(g, "g-mtr-1")
    # team (56, 105), carrier (60, 115): sqrt(4^2 + 10^2) = 10.77 cm > 5 cm
    assert not _offered(g, "germany", "g-mtr-1", "embark_mortar")
    with pytest.raises(
        IllegalCommand, match=r"is 10\.8 cm from Sdkfz 251/2: it loads only within 5 cm"
    ):
        g.submit("germany", {"type": "embark_mortar", "unit": "g-mtr-1"})


def test_the_team_gets_on_and_off_only_with_its_mortar():
    g = _debarked()
    advance(g, "F", 3)
    _at_turn(g, "g-mtr-1")
    assert not _offered(g, "germany", "g-mtr-1-mortar", "embark")
    with pytest.raises(
        IllegalCommand, match=r"crew of g-mtr-1's mortar: it gets off and on with its mortar"
    ):
        g.submit("germany", {"type": "embark", "unit": "g-mtr-1-mortar", "vehicle": "g-mtr-2"})


def test_a_lost_team_leaves_its_carrier_without_a_mortar():
    g = _debarked()
    advance(g, "E", 3)
    g.state.elements["g-mtr-1-mortar"].lost = True  # e.g. killed in phase H
    with pytest.raises(
        IllegalCommand, match="mortar was lost with its crew, Sdkfz 251/2 mortar team"
    ):
        g.submit("germany", {"type": "mortar_fire", "unit": "g-mtr-1", **TARGET})
    advance(g, "F", 3)
    _at_turn(g, "g-mtr-1")
    for kind in ("debark_mortar", "embark_mortar"):
        with pytest.raises(IllegalCommand, match="lost with its crew"):
            g.submit("germany", {"type": kind, "unit": "g-mtr-1"})
    # the carrier itself is free to drive off (P347)
    g.submit("germany", {"type": "move", "unit": "g-mtr-1", "path": [[60, 100]]})


def test_loading_broken_off_when_the_carrier_is_gone_leaves_the_team_set_up():
    g = _debarked()
    advance(g, "F", 3)
    _order(g, {"type": "embark_mortar", "unit": "g-mtr-1"})
    v = g.state.elements["g-mtr-1"]
    v.x, v.y = 45.0, 105.0  # e.g. a compulsory retreat took it 11 cm away before the work ended
    advance(g, "E", 5)
    team = g.state.elements["g-mtr-1-mortar"]
    assert team.active and team.transport is None
    assert mortar_sights.unready(g.state, team) is None
    assert _offered(g, "germany", "g-mtr-1-mortar", "mortar_fire")


def test_p49_the_british_carrier_stays_while_its_2in_mortar_is_off():
    g = _debarked(raw=_with("britain/carrier-2in-mortar"))
    (ev,) = _events(g, "mortar_debarked")
    assert ev.data["record"] == "britain/50mm-mortar" and ev.data["moves"] == "3/2"
    assert any("does not move until the team is back aboard (p49)" in ln for ln in ev.explanation)
    advance(g, "F", 2)
    _at_turn(g, "g-mtr-1")
    with pytest.raises(IllegalCommand, match=r"does not move while its mortar team is off it"):
        g.submit("germany", {"type": "move", "unit": "g-mtr-1", "path": [[60, 100]]})


def test_the_german_carrier_drives_off_once_the_mortar_is_down():
    g = _debarked()
    advance(g, "F", 2)
    _order(g, {"type": "move", "unit": "g-mtr-1", "path": [[60, 100]]})
    assert g.state.elements["g-mtr-1"].y == 100


# ----------------------------------------------------------------------------- times
@pytest.mark.parametrize(
    ("options", "troop_class", "moves", "done"),
    [
        ({}, "regular", "3/2", 2),  # light (1 team, p35): 1 + 1/2 (p12)
        ({}, "conscript", "5/2", 3),  # + 1 move for conscripts (p12)
        ({"debarked_mortar_class": "calibre"}, "regular", "5/2", 3),  # medium: 2 + 1/2
        ({"debarked_mortar_class": "calibre"}, "conscript", "7/2", 4),
    ],
)
def test_p12_set_up_time_by_class_and_crew(options, troop_class, moves, done):
    g = _debarked(raw=_with("germany/sdkfz-251-2", troop_class=troop_class), **options)
    (ev,) = _events(g, "mortar_debarked")
    assert (ev.data["moves"], ev.data["done"]) == (moves, done)


@pytest.mark.parametrize(
    ("reading", "mm", "cls"),
    [
        ("crew", 50, "light"),  # p35: 45-60 mm, 1 team
        ("crew", 81, "light"),  # p35: 76-82 mm, 1 team
        ("crew", 120, "medium"),  # p35: 2 teams
        ("crew", 150, "heavy"),  # p35: the heavy row, 3 teams
        ("calibre", 50, "light"),
        ("calibre", 81, "medium"),
        ("calibre", 150, "heavy"),
    ],
)
def test_p12_mortar_class_by_crew_or_calibre(reading, mm, cls):
    g = _game(debarked_mortar_class=reading)
    assert mortar_debark.mortar_class(g.state, mm)[0] == cls


# ----------------------------------------------------------------------------- fog and data
def test_the_enemy_is_told_nothing_of_the_debark():
    g = _debarked()
    advance(g, "F", 3)
    _order(g, {"type": "embark_mortar", "unit": "g-mtr-1"})
    for e in g.events:
        if e.type.startswith("mortar_") and e.type != "mortar_fired":
            assert e.visible_to == ("germany",)
    us = [e.data for e in g.events if "usa" in (e.visible_to or ("usa",))]
    assert "g-mtr-1-mortar" not in str(us)
    view = g.view("usa")
    assert "g-mtr-1-mortar" not in str(view)


def test_the_carriers_table_names_real_records_of_the_right_calibre():
    cat = rules().cat
    for vid, spec in mortar_debark.CARRIERS.items():
        v = cat.get("afv", vid)
        assert any("mortar" in str(m.raw).casefold() for m in v.armament), vid
        if spec.team is None:
            continue
        team = cat.get("battery", spec.team)
        assert team.battery_kind == "mortar"
        mount = next(m for m in v.armament if "mortar" in str(m.raw).casefold())
        want = mount.calibre_mm or 50.8  # the British 2in (p49) is the 50 mm row (2in = 50.8 mm)
        assert math.isclose(mortar_sights.calibre(team), want, abs_tol=1), vid


def test_the_cards_say_where_the_mortar_is_and_the_enemy_card_does_not():
    g = _debarked()
    st = g.state
    own = g.rules.unit_card(st, "germany", "g-mtr-1-mortar")
    now = dict(own["data"]["rows"])["now"]
    assert "setting it up until the end of turn 2's movement" in now
    carrier = dict(g.rules.unit_card(st, "germany", "g-mtr-1")["data"]["rows"])["now"]
    assert "its mortar is off the vehicle: Sdkfz 251/2 mortar team" in carrier
    alias = st.aliases.alias("usa", "g-mtr-1-mortar")
    assert "g-mtr-1-mortar" in st.seen["usa"]  # in the open, 75 cm off: spotted (p8)
    theirs = g.rules.unit_card(st, "usa", alias)
    assert theirs["name"] == "81mm Mortar" and "now" not in dict(theirs["data"]["rows"])
    assert "Sdkfz 251/2 mortar team" not in str(theirs)


def test_an_fao_platoon_counts_the_carriers_team_once_it_is_set_up():
    """P325 with P346: a bought mortar and a carrier in one platoon under Fire Control; the
    carrier's team fires with the platoon only when its set-up is over."""
    from kriegsspiel.rulesets.panzerfaust.game import onboard_fire

    raw = _raw()
    forces = raw["forces"]["germany"]
    plats = forces["companies"][0]["platoons"]
    plats[0]["teams"].append({"id": "g-tube", "type": "battery:germany/81mm-mortar", "x": 68,
                              "y": 105, "facing": 180})  # fmt: skip
    plats[1]["teams"].append({"id": "g-fao", "type": "germany/fao-team", "x": 85, "y": 90,
                              "facing": 180})  # fmt: skip
    forces["batteries"] = [{"id": "g-fc", "type": "germany/81mm-mortar", "on_board": "g-mortars",
                            "calibre_mm": 81, "observers": ["g-fao"]}]  # fmt: skip
    g = _debarked(raw=raw)
    b = g.state.scenario.forces_of("germany").batteries[0]
    assert [e.id for e in onboard_fire.mortars(g.state, b)] == ["g-tube"]
    advance(g, "E", 3)
    assert [e.id for e in onboard_fire.mortars(g.state, b)] == ["g-tube", "g-mtr-1-mortar"]


def test_the_team_aboard_is_lost_with_its_carrier_and_on_the_ground_survives_it():
    from kriegsspiel.rulesets.panzerfaust.game import orders_fire

    g = _debarked()
    st = g.state
    orders_fire.land(st, [{"target": "g-mtr-1", "result": "destroyed"}])
    assert st.elements["g-mtr-1"].lost and not st.elements["g-mtr-1-mortar"].lost  # off it
    g = _debarked()
    advance(g, "F", 3)
    _order(g, {"type": "embark_mortar", "unit": "g-mtr-1"})
    advance(g, "E", 5)
    st = g.state
    orders_fire.land(st, [{"target": "g-mtr-1", "result": "destroyed"}])
    assert st.elements["g-mtr-1"].lost and st.elements["g-mtr-1-mortar"].lost  # aboard


# ----------------------------------------------------------------------------- put down (P351)
M21 = "usa_europe/m4a1-m21-mtr-carrier"  # open-topped (p92), so its crew can be fought (P308)


def _loaded(troop_class: str = "regular", **options) -> Game:
    """The first carrier an M21 whose team set its mortar up and then loaded it again (P348),
    in the phase E after the loading ended."""
    raw = _with(M21, troop_class=troop_class)
    raw["victory"]["turn_limit"] = 12  # room for a conscript crew's slower work
    g = _debarked(raw=raw, **options)
    advance(g, "F", _events(g, "mortar_debarked")[-1].data["done"] + 1)
    _order(g, {"type": "embark_mortar", "unit": "g-mtr-1"})
    advance(g, "E", _events(g, "mortar_embarking")[-1].data["done"] + 1)
    assert g.state.elements["g-mtr-1-mortar"].transport == "g-mtr-1"
    return g


def _crew_lost_in_cqc(g: Game) -> None:
    """The carrier's crew falls in close combat with the US rifle team (P308): the melee's
    result lands as the engine's own event, in the log."""
    from kriegsspiel.engine.events import Draft

    from .conftest import fold

    data = {"sides": [["germany", ["g-mtr-1"]], ["usa", ["u-inf-1"]]],
            "results": [{"target": "g-mtr-1", "result": "crew_lost"}]}  # fmt: skip
    drafts = [Draft("melee", data, ())]
    rng = random.Random(5)
    while drafts:  # then the automatic steps it brings on (its platoon's morale test, p23)
        fold(g, None, drafts)
        g.append_engine("usa", "melee", drafts)
        drafts = g.rules.automatic(g.state, rng)


def test_p351_a_team_put_down_by_its_carriers_loss_keeps_its_mortar_not_set_up():
    g = _loaded()
    _crew_lost_in_cqc(g)
    st = g.state
    v, team = st.elements["g-mtr-1"], st.elements["g-mtr-1-mortar"]
    assert v.lost and v.has("crew_lost") and not v.carrying
    # it got down 4 cm behind the carrier at (60, 105) facing south: (60, 109) (P308)
    assert team.active and team.transport is None
    assert (round(team.x, 6), round(team.y, 6)) == (60.0, 109.0)
    why = mortar_sights.unready(st, team)
    assert why == (
        "M4A1 & M21 Mtr Carrier mortar team got down with its mortar when g-mtr-1 was lost: it "
        "is not set up (`set_up_mortar`, P351)"
    )
    assert not _offered(g, "germany", "g-mtr-1-mortar", "mortar_fire")
    assert mortar_sights.why_not(st, team, (TARGET["x"], TARGET["y"]), "he") == why


def test_p351_set_up_where_it_stands_in_the_p12_time_then_it_fires():
    """81 mm: one team on p35, p12's light mortar: 1 move to set up, no getting off (P351):
    ordered in turn 5's movement, done at its end, firing from turn 6's phase E."""
    g = _loaded()
    _crew_lost_in_cqc(g)
    advance(g, "F", 5)
    _at_turn(g, "g-mtr-1-mortar")
    assert _offered(g, "germany", "g-mtr-1-mortar", "set_up_mortar") == [
        {"type": "set_up_mortar", "unit": "g-mtr-1-mortar"}
    ]
    assert not _offered(g, "germany", "g-mtr-1", "embark_mortar")  # the carrier is a wreck
    g.submit("germany", {"type": "set_up_mortar", "unit": "g-mtr-1-mortar"})
    ev = _events(g, "mortar_debarked")[-1]
    assert ev.visible_to == ("germany",)
    assert (ev.data["moves"], ev.data["done"]) == ("1", 5)
    text = " | ".join(ev.explanation)
    assert "sets up the 81 mm mortar it saved from M4A1 & M21 Mtr Carrier" in text
    assert "the team is already off the vehicle (P351)" in text and "fires from turn 6" in text
    team = g.state.elements["g-mtr-1-mortar"]
    assert (round(team.x, 6), round(team.y, 6)) == (60.0, 109.0)  # where it stood
    with pytest.raises(IllegalCommand, match=r"setting its mortar up until the end of turn 5"):
        g.rules.resolve(
            g.state, "germany", {"type": "set_up_mortar", "unit": "g-mtr-1-mortar"}, None
        )
    advance(g, "E", 6)
    assert mortar_sights.unready(g.state, team) is None
    # the wreck of its carrier, right in front of it, hides the orchard (P192); westwards it sees
    g.submit("germany", {"type": "mortar_fire", "unit": "g-mtr-1-mortar", "x": 20.0, "y": 90.0})
    assert [e for e in _events(g, "mortar_fired") if e.data["unit"] == "g-mtr-1-mortar"]
    assert g.replay().state_hash() == g.state_hash()


@pytest.mark.parametrize(
    ("option", "troop_class", "moves", "turns"),
    [
        ("setup", "regular", "1", 1),  # p12 light: 1 move, done in the turn of the order
        ("setup", "conscript", "2", 2),  # +1 move for conscripts (p12)
        ("debark", "regular", "3/2", 2),  # + half a move as a debark's getting off (P346)
    ],
)
def test_p351_dropped_mortar_time(option, troop_class, moves, turns):
    g = _loaded(troop_class, dropped_mortar_time=option)
    _crew_lost_in_cqc(g)
    turn = g.state.turn
    advance(g, "F", turn)
    _order(g, {"type": "set_up_mortar", "unit": "g-mtr-1-mortar"})
    ev = _events(g, "mortar_debarked")[-1]
    assert (ev.data["moves"], ev.data["done"] - turn + 1) == (moves, turns)


def test_p351_small_arms_at_the_crew_put_the_team_down_the_same_way():
    from kriegsspiel.rulesets.panzerfaust.game import orders_fire

    g = _loaded()
    orders_fire.land(g.state, [{"target": "g-mtr-1", "result": "crew_lost"}])  # P344
    team = g.state.elements["g-mtr-1-mortar"]
    assert team.active and "set_up_mortar" in mortar_sights.unready(g.state, team)


def test_p351_set_up_refusals_name_their_reason():
    g = _debarked()
    advance(g, "F", 2)
    _at_turn(g, "g-mtr-1")
    cmd = {"type": "set_up_mortar", "unit": "g-mtr-1-mortar"}
    with pytest.raises(IllegalCommand, match=r"setting it up until the end of turn 2"):
        g.submit("germany", cmd)
    with pytest.raises(IllegalCommand, match=r"is not a carrier's mortar team"):
        g.submit("germany", {"type": "set_up_mortar", "unit": "g-inf-1"})
    g = _loaded()
    _crew_lost_in_cqc(g)
    advance(g, "F", 5)
    _at_turn(g, "g-mtr-1-mortar")
    g.state.elements["g-mtr-1-mortar"].moved = 2.0  # e.g. pushed back out of a melee (P309)
    with pytest.raises(IllegalCommand, match=r"has moved this turn: a team sets its mortar up"):
        g.submit("germany", cmd)
