"""Small arms at AFV crews (p17; P341-P345) and closing down / opening up (p8-9), played on the
scenario crewfire.yaml through the real engine.

Golden odds by hand: the firer is a German belt-fed LMG team, 3 fire factors within 40 cm (the
P53 placeholder factors, common/lmg-team-belt); the chance die moves the variation by -1, 0 or
+1 with 1/3 each (p16); the P53 placeholder casualty table's 3-factor column (`ff_3`) reads 1
team at variations -1, 0 and +1, 0 at -2 to -7. So (p16 cover shifts: partial -2, hard -6):
no cover -> the crew is lost for certain; partial -> only the +1 chance die kills (1/3); hard
cover -> never."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.commands import IllegalCommand
from kriegsspiel.engine.events import Draft
from kriegsspiel.rulesets.panzerfaust.game import crew_fire, morale_tests, orders_fire, sight

from .conftest import HERE, Dice, end_phase_d, fold, to_fire

CREW = HERE / "crewfire.yaml"
ARC_TURN = {"front": 0.0, "side": 90.0, "rear": 180.0}  # the firer's bearing off the hull


def _game(**opts) -> Game:
    return Game(load_scenario(CREW), seed=3, options=opts or None)


def _at_fire(unit: str = "g-lmg", **opts) -> Game:
    game = _game(**opts)
    to_fire(game, unit)
    return game


def _face(game: Game, target: str, firer: str, arc: str) -> None:
    """Turn `target`'s hull so that `firer` stands square in its `arc`."""
    st = game.state
    t, e = st.elements[target], st.elements[firer]
    to_firer = math.degrees(math.atan2(e.x - t.x, e.y - t.y)) % 360
    t.facing = (to_firer + ARC_TURN[arc]) % 360


def _crew_cmd(game: Game, firer: str, target: str) -> dict:
    alias = game.state.aliases.alias("germany", target)
    return {"type": "fire", "unit": firer, "target": alias, "crew": True}


def _odds(game: Game, firer: str, target: str) -> dict[str, Fraction]:
    out = orders_fire.odds(game.state, "germany", _crew_cmd(game, firer, target))
    return {k: Fraction(v) for k, v in out["exact"].items()}


CERTAIN_LOSS = {"crew_lost": Fraction(1)}
NO_EFFECT = {"lost_0": Fraction(1)}
THIRD = {"crew_lost": Fraction(1, 3), "lost_0": Fraction(2, 3)}


@pytest.mark.parametrize(
    ("target", "arc", "expected"),
    [
        # p17 fully enclosed, commander head-up: hard cover from every side
        ("s-t34", "front", NO_EFFECT),
        ("s-t34", "rear", NO_EFFECT),
        ("s-t60", "side", NO_EFFECT),
        # p17 open topped: hard cover (fire from the ground)
        ("s-su37", "front", NO_EFFECT),
        ("s-su37", "side", NO_EFFECT),
        ("s-su37", "rear", NO_EFFECT),
        # p17 open topped and rear: front hard, sides partial, rear none
        ("s-su76", "front", NO_EFFECT),
        ("s-su76", "side", THIRD),
        ("s-su76", "rear", CERTAIN_LOSS),
        # p17 open topped, sides and rear: front hard, sides and rear none
        ("s-su57", "front", NO_EFFECT),
        ("s-su57", "side", CERTAIN_LOSS),
        ("s-su57", "rear", CERTAIN_LOSS),
    ],
)
def test_p17_crew_cover_by_afv_type_and_arc_golden_odds(target, arc, expected):
    game = _at_fire()
    _face(game, target, "g-lmg", arc)
    assert _odds(game, "g-lmg", target) == expected


def test_p17_the_cover_is_named_in_the_explanation_and_the_shot_lands():
    """The su-76 from its rear: no cover row; dice 3 (chance 0): variation 0, 1 team lost on
    the 3-factor column: the crew is lost, the AFV abandoned, a wreck (P344)."""
    game = _at_fire()
    _face(game, "s-su76", "g-lmg", "rear")
    st = game.state
    drafts = game.rules.resolve(st, "germany", _crew_cmd(game, "g-lmg", "s-su76"), Dice(3))
    shot = drafts[0]
    assert shot.data["result"] == "crew_lost" and shot.data["crew"] is True
    assert any("abandoned" in line for line in shot.explanation)
    _face(game, "s-su76", "g-lmg", "side")
    drafts = game.rules.resolve(st, "germany", _crew_cmd(game, "g-lmg", "s-su76"), Dice(3))
    assert any("AFV crew (p17) in soft cover -2" in line for line in drafts[0].explanation)
    fold(game, None, [Draft("volley", {"results": [{"target": "s-su76", "result": "crew_lost"}]})])
    su76 = st.elements["s-su76"]
    assert su76.lost and su76.has("crew_lost") and not su76.has("brewed_up")
    assert any(m.kind == "wreck" and (m.x, m.y) == (75.0, 50.0) for m in st.markers.values())
    assert st.phase_data["morale"] == [["p-su76", 1]]


def test_p17_legal_commands_offer_crew_fire_at_every_afv_in_reach():
    game = _at_fire()
    legal = game.legal_commands("germany")
    crews = {c["target"] for c in legal if c.get("crew")}
    aliases = {game.state.aliases.alias("germany", t)
               for t in ("s-t34", "s-t60", "s-su37", "s-su76", "s-su57")}  # fmt: skip
    assert crews == aliases


def test_p17_a_fully_enclosed_afv_closed_down_is_refused_an_open_one_is_not():
    game = _at_fire()
    st = game.state
    st.elements["s-t34"].counters["closed_down"] = 1
    st.elements["s-su37"].counters["closed_down"] = 1  # heads down: sight only (P341)
    with pytest.raises(IllegalCommand, match=r"closed down cannot be hurt by small arms \(p17\)"):
        orders_fire.odds(st, "germany", _crew_cmd(game, "g-lmg", "s-t34"))
    crews = {c["target"] for c in game.legal_commands("germany") if c.get("crew")}
    assert st.aliases.alias("germany", "s-t34") not in crews
    assert st.aliases.alias("germany", "s-su37") in crews
    with pytest.raises(IllegalCommand, match="closed down"):
        game.submit("germany", _crew_cmd(game, "g-lmg", "s-t34"))


def test_p17_from_a_second_storey_an_open_top_gives_no_cover():
    """The team on the house's first upper floor (the second storey) fires into the su-37's
    open top: no cover, the crew is lost for certain; from the ground it is hard cover."""
    game = _at_fire("g-upper")
    assert _odds(game, "g-upper", "s-su37") == CERTAIN_LOSS
    assert _odds(game, "g-upper", "s-t34") == NO_EFFECT  # a roof: the head-up commander
    game.state.elements["g-upper"].floor = 0
    assert _odds(game, "g-upper", "s-su37") == NO_EFFECT


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ("floors", NO_EFFECT),
        ("floors_hills", {"crew_lost": Fraction(2, 3), "lost_0": Fraction(1, 3)}),
    ],
)
def test_p343_from_a_knoll_fire_is_from_above_only_with_floors_hills(option, expected):
    """The LMG set on the knoll (ground 2, a storey above the AFV's crew, P329's storey): 72 cm
    from the su-37, 2 factors (band 60-80 cm, P53). Open top, from above: no cover, -1/0/+1 ->
    0/1/1 teams on the 2 column (2/3); `floors` keeps it hard cover (-7/-6/-5 -> 0)."""
    game = _at_fire(crew_from_above=option)
    lmg = game.state.elements["g-lmg"]
    lmg.x, lmg.y = 182.0, 102.0
    assert _odds(game, "g-lmg", "s-su37") == expected


def test_p17_a_plain_fire_at_an_afv_without_a_gun_points_to_the_crew():
    game = _at_fire()
    alias = game.state.aliases.alias("germany", "s-su37")
    with pytest.raises(IllegalCommand, match=r"small arms may fire at the crew \(crew: true\)"):
        game.submit("germany", {"type": "fire", "unit": "g-lmg", "target": alias})


def test_fog_an_unobserved_afv_is_refused_as_any_unseen_alias():
    game = _at_fire()
    st = game.state
    alias = st.aliases.alias("germany", "s-t34")
    st.seen["germany"] = [t for t in st.seen["germany"] if t != "s-t34"]
    st.elements["s-t34"].counters["closed_down"] = 1
    with pytest.raises(IllegalCommand) as err:
        game.submit("germany", {**_crew_cmd(game, "g-lmg", "s-t34"), "target": alias})
    assert str(err.value) == f"{alias!r} is not an enemy element you observe"


def _volley(game: Game, target: str, result: str) -> None:
    fold(game, None, [Draft("volley", {"results": [{"target": target, "result": result}]})])


def test_p17_commander_killed_closes_down_for_good_with_the_penalties():
    game = _at_fire()
    st = game.state
    _volley(game, "s-t34", "commander_killed")
    t34 = st.elements["s-t34"]
    assert t34.has("commander_killed") and t34.has("closed_down") and not t34.lost
    assert st.phase_data["morale"] == [["p-t34", 0]]  # its platoon tests (p23)
    assert sight.arc(t34) == 30  # closed down: 60 degrees (p9)
    test = morale_tests.platoon_test(st, st.platoons["p-t34"], 0)
    assert test.commander_killed  # -2 (p23)
    pz = st.elements["g-pz"]
    shot = orders_fire._at_shot(st, t34, pz, (pz.x, pz.y), orders_fire.arms.main_gun(st, t34))
    assert shot.commander_killed  # -2 to hit (p28)


def test_p17_a_one_man_turret_bails_out_and_counts_destroyed():
    game = _at_fire()
    st = game.state
    _volley(game, "s-t60", "bailed_out")
    t60 = st.elements["s-t60"]
    assert t60.lost and t60.has("bailed_out") and not t60.has("brewed_up")
    assert any(m.kind == "wreck" and (m.x, m.y) == (80.0, 65.0) for m in st.markers.values())
    assert st.phase_data["morale"] == [["p-t60", 1]]


def test_p17_the_situation_of_fire_at_an_enclosed_afv_names_its_turret_and_hard_cover():
    """Which result a kill reads (commander killed, or a one-man turret's bail-out) is the
    rules core's (tests/rulesets/panzerfaust/rules/test_pf_crew_fire.py); the game tells it
    the turret from the record and the head-up commander's hard cover (p17)."""
    game = _at_fire()
    st = game.state
    t34, t60, lmg = st.elements["s-t34"], st.elements["s-t60"], st.elements["g-lmg"]
    assert crew_fire.shot(st, lmg, t34, (t34.x, t34.y)).one_man_turret is False
    assert crew_fire.shot(st, lmg, t60, (t60.x, t60.y)).one_man_turret is True
    assert crew_fire.shot(st, lmg, t60, (t60.x, t60.y)).fire.cover == "hard"


# ----------------------------------------------------------------------------- hatches
def _to_f(game: Game) -> None:
    end_phase_d(game)


def _mover(game: Game) -> str:
    return game.rules.active_sides(game.state)[0]


def test_p8_close_down_and_open_up_in_the_platoons_move():
    game = _game()
    _to_f(game)
    st = game.state
    while _mover(game) != "germany":
        side = _mover(game)
        end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
        game.submit(side, end)
    legal = game.legal_commands("germany")
    assert {"type": "close_down", "unit": "g-pz"} in legal
    assert not any(c["type"] == "open_up" for c in legal)  # it starts open
    pz = st.elements["g-pz"]
    assert sight.arc(pz) == 90
    start = len(game.events)
    game.submit("germany", {"type": "close_down", "unit": "g-pz"})
    assert pz.has("closed_down") and sight.arc(pz) == 30  # 60 degree arc (p9)
    hatch = next(e for e in game.events[start:] if e.type == "hatch")
    assert hatch.visible_to == ("germany",)  # fog: the order is the owner's
    assert all(e.type != "hatch" for e in game.events_for("ussr"))
    assert st.phase_data["platoon"] == "g-tanks"  # its platoon moves now
    with pytest.raises(
        IllegalCommand, match=r"already closed down or opened up this turn \(P341\)"
    ):
        game.submit("germany", {"type": "open_up", "unit": "g-pz"})
    assert not any(c["type"] in ("close_down", "open_up") for c in game.legal_commands("germany"))


def test_p17_a_killed_commander_cannot_open_up_again():
    game = _game()
    _to_f(game)
    st = game.state
    _volley(game, "g-pz", "commander_killed")
    st.phase_data.pop("morale", None)
    while _mover(game) != "germany":
        side = _mover(game)
        game.submit(side, next(c for c in game.legal_commands(side) if c["type"] == "end_platoon"))
    assert not any(c.get("unit") == "g-pz" and c["type"] == "open_up"
                   for c in game.legal_commands("germany"))  # fmt: skip
    with pytest.raises(IllegalCommand, match=r"stays closed down for the rest of the game \(p17\)"):
        game.submit("germany", {"type": "open_up", "unit": "g-pz"})


def test_a_scenario_may_place_an_afv_closed_down():
    from kriegsspiel.engine.scenario import Scenario

    raw = load_scenario(CREW).model_dump()
    for c in raw["forces"]["germany"]["companies"]:
        for p in c["platoons"]:
            for t in p["teams"]:
                if t["id"] == "g-pz":
                    t["closed_down"] = True
    game = Game(Scenario.model_validate(raw), seed=3)
    assert game.state.elements["g-pz"].has("closed_down")
