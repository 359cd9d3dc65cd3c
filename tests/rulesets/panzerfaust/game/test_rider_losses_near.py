"""Riders' deaths among a retreating platoon's losses to near enemies (p24, p17, p28; decisions
P360-P362), on the scenario passfire.yaml.

The riders' platoon (p-riders) is put under a Retreat result: its BA-10 passenger is taken off
and stood on the ground with the Retreat counter (only elements on the table carry it, so the
platoon counts as retreating, P310), its other teams still ride. Distances by hand: the German
LMG at (100, 40) is 25 cm from the T-34 at (78.35, 52.5) (21.65 and 12.5 cm: 468.72 + 156.25 =
624.97, root 25.0) and from the GAZ truck at (121.65, 52.5) alike; from (160, 100) it is
sqrt(81.65^2 + 47.5^2) = 94.5 cm from the T-34, past 60 cm."""

from __future__ import annotations

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import orders_fire, sight

from .conftest import HERE, Dice, fold, to_fire

PASS = HERE / "passfire.yaml"
T34 = (78.35, 52.5)


def _retreating(**opts) -> Game:
    game = Game(load_scenario(PASS), seed=3, options=opts or None)
    to_fire(game, "g-lmg")
    st = game.state
    b1, ba10 = st.elements["s-b1"], st.elements["s-ba10"]
    ba10.carrying.remove("s-b1")
    b1.transport, b1.x, b1.y = None, 116.07, 75.0  # 39 cm from the LMG: no 20 cm surrender
    b1.feature = st.board.feature(b1.x, b1.y)
    st.platoons["p-riders"].status = "retreat"
    b1.counters["retreat"] = 1
    sight.look(st)
    return game


def _land(game: Game, target: str, result: str, at=None) -> None:
    orders_fire.land(game.state, [{"target": target, "result": result, "src": "g-lmg", "at": at}])


def test_p24_a_rider_killed_by_passenger_fire_from_25_cm_makes_its_retreating_platoon_surrender():
    """The T-34's first rider dies (P350); its platoon, retreating, surrenders whole at once:
    the team on the ground and the teams still riding the other vehicles (P362)."""
    game = _retreating()
    st = game.state
    assert "g-lmg" in st.seen["ussr"]
    _land(game, "s-t34", "passengers_lost_1", at=list(T34))
    assert st.phase_data["surrender_due"] == [["p-riders", "g-lmg", 25.0]]
    (gone,) = game.rules.automatic(st, Dice())
    assert gone.type == "surrendered" and gone.visible_to == ("ussr",)
    assert gone.data == {
        "units": ["s-r2", "s-k1", "s-h1", "s-h2", "s-mh1", "s-b1", "s-tr1"],
        "platoon": "p-riders",
    }
    line = gone.explanation[0]
    assert "25 cm" in line and "60 cm" in line and "p24" in line
    assert st.aliases.alias("ussr", "g-lmg") in line
    fold(game, "ussr", [gone])
    assert all(st.elements[m].lost for m in st.platoons["p-riders"].members)
    assert st.elements["s-t34"].carrying == [] and not st.elements["s-t34"].lost
    assert st.elements["s-m3"].carrying == [] and not st.elements["s-m3"].lost


def test_p24_a_rider_killed_from_beyond_60_cm_brings_only_a_morale_test():
    game = _retreating()
    st = game.state
    g = st.elements["g-lmg"]
    g.x, g.y = 160.0, 100.0  # 94.5 cm from the T-34
    _land(game, "s-t34", "passengers_lost_1")
    assert "surrender_due" not in st.phase_data
    assert st.phase_data["morale"] == [["p-riders", 1]]
    assert not st.elements["s-r2"].lost


def test_p24_a_rider_killed_by_an_unobserved_firer_brings_only_a_morale_test():
    """The LMG inside the house (ground floor) 25 cm from the T-34: no Soviet element sees it."""
    game = _retreating()
    st = game.state
    g, t = st.elements["g-lmg"], st.elements["s-t34"]
    g.x, g.y, g.feature = 145.0, 35.0, st.board.feature(145.0, 35.0)
    t.x, t.y = 120.0, 35.0
    sight.look(st)
    assert "g-lmg" not in st.seen["ussr"]
    assert not any("g-lmg" in seen for o, seen in st.spotted.items() if o.startswith("s-"))
    _land(game, "s-t34", "passengers_lost_1")
    assert "surrender_due" not in st.phase_data
    assert st.phase_data["morale"] == [["p-riders", 1]]


def test_p24_the_distance_is_taken_where_the_fire_found_the_vehicle():
    """The T-34 drove on 40 cm after the LMG saw it pass (backtracking, p6): its riders died
    where they were seen, 25 cm away, and that is the distance that counts (P360)."""
    game = _retreating()
    st = game.state
    st.elements["s-t34"].y = 92.5  # now 60.4 cm from the LMG: sqrt(21.65^2 + 52.5^2)
    _land(game, "s-t34", "passengers_lost_1", at=list(T34))
    assert st.phase_data["surrender_due"] == [["p-riders", "g-lmg", 25.0]]


def test_p28_riders_killed_with_their_afv_destroyed_count_by_default_not_with_fired_at():
    """p28/p37: riders die with their AFV; as casualties from a near enemy they count for the
    riders' retreating platoon (default `rider_losses_near=all`, P361); `fired_at` counts only
    fire that fell on the riders themselves."""
    game = _retreating()
    _land(game, "s-t34", "destroyed")
    assert game.state.phase_data["surrender_due"] == [["p-riders", "g-lmg", 25.0]]
    game = _retreating(rider_losses_near="fired_at")
    _land(game, "s-t34", "destroyed")
    st = game.state
    assert st.elements["s-r1"].lost and st.elements["s-r2"].lost
    assert "surrender_due" not in st.phase_data


def test_p17_a_softskins_passenger_killed_by_small_arms_counts_under_either_option():
    """Small arms at the GAZ truck fall on its passenger first (p17): fire on the riders."""
    for opt in ("all", "fired_at"):
        game = _retreating(rider_losses_near=opt)
        _land(game, "s-truck", "lost_1")
        st = game.state
        assert st.elements["s-tr1"].lost
        assert st.phase_data["surrender_due"] == [["p-riders", "g-lmg", 25.0]]


def test_a_crew_bail_out_kills_no_rider_and_so_causes_no_surrender():
    """The Marmon-Herrington's crew lost (P344): its passenger gets down alive (P308)."""
    game = _retreating()
    _land(game, "s-mh", "crew_lost")
    st = game.state
    assert not st.elements["s-mh1"].lost and st.elements["s-mh1"].transport is None
    assert "surrender_due" not in st.phase_data
