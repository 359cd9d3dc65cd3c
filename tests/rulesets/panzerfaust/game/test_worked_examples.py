"""The rulebook's worked examples that are game situations (digest §5), played through the
Panzerfaust game: pips (p6-7 #1, #2), backtracking (p6 #3), covering fire width and pinning
(p17 #9), the morale cascade (p24 #14), observation (p8-9)."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand
from kriegsspiel.rulesets.panzerfaust.game import morale_tests, orders_fire, withdrawal

from .conftest import Dice, duel, end_phase_d, fold, settle, to_fire


def _to_germany(game: Game) -> None:
    """Phase F: let Britain end its platoons until Germany is to move."""
    while game.rules.active_sides(game.state) == ["britain"]:
        end = next(c for c in game.legal_commands("britain") if c["type"] == "end_platoon")
        game.submit("britain", end)


def test_p6_one_afv_alone_then_its_platoon_as_a_group_costs_two_pips(game: Game):
    """#1 (p6): one AFV moved by itself (1 pip), the rest of its platoon together (1 pip)."""
    end_phase_d(game)
    _to_germany(game)
    co = game.state.companies["g-co"]
    assert co.pips >= 3  # veteran: 1-2 re-rolled (p7)
    game.submit("germany", {"type": "move", "unit": "g-pz-1", "path": [[60, 100]]})
    game.submit("germany", {"type": "group", "platoon": "g-pz", "order": "move", "dx": 0, "dy": -5})
    assert co.spent == 2
    st = game.state
    assert (st.elements["g-pz-1"].x, st.elements["g-pz-1"].y) == (60, 100)  # not moved twice
    assert (st.elements["g-pz-2"].x, st.elements["g-pz-2"].y) == (75, 103)
    assert st.platoons["g-pz"].moved


def test_p6_a_company_spending_its_only_pip_on_one_squad_has_finished(game: Game):
    """#2 (p6): a company with 1 pip moves one element: the whole company has moved."""
    end_phase_d(game)
    assert game.state.companies["b-co"].pips == 1
    assert game.rules.active_sides(game.state) == ["britain"]  # lowest class moves first (p6)
    game.submit("britain", {"type": "move", "unit": "b-inf-2", "path": [[95, 28]]})
    assert game.state.companies["b-co"].finished
    with pytest.raises(IllegalCommand, match="finished its movement"):
        game.submit("britain", {"type": "move", "unit": "b-inf-1", "path": [[85, 28]]})
    with pytest.raises(IllegalCommand, match="finished its movement"):
        game.submit("britain", {"type": "group", "platoon": "b-inf", "order": "defend"})


def _duel_to_fire() -> Game:
    """The duel scenario at phase G: the Cromwell drove 16 cm east into the farm's shadow."""
    game = Game(duel(), seed=3)
    end_phase_d(game)
    while game.state.phase == "F":
        side = game.rules.active_sides(game.state)[0]
        if side == "britain" and game.state.elements["b-tk-1"].moved == 0:
            game.submit(side, {"type": "move", "unit": "b-tk-1", "path": [[82, 40]]})
        else:
            end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
            game.submit(side, end)
    assert game.state.phase == "G"
    return game


def test_p6_backtracking_a_destroyed_mover_stays_where_it_was_hit():
    """#3 (p6): a tank visible for the first part of its move, then behind a building; the gun
    that saw it fires at it there and destroys it: the wreck stays at that point."""
    game = _duel_to_fire()
    st = game.state
    assert "b-tk-1" not in st.seen["germany"]  # now behind the farm
    assert game.rules.active_sides(st) == ["germany"]  # the PaK may still fire at it (p6)
    alias = st.aliases.alias("germany", "b-tk-1")
    templates = [c for c in game.legal_commands("germany") if c["type"] == "fire"]
    assert templates and all(c["target"] == alias and c["at"] <= 14 for c in templates)
    with pytest.raises(IllegalCommand, match="did not observe the target at that point"):
        game.rules.resolve(st, "germany", {"type": "fire", "unit": "g-pak", "target": alias,
                                           "at": 16.0}, Dice())  # fmt: skip
    # to-hit 3D6 = 3 (needs 12 - 3 crossing), location 3 (upper hull), effects 13 + 3 = 16
    drafts = game.rules.resolve(
        st, "germany", {"type": "fire", "unit": "g-pak", "target": alias, "at": 8.0},
        Dice(1, 1, 1, 3, 1, 6, 6),
    )  # fmt: skip
    shot = drafts[0]
    assert shot.data["result"] == "destroyed"
    assert any("band 4" in line for line in shot.explanation)  # every roll explained
    assert any(line.startswith("placeholder used:") for line in shot.explanation)
    fold(game, "germany", drafts)
    settle(game, Dice(*[3] * 20))  # the volley lands, Britain's troop tests morale
    tank = st.elements["b-tk-1"]
    assert tank.lost and (tank.x, tank.y) == (74.0, 40.0)


def test_p6_backtracking_a_mover_only_stunned_completes_its_move():
    game = _duel_to_fire()
    st = game.state
    alias = st.aliases.alias("germany", "b-tk-1")
    drafts = game.rules.resolve(
        st, "germany", {"type": "fire", "unit": "g-pak", "target": alias, "at": 8.0},
        Dice(1, 1, 1, 3, 1, 1, 1),
    )  # fmt: skip
    assert drafts[0].data["result"].startswith(("stunned", "no_effect", "gun_damaged"))
    fold(game, "germany", drafts)
    settle(game, Dice(*[3] * 20))
    tank = st.elements["b-tk-1"]
    assert not tank.lost and (tank.x, tank.y) == (82.0, 40.0)


def test_p17_covering_fire_zone_width_and_pinning(game: Game):
    """#9 (p17): an LMG team covers one base width, a Pz IV's two LMGs two; enemy infantry in
    the zone are pinned and must pass a morale test before they move."""
    game.submit("germany", {"type": "cover", "unit": "g-pz-1", "x": 95.0, "y": 24.0})
    st = game.state
    (zone,) = [m for m in st.markers.values() if m.kind == "cf"]
    assert zone.radius == 4.0  # 2 LMG = 2 base widths of 4 cm (p17)
    assert st.elements["b-inf-2"].has("pinned") and not st.elements["b-inf-1"].has("pinned")
    assert st.companies["g-co"].spent == 1  # 1 pip per covering-fire unit (p6)
    # the firer's side sees the zone; the target side sees it too, but not who fires
    brit = game.view("britain")
    assert [m["radius"] for m in brit["panzerfaust"]["markers"]] == [4.0]
    assert not any(e.type == "cover" and e.visible("britain") for e in game.events)
    game.submit("germany", {"type": "end_phase"})
    game.submit("britain", {"type": "end_phase"})
    n = len(game.events)
    game.submit("britain", {"type": "move", "unit": "b-inf-2", "path": [[95, 28]]})
    kinds = [e.type for e in game.events[n:]]
    assert kinds[0] == "pin_test"  # the morale test came first
    if game.events[n].data["acts"]:  # it broke cover: the Panzer's MGs fire at -5 (p17)
        assert kinds[1:3] == ["cf_hits", "shot_at"] and "move" in kinds
        hit = game.events[n + 2]
        assert hit.visible_to == ("britain",) and hit.data["by"] is None
        assert any("speculative or covering fire -5" in x for x in hit.explanation)
    else:
        assert "move" not in kinds


def test_p24_platoon_and_company_retreat_all_survivors_retreat(game: Game):
    """#14 (p24): a platoon loses AFVs, tests and retreats; its company HQ then tests and
    retreats too: every surviving element of the company retreats (compulsory, free). The same
    fire also cost the rifle platoon a team: p23 step 6 has every platoon hit by the event test
    before the company HQ does, so the company tests after both, once."""
    st = game.state
    orders_fire.land(st, [{"target": "b-tk-1", "result": "destroyed"},
                          {"target": "b-inf-1", "result": "lost_1"}])  # fmt: skip
    assert [q[0] for q in st.phase_data["morale"]] == ["b-tk", "b-inf"]
    # 2D6 = 2 for the troop (-> retreat), 12 for the rifle platoon (OK), 2 for the company HQ
    dice = Dice(1, 1, 6, 6, 1, 1)
    troop = game.rules.automatic(st, dice)
    assert [d.data for d in troop] == [{"platoon": "b-tk", "result": "retreat"}]
    fold(game, "britain", troop)
    assert st.phase_data["company_tests"] == ["b-co"]  # waits for the rifle platoon's test
    rifles = game.rules.automatic(st, dice)
    assert [d.data for d in rifles] == [{"platoon": "b-inf", "result": "ok"}]
    fold(game, "britain", rifles)
    company = game.rules.automatic(st, dice)
    assert [d.data for d in company] == [{"company": "b-co", "result": "retreat"}]
    assert any("1 sub-unit(s) lost -2" in x for x in company[0].explanation)  # the troop
    fold(game, "britain", company)
    assert not morale_tests.pending(st)
    survivors = [e for e in st.side_elements("britain") if not e.lost]
    assert survivors and all(e.has("retreat") for e in survivors)
    assert st.platoons["b-wood"].status == "retreat"  # the HQ's result stands for all (p23)
    moves = withdrawal.compulsory(st, True)["britain"]
    assert {m["unit"] for m in moves} == {e.id for e in survivors}
    assert all(m["path"][-1][1] < m["path"][0][1] for m in moves)  # towards their south edge


def test_p8_spotted_stays_spotted_until_line_of_sight_or_feature_changes():
    game = Game(duel(), seed=3)
    st = game.state
    assert "b-tk-1" in st.spotted["g-pak"]
    tank = st.elements["b-tk-1"]
    tank.x = 82.0  # behind the farm: the line of sight is lost
    from kriegsspiel.rulesets.panzerfaust.game import sight

    sight.look(st)
    assert "b-tk-1" not in st.spotted.get("g-pak", {})
    assert st.last_seen["germany"]["b-tk-1"] == [66.0, 40.0]
    assert game.view("germany")["enemies"] == []
    assert [m["x"] for m in game.view("germany")["last_known"]] == [66.0]


def test_p9_arc_of_vision_and_camouflage():
    from kriegsspiel.rulesets.panzerfaust.game import sight

    game = Game(duel(), seed=3)
    st = game.state
    pak, inf = st.elements["g-pak"], st.elements["b-inf-1"]
    st.spotted.clear()
    pak.facing = 0.0  # facing away, north: the rifle team to its south-east is outside its arc
    assert not sight.sees(st, pak, st.elements["b-tk-1"], {})
    pak.facing = 180.0
    base = sight.reach(st, pak, inf)
    inf.counters["camouflaged"] = 1
    assert sight.reach(st, pak, inf) == base / 2  # p8: camouflaged x1/2


def test_p32_a_gun_fires_he_at_infantry_and_every_team_in_the_zone_rolls(game: Game):
    """A PaK 40 has no small arms: at infantry it fires HE (p31-32); each enemy team in the
    beaten zone rolls on its own; the firer is told only about the team it aimed at."""
    to_fire(game, "g-pak")
    st = game.state
    alias = st.aliases.alias("germany", "b-inf-2")
    assert {"type": "fire", "unit": "g-pak", "target": alias} in game.legal_commands("germany")
    st.elements["b-inf-1"].x, st.elements["b-inf-1"].y = 93.0, 24.0  # 2 cm away: in the zone
    # the dice: b-inf-1 (first on the table) rolls 6+6+6, b-inf-2 1+1+1
    drafts = game.rules.resolve(
        st, "germany", {"type": "fire", "unit": "g-pak", "target": alias}, Dice(6, 6, 6, 1, 1, 1)
    )
    shot, hits = drafts[0], drafts[1]
    assert shot.data["he"] and shot.data["result"] == "destroyed"
    assert hits.type == "area_hits" and hits.visible_to == ()  # the umpire's: names every team
    assert {(r["target"], r["result"]) for r in hits.data["results"]} == {
        ("b-inf-2", "destroyed"),
        ("b-inf-1", "survives"),
    }
    told = [d for d in drafts if d.type == "shot_at"]
    assert {d.data["unit"] for d in told} == {"b-inf-1", "b-inf-2"}
    assert all(d.visible_to == ("britain",) for d in told)
    assert any("p32" in line for line in shot.explanation)


def test_p24_shaken_fires_only_back_and_retreating_does_not_fire(game: Game):
    from kriegsspiel.rulesets.panzerfaust.game import fire_order

    st = game.state
    pz1, pz2 = st.elements["g-pz-1"], st.elements["g-pz-2"]
    assert orders_fire.targets(st, pz1)  # steady: everything it observes in reach
    pz1.counters["shaken"] = 2
    pz2.counters["retreat"] = 1
    assert not fire_order.may_fire(st, pz2)  # retreating: no fire (p24)
    assert fire_order.may_fire(st, pz1) and orders_fire.targets(st, pz1) == []
    st.phase_data["shots"] = {"b-tk-2>g-pz-1": 1}  # the Cromwell fired on it this turn
    assert [t.id for t in orders_fire.targets(st, pz1)] == ["b-tk-2"]
    assert orders_fire.backtracks(st, pz1) == []


def test_p24_the_company_hq_rallies_a_shaken_platoon(game: Game):
    from kriegsspiel.rulesets.panzerfaust.game import rally

    st = game.state
    st.platoons["g-pz"].status = "shaken"
    for m in ("g-pz-1", "g-pz-2"):
        st.elements[m].counters["shaken"] = 3
    end_phase_d(game)
    _to_germany(game)
    with pytest.raises(IllegalCommand, match="not within 5 cm"):
        rally.check(st, "germany", "g-co-hq", "g-pz")
    st.platoons["g-at"].status = "retreat"
    with pytest.raises(IllegalCommand, match="a higher HQ"):  # its own platoon HQ cannot
        rally.check(st, "germany", "g-pak", "g-at")
    st.elements["g-co-hq"].x, st.elements["g-co-hq"].y = 72.0, 106.0  # beside the Panzers
    platoon = game.state.phase_data.get("platoon")
    assert platoon in (None, "g-inf")
    drafts = game.rules.resolve(
        st, "germany", {"type": "rally", "unit": "g-co-hq", "platoon": "g-pz"}, Dice(6, 6)
    )
    assert drafts[0].data["result"] == "ok" and any("2d6" in x for x in drafts[0].explanation)
    fold(game, "germany", drafts)
    assert st.platoons["g-pz"].status == "ok" and not st.elements["g-pz-1"].has("shaken")
    with pytest.raises(IllegalCommand, match="needs no rallying"):
        rally.check(st, "germany", "g-co-hq", "g-pz")
