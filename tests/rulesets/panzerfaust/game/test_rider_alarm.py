"""Tank riders fired upon get down the next turn (p28; P354-P359), on rider_alarm.yaml.

s-t34 carries two rifle teams, s-smgt a Soviet SMG platoon's section (p87: exempt, p28), s-far
two rifle teams 30 cm west of s-t34. The Panzer IV's 75 mm HE has a 6 cm beaten zone (p32):
aimed at the rifle team 3 cm from s-t34 it covers s-t34 and not s-far. A T-34 moves 17 cm
cross-country (its chart), so half its move is 8.5 cm; riders get down 4 cm behind it."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.commands import IllegalCommand
from kriegsspiel.engine.events import Draft
from kriegsspiel.rulesets.panzerfaust.game import movement, orders_move, rider_alarm

from .conftest import HERE, advance, fold, to_fire

SCEN = HERE / "rider_alarm.yaml"
MARK = rider_alarm.COUNTER


def _game(**opts) -> Game:
    return Game(load_scenario(SCEN), seed=3, options=opts or None)


def _shot(game: Game, firer: str, target: str, result: str, **extra) -> None:
    """Fold one shot of phase G and the volley that lands it (rules level)."""
    alias = game.state.aliases.alias("germany", target)
    data = {"unit": firer, "target": alias, "result": result, "at_xy": None, "at": None, **extra}
    fold(game, "germany", [Draft("shot", data, ("germany",))])
    buffer = list(game.state.phase_data.get("buffer", []))
    fold(game, None, [Draft("volley", {"results": buffer})])


def _marked(game: Game) -> set[str]:
    return {e.id for e in game.state.elements.values() if MARK in e.counters}


@pytest.mark.parametrize(
    ("firer", "target", "result", "extra", "marked"),
    [
        # p28: small arms at the riders themselves, whatever they do (a miss too)
        ("g-lmg", "s-t34", "passengers_lost_0", {"passengers": True}, {"s-t34"}),
        # p28: the tank hit by AT fire, even with no effect
        ("g-pz", "s-t34", "no_penetration", {}, {"s-t34"}),
        ("g-pz", "s-t34", "stunned_1", {}, {"s-t34"}),
        # a miss is not a hit (P354)
        ("g-pz", "s-t34", "miss", {}, set()),
        # p28 direct area fire: the 6 cm beaten zone round the rifle team covers s-t34 only
        ("g-pz", "s-inf", "survives", {"he": True}, {"s-t34"}),
        # P355 default: small arms at the crew are not fire at the riders
        ("g-lmg", "s-t34", "no_effect", {"crew": True}, set()),
        # p28: a Soviet SMG section rides on
        ("g-lmg", "s-smgt", "passengers_lost_0", {"passengers": True}, set()),
        ("g-pz", "s-smgt", "no_penetration", {}, set()),
    ],
)
def test_p28_which_fire_marks_the_afv(firer, target, result, extra, marked):
    game = _game()
    to_fire(game, "g-lmg")
    _shot(game, firer, target, result, **extra)
    assert _marked(game) == marked
    for v in marked:
        assert game.state.elements[v].counters[MARK] == 2  # for the next turn (P359)


def test_p355_option_crew_too_counts_small_arms_at_the_crew():
    game = _game(rider_alarm_crew="crew_too")
    to_fire(game, "g-lmg")
    _shot(game, "g-lmg", "s-t34", "no_effect", crew=True)
    assert _marked(game) == {"s-t34"}


def test_an_afv_whose_riders_all_died_is_not_marked():
    game = _game()
    to_fire(game, "g-lmg")
    for r in ("s-r1", "s-r2"):
        game.state.elements[r].lost = True
    _shot(game, "g-pz", "s-t34", "no_penetration")
    assert _marked(game) == set()


def test_the_mark_is_not_shown_to_the_enemy():
    game = _game()
    to_fire(game, "g-lmg")
    _shot(game, "g-pz", "s-t34", "no_penetration")
    alias = game.state.aliases.alias("germany", "s-t34")
    piece = next(p for p in game.view("germany")["enemies"] if p["id"] == alias)
    assert MARK not in piece.get("counters", {})


def _marked_then_next_turn(**opts) -> Game:
    """Passenger fire at s-t34's riders in turn 1, played through the engine, then on to the
    start of turn 2's phase F."""
    game = _game(**opts)
    to_fire(game, "g-lmg")
    alias = game.state.aliases.alias("germany", "s-t34")
    game.submit("germany", {"type": "fire", "unit": "g-lmg", "target": alias, "passengers": True})
    advance(game, "F", 2)
    return game


def test_p28_next_turn_the_riders_get_down_free_and_the_afv_keeps_half_its_move():
    game = _marked_then_next_turn()
    st = game.state
    t34 = st.elements["s-t34"]
    assert t34.counters[MARK] == 1 and rider_alarm.stopped(t34)
    down = [e for e in game.events if e.type == "riders_down"]
    assert len(down) == 1 and down[0].visible_to == ("ussr",)
    alive = [r for r in ("s-r1", "s-r2") if not st.elements[r].lost]
    assert alive and t34.carrying == []
    for r in alive:
        el = st.elements[r]
        assert el.transport is None and (el.x, el.y) == pytest.approx((100.0, 69.0))  # 4 cm behind
        assert el.moved > 0  # half its move spent getting down (p12, p28)
        assert orders_move.can_move(st, el) == f"{el.name} has already moved this turn"
    assert st.companies["s-co"].spent == 0  # free of pips (P357)
    assert movement.reach(st, t34) == pytest.approx(8.5)  # half of 17 cm (P358)
    assert movement.reach(st, st.elements["s-far"]) == pytest.approx(17.0)
    assert orders_move.can_move(st, t34) is None
    assert game.replay().state_hash() == game.state_hash()


def test_p28_the_afv_is_refused_while_riders_are_aboard_and_no_one_boards_it():
    game = _marked_then_next_turn()
    st = game.state
    t34 = st.elements["s-t34"]
    rider = st.elements["s-r1"] if not st.elements["s-r1"].lost else st.elements["s-r2"]
    t34.carrying.append(rider.id)  # as if still aboard
    rider.transport = t34.id
    why = orders_move.can_move(st, t34)
    assert why is not None and "riders are down" in why and "(p28)" in why
    t34.carrying.remove(rider.id)
    rider.transport, rider.moved = None, 0.0
    with pytest.raises(IllegalCommand, match=r"no one boards it \(p28\)"):
        orders_move.board(st, rider, "s-t34")


def test_p358_option_turn_keeps_the_afv_still_all_turn():
    game = _marked_then_next_turn(rider_alarm_stop="turn")
    t34 = game.state.elements["s-t34"]
    assert game.state.elements["s-t34"].carrying == []
    why = orders_move.can_move(game.state, t34)
    assert why is not None and "rider_alarm_stop=turn" in why


def test_p359_the_mark_is_cleared_the_turn_after():
    game = _marked_then_next_turn()
    st = game.state
    advance(game, "G", 2)
    assert st.elements["s-t34"].counters.get(MARK) == 1
    advance(game, "F", 3)
    assert MARK not in st.elements["s-t34"].counters
    assert movement.reach(st, st.elements["s-t34"]) == pytest.approx(17.0)
    assert len([e for e in game.events if e.type == "riders_down"]) == 1  # turn 2's only


def test_an_unmarked_game_has_no_riders_down_step():
    game = _game()
    advance(game, "F", 2)
    assert not [e for e in game.events if e.type == "riders_down"]
    assert game.state.elements["s-t34"].carrying == ["s-r1", "s-r2"]
