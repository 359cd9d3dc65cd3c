"""Bad morale on the table (p23-24): a threatened Shaken platoon's withdrawal, Retreat moves,
regrouping, and the company HQ's test after its platoons' (the `withdrawal.yaml` barn: a lane
runs north-south through a 20 cm barn; German riflemen and a Panzer IV stand up the lane)."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import morale_tests, orders_fire, sight, withdrawal

from .conftest import HERE, Dice, end_phase_d, fold


def barn(**options) -> Game:
    return Game(load_scenario(HERE / "withdrawal.yaml"), seed=7, options=options or None)


def _shaken(game: Game, pid: str, turns: int = 3) -> None:
    st = game.state
    st.platoons[pid].status = "shaken"
    for m in st.platoons[pid].members:
        st.elements[m].counters["shaken"] = turns


def _place(game: Game, **at: tuple[float, float]) -> None:
    st = game.state
    for uid, (x, y) in at.items():
        e = st.elements[uid]
        e.x, e.y, e.feature = x, y, st.board.feature(x, y)
    sight.look(st)


def _compulsory(game: Game, n: int):
    """The compulsory-move events since event `n`."""
    return [e for e in game.events[n:] if e.type == "retreat_move" and e.data["moves"]]


def test_p24_a_threatened_shaken_platoon_withdraws_free_and_stops_in_cover():
    """Enemy riflemen 17 cm and a Panzer IV 34 cm from a Shaken rifle team (p24: infantry
    within 20 cm, AFVs within 40 cm): at the start of phase F it withdraws, with no pip, away
    from them down the lane into the barn, and stops where none of them can see it and none is
    near: 9 cm on, 5 cm and more inside the barn (p8: sight enters 5 cm)."""
    game = barn()
    _shaken(game, "b-inf")
    n = len(game.events)
    end_phase_d(game)
    st = game.state
    (ev,) = _compulsory(game, n)
    assert ev.visible_to == ("britain",)  # the owner's alone
    move = next(m for m in ev.data["moves"] if m["unit"] == "b-inf-1")
    assert move["kind"] == "withdraw" and "exited" not in move
    team = st.elements["b-inf-1"]
    assert abs(team.x - 50.0) < 1 and 53.5 < team.y < 55  # in the barn, out of sight
    assert team.id not in st.seen["germany"]
    assert any("safe position" in line and "9.0 cm" in line for line in ev.explanation)
    assert st.companies["b-co"].spent == 0  # no pip (p24)
    # the rest of the platoon, in the open, withdrew too, away from the enemy (south)
    hq = st.elements["b-inf-hq"]
    assert hq.moved == pytest.approx(10.0) and hq.y < 20.0
    # its move is made: it takes no order this turn
    assert game.rules.active_sides(st) == ["britain"]
    with pytest.raises(IllegalCommand, match="already moved"):
        game.submit("britain", {"type": "move", "unit": "b-inf-1", "path": [[50, 50]]})


def test_p271_option_shaken_away_edge_withdraws_toward_the_own_edge():
    """Decision P271: `shaken_away=edge` sends the withdrawal to the own (south) edge instead of
    away from the enemy; the team in the open at (25, 20), with the enemy to its north-east,
    then walks due south."""
    moves = {}
    for way in ("threats", "edge"):
        game = barn(shaken_away=way)
        _shaken(game, "b-inf")
        sight.look(game.state)
        moves[way] = next(m for m in withdrawal.compulsory(game.state, True)["britain"]
                          if m["unit"] == "b-inf-2")  # fmt: skip
    assert moves["edge"]["path"][-1][:2] == [25.0, 10.0]
    (x, y) = moves["threats"]["path"][-1][:2]
    assert x < 25.0 and y < 20.0  # south-west, away from the Germans up the lane


def test_p24_a_shaken_platoon_with_no_enemy_near_holds():
    game = barn()
    _shaken(game, "b-inf")
    _place(game, **{"g-inf-1": (90.0, 90.0), "g-pz-1": (110.0, 97.0), "g-inf-2": (100.0, 97.0)})
    assert "g-inf-1" in game.state.seen["britain"]
    assert withdrawal.compulsory(game.state, True) == {}


def test_p24_a_shaken_element_may_not_move_nearer_the_enemy():
    game = barn()
    _shaken(game, "b-inf")
    _place(game, **{"g-inf-1": (90.0, 90.0), "g-pz-1": (110.0, 97.0), "g-inf-2": (100.0, 97.0)})
    end_phase_d(game)
    assert game.rules.active_sides(game.state) == ["britain"]  # regulars before veterans (p6)
    with pytest.raises(IllegalCommand, match="Shaken: it may not move nearer"):
        game.submit("britain", {"type": "move", "unit": "b-inf-2", "path": [[25, 24]]})
    st = game.state
    team = st.elements["b-inf-2"]
    foes = withdrawal.threats(st, "britain")
    for c in game.legal_commands("britain"):  # no template walks it toward them
        if c["type"] == "move" and c["unit"] == "b-inf-2":
            (x, y) = c["path"][-1]
            assert all(abs(x - f.x) + abs(y - f.y) > 0 for f in foes)
            assert not withdrawal.approaches(st, team, (x, y))
    game.submit("britain", {"type": "move", "unit": "b-inf-2", "path": [[25, 16]]})
    assert (team.x, team.y) == (25, 16)


def test_fog_an_unseen_enemy_changes_no_withdrawal_and_is_never_named():
    """A German team deep in the barn, which the British do not observe, neither steers the
    Shaken withdrawal nor the Retreat, and no British log line names it (fog of war)."""
    game = barn()
    st = game.state
    _shaken(game, "b-inf")
    st.elements["b-two-1"].counters["retreat"] = 1
    _place(game, **{"g-inf-2": (44.0, 44.0)})  # 16 cm deep in the barn
    assert "g-inf-2" not in st.seen["britain"]
    first = withdrawal.compulsory(st, True)
    _place(game, **{"g-inf-2": (56.0, 48.0)})  # elsewhere in the barn, still unseen
    assert "g-inf-2" not in st.seen["britain"]
    assert withdrawal.compulsory(st, True) == first
    retreat = next(m for m in first["britain"] if m["unit"] == "b-two-1")
    assert retreat["path"][-1][1] < 20.0  # toward its own edge, as if the barn were empty
    n = len(game.events)
    end_phase_d(game)
    told = [e for e in game.events[n:] if e.visible("britain")]
    hidden = st.aliases.alias("britain", "g-inf-2")
    for e in told:
        text = " ".join(e.explanation) + str(e.data)
        assert "g-inf-2" not in text and hidden not in text


def test_p24_a_retreating_tank_leaves_the_table_by_its_edge_and_is_lost():
    game = barn()
    st = game.state
    st.platoons["b-tk"].status = "retreat"
    st.elements["b-tk-1"].counters["retreat"] = 1
    n = len(game.events)
    end_phase_d(game)
    (ev,) = _compulsory(game, n)
    (move,) = [m for m in ev.data["moves"] if m["unit"] == "b-tk-1"]
    assert move["exited"] == "south" and move["path"][-1][1] == 0.0
    tank = st.elements["b-tk-1"]
    assert tank.lost and tank.exited == "south"
    assert any("is lost" in line for line in ev.explanation)
    status = next(p for p in game.rules.statuses(st) if p.id == "b-tk-1")
    assert status.lost  # a casualty, not a breakthrough (p24)


def test_p24_a_retreat_with_an_enemy_in_its_way_runs_directly_away_from_the_enemy():
    game = barn()
    st = game.state
    st.elements["b-two-1"].counters["retreat"] = 1
    _place(game, **{"b-two-1": (85.0, 50.0), "g-inf-2": (85.0, 25.0)})
    assert "g-inf-2" in st.seen["britain"]
    (move,) = [m for m in withdrawal.compulsory(st, True)["britain"] if m["unit"] == "b-two-1"]
    (x0, y0, _), (x1, y1, d) = move["path"]
    assert y1 > y0 and d == pytest.approx(10.0)  # away (north-east), not into the enemy
    _place(game, **{"g-inf-2": (110.0, 25.0)})  # off its line: it makes for its edge
    (move,) = [m for m in withdrawal.compulsory(st, True)["britain"] if m["unit"] == "b-two-1"]
    assert move["path"][-1][:2] == [85.0, 40.0]


def test_p24_a_retreating_unit_surrenders_to_an_enemy_it_sees_within_20_cm():
    game = barn()
    st = game.state
    _place(game, **{"b-two-1": (90.0, 80.0), "b-two-2": (20.0, 60.0)})
    _place(game, **{"g-inf-2": (100.0, 85.0)})  # 11 cm from b-two-1; the others 40 cm off
    assert "g-inf-2" in st.seen["britain"]
    st.phase_data["morale"] = [["b-two", 1]]  # a team lost: 1+1-3 -> Retreat
    (test,) = game.rules.automatic(st, Dice(1, 1))
    assert test.data == {"platoon": "b-two", "result": "retreat"}
    assert any("surrenders" in x for x in test.explanation)
    fold(game, "britain", [test])
    assert st.elements["b-two-1"].lost  # surrendered (p24)
    assert not st.elements["b-two-2"].lost and st.elements["b-two-2"].has("retreat")


# ------------------------------------------------------------------ the cascade (p23)
def test_p23_the_company_hq_tests_once_after_every_platoon_the_fire_hit():
    """Fire costs two platoons a team each: both test first (p23 step 6), one Retreats, one is
    Shaken; the company HQ then tests once, with -2 and -1 for them, and an OK leaves each
    platoon with its own result (p23)."""
    game = barn()
    st = game.state
    orders_fire.land(st, [{"target": "b-inf-2", "result": "lost_1"},
                          {"target": "b-two-2", "result": "lost_1"}])  # fmt: skip
    # 4 Platoon 1+1-3 -> Retreat; 5 Platoon 2+2-3 -> Shaken, 1D6 3 turns; the HQ 6+6-3 -> OK
    dice = Dice(1, 1, 2, 2, 3, 6, 6)
    events = []
    while morale_tests.pending(st):
        drafts = game.rules.automatic(st, dice)
        fold(game, "britain", drafts)
        events += drafts
    assert [d.data for d in events] == [
        {"platoon": "b-inf", "result": "retreat"},
        {"platoon": "b-two", "result": "shaken", "turns": 3},
        {"company": "b-co", "result": "ok"},
    ]
    company = events[-1].explanation
    assert any("1 sub-unit(s) shaken -1" in x for x in company)
    assert any("1 sub-unit(s) lost -2" in x for x in company)
    assert st.platoons["b-inf"].status == "retreat" and st.platoons["b-two"].status == "shaken"
    assert st.platoons["b-tk"].status == "ok"
    assert all(d.visible_to == ("britain",) for d in events)


def test_p24_a_shaken_result_wears_off_when_its_turns_run_out():
    game = barn()
    st = game.state
    _shaken(game, "b-two", turns=1)
    st.companies["b-co"].status = "shaken"
    game.rules._new_turn(st, 2)
    assert st.platoons["b-two"].status == "ok" and st.companies["b-co"].status == "ok"
    assert not st.elements["b-two-1"].has("shaken")


def test_p24_an_afv_platoon_counts_its_lost_tanks_until_a_regroup_writes_them_off():
    """p23: an AFV platoon tests with its tanks as sub-units, -2 for each destroyed; p24: a
    regroup clears the penalty for casualties."""
    from .conftest import skirmish

    game = Game(skirmish(), seed=7)
    st = game.state
    troop = st.platoons["b-tk"]
    st.elements["b-tk-2"].lost = True
    assert morale_tests.platoon_test(st, troop, 0).subunits_lost == 1  # lost in an earlier turn
    st.elements["b-tk-1"].counters["hull_damaged"] = 1
    alone = morale_tests.platoon_test(st, troop, 0)
    assert alone.afv_damaged  # the last tank tests as itself: -6 (p23)
    troop.written_off = ["b-tk-2"]
    assert morale_tests.platoon_test(st, troop, 0).subunits_lost == 0


# ------------------------------------------------------------------ regrouping (p24)
def _idle_until(game: Game, turn: int, phase: str) -> None:
    """Play on with nobody moving or firing until `phase` of `turn`."""
    st = game.state
    for _ in range(500):
        if st.turn == turn and st.phase == phase:
            return
        (side, *_) = game.rules.active_sides(st)
        legal = game.legal_commands(side)
        pick = next((c for c in legal if c["type"] in ("end_phase", "end_platoon", "hold")), None)
        assert pick is not None, legal
        game.submit(side, pick)
    raise AssertionError("did not get there")


def _gather(game: Game) -> None:
    """Both British rifle platoons down to their HQ teams, side by side in the south-west."""
    st = game.state
    for uid in ("b-inf-1", "b-inf-2", "b-two-1", "b-two-2"):
        st.elements[uid].lost = True
    _place(game, **{"b-two-hq": (28.0, 20.0)})


def test_p24_regroup_refusals():
    game = barn()
    st = game.state
    st.elements["b-inf-1"].lost = True
    end_phase_d(game)
    order = {"type": "regroup", "platoons": ["b-inf", "b-two"]}
    with pytest.raises(IllegalCommand, match="less than half"):
        game.submit("britain", order)
    for uid in ("b-inf-2", "b-two-1", "b-two-2"):
        st.elements[uid].lost = True
    with pytest.raises(IllegalCommand, match="within 10 cm"):
        game.submit("britain", order)
    with pytest.raises(IllegalCommand, match="two platoons"):
        game.submit("britain", {"type": "regroup", "platoons": ["b-inf"]})
    with pytest.raises(IllegalCommand, match="not a platoon of yours"):
        game.submit("britain", {"type": "regroup", "platoons": ["b-inf", "g-inf"]})
    _place(game, **{"b-two-hq": (28.0, 20.0)})
    _shaken(game, "b-two")
    with pytest.raises(IllegalCommand, match="poor morale"):
        game.submit("britain", order)


def test_p24_two_broken_platoons_regroup_into_one_after_two_moves():
    game = barn()
    st = game.state
    _gather(game)
    end_phase_d(game)
    assert {"type": "regroup", "platoons": ["b-inf", "b-two"]} in game.legal_commands("britain")
    n = len(game.events)
    game.submit("britain", {"type": "regroup", "platoons": ["b-inf", "b-two"]})
    assert [e.type for e in game.events[n : n + 2]] == ["regroup", "platoon_moved"]
    assert all(e.visible_to == ("britain",) for e in game.events[n : n + 2])
    assert st.companies["b-co"].spent == 0  # no pip: they stay where they are
    own = game.view("britain")["panzerfaust"]["regroups"]
    assert own and own[0]["platoons"] == ["b-inf", "b-two"] and own[0]["moves"] == 1
    assert game.view("germany")["panzerfaust"]["regroups"] == []  # the enemy is told nothing
    _idle_until(game, 3, "F")
    (done,) = [e for e in game.events if e.type == "regrouped"]
    assert done.visible_to == ("britain",)
    inf, two = st.platoons["b-inf"], st.platoons["b-two"]
    assert inf.members == ["b-inf-1", "b-inf-2", "b-inf-hq", "b-two-hq"]
    assert inf.written_off == ["b-inf-1", "b-inf-2"] and inf.hq == "b-inf-hq"
    assert st.elements["b-two-hq"].platoon == "b-inf"
    assert not [m for m in two.members if st.elements[m].active]  # an empty husk
    assert not st.regroups


def test_p24_a_regroup_breaks_when_an_element_moves_or_is_fired_on():
    game = barn()
    st = game.state
    _gather(game)
    end_phase_d(game)
    game.submit("britain", {"type": "regroup", "platoons": ["b-inf", "b-two"]})
    assert st.regroups
    orders_fire.land(st, [{"target": "b-two-hq", "result": "survives"}])
    broken = game.rules.automatic(st, Dice())
    assert [d.type for d in broken] == ["regroup_broken"] and broken[0].visible_to == ("britain",)
    assert "came under enemy fire" in broken[0].explanation[0]
    fold(game, "britain", broken)
    assert not st.regroups and game.rules.automatic(st, Dice()) == []  # told once
    # a second try next turn; the turn after, the HQ walks off
    _idle_until(game, 2, "F")
    game.submit("britain", {"type": "regroup", "platoons": ["b-inf", "b-two"]})
    _idle_until(game, 3, "F")
    assert st.regroups and game.rules.active_sides(st) == ["britain"]
    n = len(game.events)
    game.submit("britain", {"type": "move", "unit": "b-inf-hq", "path": [[20, 15]]})
    kinds = [e.type for e in game.events[n:]]
    assert "regroup_broken" in kinds and not st.regroups
    (ev,) = [e for e in game.events[n:] if e.type == "regroup_broken"]
    assert "moved" in ev.explanation[0]


def test_p24_example_2_a_poor_company_with_a_shaken_and_a_retreating_platoon_retreats():
    """p24 morale example 2: a Poor company whose lead platoons came out Shaken and Retreat
    tests with -1, -2 and -2 for Poor; a die roll of 5 gives 0: Retreat. The game builds
    that test from the platoons' statuses."""
    from kriegsspiel.chance import sample
    from kriegsspiel.rulesets.panzerfaust.rules import morale

    game = barn()
    st = game.state
    st.companies["b-co"].morale = "poor"
    st.platoons["b-inf"].status = "shaken"
    st.platoons["b-two"].status = "retreat"
    t = morale_tests.company_test(st, "b-co")
    assert (t.subunits_shaken, t.subunits_lost, t.afv) == (1, 1, False)
    assert sum(m.value for m in morale.modifiers(st.rules, t)) == -5
    assert sample(morale.morale, st.rules, t, dice_script=[2, 3]).result.name == "retreat"


def test_p38_a_retreat_stops_where_a_mine_goes_off():
    """A retreating rifle team walks into a German AP minefield it cannot see: 2D6 = 2 trips a
    mine and kills it where the square begins (p38); the move's mines are swept like any
    move's and only the result is told to the British."""
    from kriegsspiel.rulesets.panzerfaust.game import orders_move
    from kriegsspiel.rulesets.panzerfaust.game.state import Marker

    game = barn()
    st = game.state
    st.elements["b-two-1"].counters["retreat"] = 1
    field = [[80.0, 8.0], [90.0, 8.0], [90.0, 14.0], [80.0, 14.0]]
    st.markers["g-mines"] = Marker("g-mines", "mines", "germany", 85.0, 11.0, visible_to=["germany"],
                                   data={"polygon": field, "density": "medium", "mine": "ap"})  # fmt: skip
    moves = withdrawal.compulsory(st, True)
    drafts = orders_move._compulsory(st, moves, Dice(1, 1))
    assert [d.type for d in drafts] == ["retreat_move", "mine_check", "mine_hits"]
    assert drafts[1].visible_to == ("britain",) and drafts[2].visible_to == ()
    fold(game, "britain", drafts)
    team = st.elements["b-two-1"]
    assert team.lost and (team.x, team.y) == (85.0, 14.0) and team.exited is None
    assert "g-mines" not in str(game.view("britain"))


def test_p24_an_enemy_coming_within_20_cm_of_a_retreating_unit_takes_it_prisoner():
    """p24: a Retreating unit that an enemy comes within 20 cm of surrenders at once; an enemy
    it does not observe (deep in the barn) takes no one and is not revealed."""
    game = barn()
    st = game.state
    st.elements["b-two-1"].counters["retreat"] = 1
    _place(game, **{"b-two-1": (63.0, 45.0), "g-inf-2": (49.0, 45.0)})  # 14 cm, 9 cm inside
    assert "g-inf-2" not in st.seen["britain"]
    assert game.rules.automatic(st, Dice()) == []
    _place(game, **{"g-inf-2": (70.0, 58.0)})  # in the open, 14.8 cm off
    assert "g-inf-2" in st.seen["britain"]
    (told,) = game.rules.automatic(st, Dice())
    assert told.type == "surrendered" and told.data == {"units": ["b-two-1"]}
    assert told.visible_to == ("britain",) and "surrenders" in told.explanation[0]
    fold(game, "britain", [told])
    assert st.elements["b-two-1"].lost and game.rules.automatic(st, Dice()) == []
