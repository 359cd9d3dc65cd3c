"""Exit victory in Panzerfaust (breakthrough, p5: at least half the attacker's initial point
value through the defender's rear edge): elements weighed by their army-list base PV
(game/worth.py, decision P256), riders leaving with their carrier (P257), each side told only
its own progress (P258); the shipped Cobra breakthrough plays it as an exit share of 0.5."""

from __future__ import annotations

import pytest
import yaml

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.briefing import victory_lines
from kriegsspiel.engine.scenario import Scenario, find_scenario
from kriegsspiel.rulesets.panzerfaust.game.rules import game_rules
from kriegsspiel.rulesets.panzerfaust.game.worth import worth, worth_of_type
from kriegsspiel.rulesets.panzerfaust.points import base_price

from .conftest import HERE, end_phase_d

BREAKOUT = HERE / "breakout.yaml"
# base PV (p44) of the breakout's British elements: two Cromwell IV (187 each, the P100
# placeholder model's: the chart lost it) and three rifle teams (7 each, printed)
CROMWELL, RIFLES = 187.0, 7.0
FORCE = 2 * CROMWELL + 3 * RIFLES  # 395


def _game(conditions: list[dict], seed: int = 4, options: dict | None = None) -> Game:
    """The breakout under these conditions; seed 4 gives the British company 6 pips."""
    raw = yaml.safe_load(BREAKOUT.read_text())
    raw["victory"]["conditions"] = conditions
    return Game(Scenario.model_validate(raw), seed=seed, options=options or {})


def _to_britain_in_f(game: Game) -> None:
    end_phase_d(game)
    while game.rules.active_sides(game.state) != ["britain"]:
        side = game.rules.active_sides(game.state)[0]
        game.submit(side, next(c for c in game.legal_commands(side) if c["type"] == "end_platoon"))


def _over(game: Game):
    return next(e for e in game.events if e.type == "game_over")


def _leave(game: Game, unit: str) -> None:
    game.submit("britain", {"type": "exit", "unit": unit, "edge": "north"})


def test_worth_is_the_base_pv_and_says_where_it_comes_from():
    game = _game([{"kind": "exit", "side": "britain", "edge": "north", "count": 1}])
    st = game.state
    tank, rifles = worth(st, st.elements["b-tk-1"]), worth(st, st.elements["b-inf-1"])
    assert (tank.value, tank.source) == (CROMWELL, "placeholder")
    assert (rifles.value, rifles.source) == (RIFLES, "seed")
    assert tank.value == base_price(st.rules.cat, "afv:britain/cromwell-iv").pv
    assert [p.points for p in game.rules.statuses(st) if p.side == "britain"] == [
        CROMWELL, RIFLES, CROMWELL, RIFLES, RIFLES,
    ]  # fmt: skip
    # a record nothing prices (an AFV crew) takes its kind's median printed PV, flagged
    crew = worth_of_type(st.rules, "infantry_team:common/open-topped-afv-crew")
    assert crew.source == "placeholder" and "median printed PV" in crew.basis and crew.value > 0
    # option worth=pieces: every element counts 1 (P128's old reading)
    assert worth_of_type(game_rules({"worth": "pieces"}).rules, "britain/cromwell-iv").value == 1


def test_exit_share_wins_when_half_the_force_by_points_has_left():
    """One Cromwell with its riders is 194 of 395 points, short of 197.5; the second
    Cromwell makes 381: the British win at once, the verdict giving the numbers and the
    explanation how much of them the placeholder PV model supplied."""
    game = _game([{"kind": "exit", "side": "britain", "edge": "north", "share": 0.5}])
    _to_britain_in_f(game)
    _leave(game, "b-tk-1")
    st = game.state
    assert st.elements["b-riders"].exited == "north"  # riders leave with their carrier
    assert game.outcome is None
    _leave(game, "b-tk-2")
    assert game.outcome == {
        "winner": "britain",
        "reason": "3 pieces worth 381 points left by the north edge, 96% of its force's 395 "
        "(50% needed: 197.5)",
        "turn": 1,
    }
    over = _over(game)
    assert over.visible_to is None  # public: totals only, no element named
    assert list(over.explanation) == [
        "britain exit worth, army-list base PV (p44, P256): left by the north edge 381 points "
        "(374 of them placeholder PVs); force 395 points (374 of them placeholder PVs)"
    ]


def test_exit_points_and_count():
    game = _game([{"kind": "exit", "side": "britain", "edge": "north", "points": 195}])
    _to_britain_in_f(game)
    _leave(game, "b-tk-1")  # 194
    assert game.outcome is None
    _leave(game, "b-tk-2")
    assert game.outcome["winner"] == "britain" and "(195 needed)" in game.outcome["reason"]
    game = _game([{"kind": "exit", "side": "britain", "edge": "north", "count": 3}])
    _to_britain_in_f(game)
    _leave(game, "b-tk-1")  # the tank and its riders: 2 pieces
    assert game.outcome is None
    _leave(game, "b-tk-2")
    assert game.outcome["reason"] == "3 pieces left by the north edge (3 needed)"
    assert list(_over(game).explanation) == []  # counted in pieces: no worth to explain


def test_the_defender_wins_at_the_limit_when_the_exit_falls_short():
    game = _game([{"kind": "exit", "side": "britain", "edge": "north", "share": 0.5}])
    for _ in range(300):
        if game.outcome is not None:
            break
        side = game.rules.active_sides(game.state)[0]
        legal = game.legal_commands(side)
        ends = [c for c in legal if c["type"] in ("end_phase", "end_platoon", "hold")]
        game.submit(side, ends[0] if ends else legal[0])
    assert game.outcome == {
        "winner": "germany",
        "reason": "turn limit reached; britain exit goal missed: 0 pieces worth 0 points left "
        "by the north edge, 0% of its force's 395 (50% needed: 197.5)",
        "turn": 2,
    }


def test_each_side_sees_its_own_exit_progress_and_the_enemy_nothing_of_it():
    """P258: the British counter counts British elements; the Germans, who see none of them,
    get the same counter before and after they leave, and their view and log name none."""
    game = _game([{"kind": "exit", "side": "britain", "edge": "north", "share": 0.5}])
    _to_britain_in_f(game)
    german = game.view("germany")
    assert german["enemies"] == [] and german["panzerfaust"]["counters"] == []
    _leave(game, "b-tk-1")
    own = game.view("britain")["panzerfaust"]["exit"][0]
    assert (own["done"], own["total"], own["pieces"]) == (CROMWELL + RIFLES, FORCE, 2)
    after = game.view("germany")
    assert after["panzerfaust"]["exit"] == german["panzerfaust"]["exit"]
    assert "done" not in after["panzerfaust"]["exit"][0]
    assert "hidden from you" in after["panzerfaust"]["exit"][0]["text"]
    text = str(after)
    assert "b-tk-1" not in text and "b-riders" not in text and "exited" not in text
    assert str(game.view("umpire")["panzerfaust"]["exit"][0]["done"]) == "194.0"


def test_the_cobra_breakthrough_is_an_exit_share_of_half_the_american_force():
    sc = find_scenario("pf-cobra-breakthrough")
    cond = next(c for c in sc.victory.conditions if c.kind == "exit")
    assert (cond.side, cond.edge, cond.measure, cond.share) == ("usa", "north", "share", 0.5)
    assert victory_lines(sc)[0].endswith(
        "wins at once when units worth 50% of its whole force in army-list points (base PV, "
        "p44) have left the table by the north edge"
    )
    game = Game(sc, seed=3)
    counter = game.view("usa")["panzerfaust"]["exit"][0]
    # every American element on the table, riders included; batteries and aircraft are not
    # pieces and cannot leave (P257)
    st = game.state
    total = sum(worth(st, e).value for e in st.elements.values() if e.side == "usa")
    assert counter["total"] == total == pytest.approx(3112)
    assert counter["needed"] == total / 2 and counter["done"] == 0


def test_the_breakout_scenario_loads_with_its_share_condition():
    sc = load_scenario(BREAKOUT)
    assert sc.victory.conditions[0].measure == "share"


def test_p6_a_platoon_whose_riders_left_by_the_edge_gives_up_its_turn():
    """Riders of another platoon leave with their carrier: their platoon, counted when phase F
    began, has nothing left to move and passes (the alternation must not stall)."""
    raw = yaml.safe_load(BREAKOUT.read_text())
    raw["victory"]["conditions"] = [
        {"kind": "exit", "side": "britain", "edge": "north", "count": 5}
    ]
    platoons = raw["forces"]["britain"]["companies"][0]["platoons"]
    riders = platoons[0]["teams"].pop(1)
    platoons.append({"id": "b-ride", "teams": [riders]})
    game = Game(Scenario.model_validate(raw), seed=4)
    _to_britain_in_f(game)
    game.submit("britain", {"type": "end_platoon", "platoon": "b-inf"})
    while game.rules.active_sides(game.state) != ["britain"]:
        game.submit("germany", {"type": "end_platoon", "platoon": "g-rg"})
    _leave(game, "b-tk-1")
    game.submit("britain", {"type": "end_platoon", "platoon": "b-tk"})
    st = game.state
    assert st.elements["b-riders"].exited == "north"
    while st.phase == "F" and game.rules.active_sides(st) == ["germany"]:
        game.submit("germany", {"type": "end_platoon", "platoon": "g-rg"})
    assert st.platoons["b-ride"].moved or st.phase != "F", st.queue.to_json()
    assert any(e.type == "platoon_moved" and e.data["platoon"] == "b-ride" for e in game.events)
    for side in game.rules.active_sides(st):
        assert game.legal_commands(side)
