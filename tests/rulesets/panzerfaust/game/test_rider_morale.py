"""Riders killed with their vehicle make their own platoon test morale (p23, p28, p37; decision
P363), on the scenario passfire.yaml.

p23: a platoon that loses elements to enemy fire tests morale; p28/p37: the riders of a
destroyed AFV are removed as casualties with it. The riders are p-riders' teams: two on the
T-34 (s-r1, s-r2), two in the M3 half-track (s-h1, s-h2), one each on the Marmon-Herrington
and the GAZ truck. Counts by hand: a T-34 destroyed is one loss to p-t34 and two to p-riders."""

from __future__ import annotations

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import orders_fire

from .conftest import HERE

PASS = HERE / "passfire.yaml"


def _game() -> Game:
    return Game(load_scenario(PASS), seed=3)


def _land(game: Game, *results: tuple[str, str]) -> list:
    orders_fire.land(game.state, [{"target": t, "result": r} for t, r in results])
    return game.state.phase_data["morale"]


def test_p23_riders_dying_with_their_afv_queue_their_own_platoon_with_its_losses():
    game = _game()
    assert _land(game, ("s-t34", "destroyed")) == [["p-t34", 1], ["p-riders", 2]]
    st = game.state
    assert st.elements["s-r1"].lost and st.elements["s-r2"].lost


def test_p23_a_platoon_that_lost_nothing_is_not_queued():
    """The riders of the other vehicles and the other vehicles' platoons lost nothing."""
    game = _game()
    queued = {q[0] for q in _land(game, ("s-t34", "destroyed"))}
    assert queued == {"p-t34", "p-riders"}
    assert not game.state.elements["s-h1"].lost


def test_p23_two_carriers_destroyed_in_one_volley_sum_the_riders_losses():
    """HE or air fire landing on the T-34 and the M3 at once (both go through the same fold,
    orders_indirect/orders_air): 2 + 2 riders = 4 losses to p-riders, one test."""
    game = _game()
    pending = _land(game, ("s-t34", "destroyed"), ("s-m3", "destroyed"))
    assert pending == [["p-t34", 1], ["p-m3", 1], ["p-riders", 4]]


def test_p23_a_platoon_already_queued_keeps_one_entry():
    """A platoon already queued this volley (its test not yet taken) keeps one entry (p23)."""
    game = _game()
    game.state.phase_data["morale"] = [["p-riders", 1]]
    assert _land(game, ("s-t34", "destroyed")) == [["p-riders", 1], ["p-t34", 1]]


def test_p17_a_softskins_passenger_killed_by_small_arms_is_counted_once():
    """Small arms at the GAZ truck fall on its one passenger first (p17): one loss, as before."""
    game = _game()
    assert ["p-riders", 1] in _land(game, ("s-truck", "lost_1"))


def test_p16_fire_at_an_afvs_passengers_is_counted_once():
    game = _game()
    assert _land(game, ("s-t34", "passengers_lost_1")) == [["p-riders", 1]]


def test_a_crew_lost_kills_no_rider_so_the_riders_do_not_test():
    """The Marmon-Herrington's crew lost (P344): its passenger gets down alive (P308)."""
    game = _game()
    queued = {q[0] for q in _land(game, ("s-mh", "crew_lost"))}
    assert "p-riders" not in queued and not game.state.elements["s-mh1"].lost
