"""Small arms at the passengers riding an AFV (p16-17, p28, p85; P349-P350), played on the
scenario passfire.yaml through the real engine.

Golden odds by hand, as in test_crew_fire.py: the firer is a German belt-fed LMG team 25 cm
away, 3 fire factors within 40 cm (the P53 placeholder factors); the chance die moves the
variation by -1, 0 or +1 with 1/3 each (p16); the P53 placeholder table's 3-factor column reads
1 team at -1, 0, +1 and 0 at -2 to -7. So (p16 cover shifts: soft/partial -2, hard -6): no cover
-> one team lost for certain; soft -> only the +1 chance die kills (1/3); hard -> never. The
most the 3-factor column gives is one team, so a vehicle with two teams aboard loses one."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.commands import IllegalCommand
from kriegsspiel.engine.events import Draft
from kriegsspiel.rulesets.panzerfaust.game import orders_fire

from .conftest import HERE, Dice, fold, to_fire

PASS = HERE / "passfire.yaml"
ARC_TURN = {"front": 0.0, "side": 90.0, "rear": 180.0}  # the firer's bearing off the hull

CERTAIN = {"passengers_lost_1": Fraction(1)}
NOTHING = {"passengers_lost_0": Fraction(1)}
THIRD = {"passengers_lost_1": Fraction(1, 3), "passengers_lost_0": Fraction(2, 3)}


def _at_fire(unit: str = "g-lmg", **opts) -> Game:
    game = Game(load_scenario(PASS), seed=3, options=opts or None)
    to_fire(game, unit)
    return game


def _face(game: Game, target: str, firer: str, arc: str) -> None:
    """Turn `target`'s hull so that `firer` stands square in its `arc`."""
    st = game.state
    t, e = st.elements[target], st.elements[firer]
    to_firer = math.degrees(math.atan2(e.x - t.x, e.y - t.y)) % 360
    t.facing = (to_firer + ARC_TURN[arc]) % 360


def _cmd(game: Game, firer: str, target: str, **extra) -> dict:
    alias = game.state.aliases.alias("germany", target)
    return {"type": "fire", "unit": firer, "target": alias, "passengers": True, **extra}


def _odds(game: Game, firer: str, target: str) -> dict[str, Fraction]:
    out = orders_fire.odds(game.state, "germany", _cmd(game, firer, target))
    return {k: Fraction(v) for k, v in out["exact"].items()}


def _enemy(game: Game, target: str) -> dict:
    alias = game.state.aliases.alias("germany", target)
    return next(p for p in game.view("germany")["enemies"] if p["id"] == alias)


@pytest.mark.parametrize(
    ("target", "arc", "expected"),
    [
        # p16: tank riders are in soft/partial cover, from any side
        ("s-t34", "front", THIRD),
        ("s-t34", "rear", THIRD),
        # p85 notes: the Komsomolet's rear seats give no cover (its `passenger_cover`)
        ("s-komso", "front", CERTAIN),
        # p16 armoured APC: hard cover; an open top gives none only from above (p17)
        ("s-m3", "front", NOTHING),
        ("s-m3", "side", NOTHING),
        ("s-m3", "rear", NOTHING),
        # p17 table read for the compartment open at the sides and rear (P342, P349)
        ("s-mh", "front", NOTHING),
        ("s-mh", "side", CERTAIN),
        ("s-mh", "rear", CERTAIN),
        # P349 default: a carrier the data calls fully enclosed still gives p16's hard cover
        ("s-ba10", "front", NOTHING),
    ],
)
def test_p16_p17_passenger_cover_by_vehicle_and_arc_golden_odds(target, arc, expected):
    game = _at_fire()
    _face(game, target, "g-lmg", arc)
    assert _odds(game, "g-lmg", target) == expected


def test_p17_from_a_second_storey_an_open_top_gives_its_passengers_no_cover():
    """The team on the house's upper floor fires into the M3's open top: no cover (p17), one
    of the two teams aboard lost for certain; from the ground floor it is hard cover."""
    game = _at_fire("g-upper")
    st = game.state
    m3 = st.elements["s-m3"]
    assert "s-m3" in st.spotted["g-upper"]  # it sees the half-track from where it stands
    m3.x, m3.y = 130.0, 55.0  # 24.8 cm from the window: the 3-factor band
    for rider in m3.carrying:
        st.elements[rider].x, st.elements[rider].y = m3.x, m3.y
    assert _odds(game, "g-upper", "s-m3") == CERTAIN
    st.elements["g-upper"].floor = 0
    assert _odds(game, "g-upper", "s-m3") == NOTHING


def test_the_casualty_note_and_cover_are_in_the_explanation():
    game = _at_fire()
    st = game.state
    drafts = game.rules.resolve(st, "germany", _cmd(game, "g-lmg", "s-t34"), Dice(6))
    shot = drafts[0]
    assert shot.type == "shot" and shot.data["passengers"] is True
    assert shot.data["result"] == "passengers_lost_1"
    text = "\n".join(shot.explanation)
    assert "passengers aboard in soft cover -2" in text
    assert "1 of the 2 team(s) aboard lost (the first aboard first)" in text


def test_legal_commands_offer_passenger_fire_only_where_riders_are_seen():
    game = _at_fire()
    st = game.state
    offered = {c["target"] for c in game.legal_commands("germany") if c.get("passengers")}
    expect = {
        st.aliases.alias("germany", t) for t in ("s-t34", "s-komso", "s-m3", "s-mh", "s-ba10")
    }
    assert offered == expect  # not the empty M3, not the truck (fired at as a vehicle, p17)


@pytest.mark.parametrize(
    ("target", "extra", "reason"),
    [
        ("s-m3-empty", {}, "no passengers are seen aboard M3 Half-trk"),
        ("s-truck", {}, r"is a softskin: small arms at it fall on its passengers first"),
        ("s-m3", {"crew": True}, "fire at the crew or at the passengers, not both"),
    ],
)
def test_refusals_name_their_reason(target, extra, reason):
    game = _at_fire()
    with pytest.raises(IllegalCommand, match=reason):
        game.submit("germany", _cmd(game, "g-lmg", target, **extra))


def test_out_of_small_arms_reach_is_refused():
    game = _at_fire()
    lmg = game.state.elements["g-lmg"]
    lmg.x, lmg.y = 200.0, 0.0  # 119 cm from the M3: beyond the LMG's 100 cm reach (P53)
    with pytest.raises(IllegalCommand, match=r"out of small-arms range \(100 cm\)"):
        orders_fire.odds(game.state, "germany", _cmd(game, "g-lmg", "s-m3"))


def test_a_plain_fire_at_an_afv_without_a_gun_points_to_crew_and_passengers():
    game = _at_fire()
    alias = game.state.aliases.alias("germany", "s-m3")
    with pytest.raises(IllegalCommand, match=r"\(crew: true\) or at its passengers"):
        game.submit("germany", {"type": "fire", "unit": "g-lmg", "target": alias})


def test_p349_option_open_only_shields_and_hides_an_enclosed_carriers_passengers():
    game = _at_fire(apc_passengers="open_only")
    st = game.state
    offered = {c["target"] for c in game.legal_commands("germany") if c.get("passengers")}
    assert st.aliases.alias("germany", "s-ba10") not in offered
    assert st.aliases.alias("germany", "s-m3") in offered
    assert "passengers" not in _enemy(game, "s-ba10")  # fog: nobody is seen inside
    assert _enemy(game, "s-m3")["passengers"] == 2
    with pytest.raises(IllegalCommand, match=r"fully enclosed carrier.*open_only, P349"):
        game.submit("germany", _cmd(game, "g-lmg", "s-ba10"))
    st.elements["s-ba10"].carrying.clear()  # an empty one gets the same answer (no leak)
    with pytest.raises(IllegalCommand, match=r"fully enclosed carrier.*open_only, P349"):
        game.submit("germany", _cmd(game, "g-lmg", "s-ba10"))


def test_fog_the_view_shows_how_many_teams_ride_never_who():
    game = _at_fire()
    view = game.view("germany")
    assert _enemy(game, "s-t34")["passengers"] == 2
    assert _enemy(game, "s-komso")["passengers"] == 1
    assert "passengers" not in _enemy(game, "s-m3-empty")
    assert "passengers" not in _enemy(game, "s-truck")  # a softskin's load is not shown
    card = game.rules.unit_card(game.state, "germany", _enemy(game, "s-m3")["id"])
    assert ["riders", "2 team(s) seen aboard"] in card["data"]["rows"]
    ids = {p["id"] for p in view["enemies"]}
    riders = {"s-r1", "s-r2", "s-k1", "s-h1", "s-h2", "s-mh1", "s-b1", "s-tr1"}
    assert not ids & {game.state.aliases.alias("germany", r) for r in riders}


def _volley(game: Game, target: str, result: str) -> None:
    fold(game, None, [Draft("volley", {"results": [{"target": target, "result": result}]})])


def test_a_team_lost_dies_first_aboard_first_and_its_platoon_tests_morale():
    game = _at_fire()
    st = game.state
    _volley(game, "s-t34", "passengers_lost_1")
    t34 = st.elements["s-t34"]
    assert st.elements["s-r1"].lost and not st.elements["s-r2"].lost
    assert t34.carrying == ["s-r2"] and not t34.lost and not t34.counters
    assert st.phase_data["morale"] == [["p-riders", 1]]  # the riders' platoon (p23)
    assert _enemy(game, "s-t34")["passengers"] == 1


def test_simultaneous_crew_and_passenger_results_both_land():
    """The Marmon-Herrington's crew lost (P344) and its passenger lost in the same volley: the
    passenger dies aboard; nobody is left to get down."""
    game = _at_fire()
    st = game.state
    results = [{"target": "s-mh", "result": "crew_lost"},
               {"target": "s-mh", "result": "passengers_lost_1"}]  # fmt: skip
    fold(game, None, [Draft("volley", {"results": results})])
    assert st.elements["s-mh"].lost and st.elements["s-mh1"].lost
    assert sorted(st.phase_data["morale"]) == [["p-mh", 1], ["p-riders", 1]]


def test_played_through_the_engine_and_the_log_replays():
    """The Komsomolet's rider, without cover, is lost whatever the chance die (p85, p16)."""
    game = _at_fire()
    st = game.state
    game.submit("germany", _cmd(game, "g-lmg", "s-komso"))
    shot = next(e for e in reversed(game.events) if e.type == "shot")
    assert shot.data["result"] == "passengers_lost_1" and shot.visible_to == ("germany",)
    notice = next(e for e in reversed(game.events) if e.type == "shot_at")
    assert notice.visible_to == ("ussr",)
    while not st.elements["s-k1"].lost:
        e = st.elements[st.fire_order[st.fire_step]]
        game.submit(e.side, {"type": "hold", "unit": e.id})
    assert st.elements["s-komso"].carrying == [] and not st.elements["s-komso"].lost
    assert game.replay().state_hash() == game.state_hash()
