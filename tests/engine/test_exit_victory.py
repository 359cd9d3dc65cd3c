"""Victory by leaving the table (engine/victory.py `exit`): by a count of pieces, by their
worth in points, or by a share of the side's whole force, optionally by a turn; its
validation errors name the field, the briefing words it, the verdict explains the numbers and
a side's exit counter tells it nothing of the enemy's progress. Played through the demo
ruleset (no points: every piece worth 1) and on bare `PieceStatus` rows."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kriegsspiel.data.errors import DataError
from kriegsspiel.engine import Game
from kriegsspiel.engine.briefing import briefing, condition_text, victory_lines
from kriegsspiel.engine.events import SPECTATOR, UMPIRE
from kriegsspiel.engine.scenario import Scenario, find_scenario, load_scenario
from kriegsspiel.engine.victory import PieceStatus, decide, exit_counters, exit_progress

# ------------------------------------------------------------------ a scripted demo game


def _patrol(conditions: list[dict], turn_limit: int = 5, near_edge: int = 4) -> Scenario:
    """The demo patrol with red out of the way (south-east corner, seen) and the first
    `near_edge` blue pieces 2 cm from the south edge, under these conditions."""
    raw = find_scenario("demo-patrol").model_dump()
    for i, u in enumerate(raw["forces"]["red"]["units"]):
        u.update(x=58 - i, y=39, hidden=False)
    for i, u in enumerate(raw["forces"]["blue"]["units"]):
        if i < near_edge:
            u.update(x=5 + 10 * i, y=2)
    raw["victory"] = {"turn_limit": turn_limit, "default_winner": "red", "conditions": conditions}
    return Scenario.model_validate(raw)


def _play(game: Game, exits: dict[int, int]) -> None:
    """Blue leaves by the south edge with up to `exits[turn]` pieces a turn, holding the
    rest; red holds; every reaction prompt is declined. Until the game ends."""
    done: dict[int, int] = {}
    for _ in range(200):
        if game.outcome is not None:
            return
        side = game.rules.active_sides(game.state)[0]
        legal = game.legal_commands(side)
        if game.state.prompt is not None:
            game.submit(side, {"type": "decline"})
            continue
        turn = game.state.turn
        leave = [c for c in legal if c["type"] == "exit" and c["edge"] == "south"]
        if side == "blue" and leave and done.get(turn, 0) < exits.get(turn, 0):
            done[turn] = done.get(turn, 0) + 1
            game.submit(side, leave[0])
        else:
            game.submit(side, next(c for c in legal if c["type"] == "hold"))
    raise AssertionError("the game did not end")


def test_exit_by_count_wins_at_once_when_the_count_is_reached():
    game = Game(_patrol([{"kind": "exit", "side": "blue", "edge": "south", "count": 3}]), seed=3)
    _play(game, {1: 2, 2: 1})
    assert game.outcome == {
        "winner": "blue",
        "reason": "3 pieces left by the south edge (3 needed)",
        "turn": 2,
    }


def test_exit_by_share_counts_the_whole_force_and_loses_if_short_at_the_limit():
    """Three of four pieces: 75 %. Two out is 50 %, short: red's default win at the limit,
    and the verdict says by how much blue missed."""
    cond = {"kind": "exit", "side": "blue", "edge": "south", "share": 0.75}
    game = Game(_patrol([cond], turn_limit=2), seed=3)
    _play(game, {1: 2})
    assert game.outcome["winner"] == "red" and game.outcome["turn"] == 2
    assert game.outcome["reason"] == (
        "turn limit reached; blue exit goal missed: 2 pieces worth 2 points left by the south "
        "edge, 50% of its force's 4 (75% needed: 3)"
    )
    game = Game(_patrol([cond], turn_limit=2), seed=3)
    _play(game, {1: 2, 2: 1})
    assert game.outcome["winner"] == "blue" and "75% needed" in game.outcome["reason"]


def test_exit_by_turn_closes_the_goal_after_that_turn():
    cond = {"kind": "exit", "side": "blue", "edge": "south", "count": 3, "by_turn": 1}
    game = Game(_patrol([cond], turn_limit=2), seed=3)
    _play(game, {1: 2, 2: 2})  # the third piece leaves in turn 2: too late
    assert game.outcome["winner"] == "red"
    assert game.outcome["reason"].endswith(
        "blue exit goal missed: 4 pieces left by the south edge (3 needed), by turn 1"
    )
    game = Game(_patrol([cond], turn_limit=2), seed=3)
    _play(game, {1: 3})
    assert game.outcome["winner"] == "blue" and game.outcome["turn"] == 1


# ------------------------------------------------------------------ the predicates


def _pf(conditions: list[dict], turn_limit: int = 6) -> Scenario:
    """A Panzerfaust scenario (its pieces have a worth) with these conditions."""
    raw = {
        "id": "pf-exit",
        "name": "Exit",
        "ruleset": "panzerfaust",
        "table": {"width": 180, "depth": 120, "unit": "cm"},
        "sides": [
            {"id": "germany", "name": "KG", "nation": "germany", "edge": "south"},
            {"id": "ussr", "name": "Rifles", "nation": "ussr", "edge": "north"},
        ],
        "forces": {"germany": {"companies": []}, "ussr": {"companies": []}},
        "victory": {"turn_limit": turn_limit, "conditions": conditions},
    }
    return Scenario.model_validate(raw)


def _out(p: PieceStatus, edge: str = "north", lost: bool = False) -> PieceStatus:
    return p._replace(present=False, exited=edge, lost=lost)


G = [PieceStatus(f"g{i}", "germany", 90, 60, points=pv) for i, pv in enumerate((150, 50, 30, 20))]
R = [PieceStatus(f"r{i}", "ussr", 20, 100, points=7) for i in range(3)]


def test_points_weigh_each_piece_by_its_worth():
    sc = _pf([{"kind": "exit", "side": "germany", "edge": "north", "points": 180}])
    assert decide(sc, [_out(G[0])] + G[1:] + R, 2, False) is None  # 150
    v = decide(sc, [_out(G[0]), G[1], _out(G[2]), G[3]] + R, 2, False)  # 180
    assert v == {
        "winner": "germany",
        "reason": "2 pieces worth 180 points left by the north edge (180 needed)",
        "turn": 2,
    }


def test_a_share_is_of_the_whole_force_lost_pieces_included_and_lost_exits_do_not_count():
    sc = _pf([{"kind": "exit", "side": "germany", "edge": "north", "share": 0.5}])
    # 250 points in all: 125 needed; the 150 tank out wins, three small ones (100) do not
    assert decide(sc, G[:1] + [_out(p) for p in G[1:]] + R, 1, False) is None
    assert decide(sc, [_out(G[0])] + G[1:] + R, 1, False)["winner"] == "germany"
    # a lost piece still counts in the force; one lost after leaving (never) does not count
    lost = [G[0]._replace(lost=True, present=False)] + [_out(p) for p in G[1:]]
    p = exit_progress(sc.victory.conditions[0], lost + R)
    assert (p.done, p.total, p.needed, p.pieces, p.reached) == (100, 250, 125, 3, False)
    assert exit_progress(sc.victory.conditions[0], [_out(G[0], lost=True)] + G[1:]).done == 0
    # another edge does not count, and the enemy's pieces are not its force
    assert decide(sc, [_out(G[0], "west")] + G[1:] + R, 1, False) is None
    assert exit_progress(sc.victory.conditions[0], G + [_out(r) for r in R]).total == 250


# ------------------------------------------------------------------ validation


def _errors(tmp_path: Path, cond: dict, ruleset: str = "panzerfaust") -> list[str]:
    sc = _pf([])
    raw = sc.model_dump(mode="json", exclude={"forces"})
    raw |= {"ruleset": ruleset, "forces": {"germany": {"companies": []}, "ussr": {"companies": []}}}
    if ruleset == "demo":
        raw["forces"] = {"germany": {"units": []}, "ussr": {"units": []}}
    raw["victory"]["conditions"] = [cond]
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    with pytest.raises(DataError) as err:
        load_scenario(path)
    return [str(i) for i in err.value.issues]


@pytest.mark.parametrize(
    ("cond", "message"),
    [
        ({"edge": "north"}, "exactly one of 'count', 'points' or 'share'"),
        ({"edge": "north", "count": 2, "share": 0.5}, "exactly one of 'count', 'points' or"),
        ({"count": 2}, "needs 'edge'"),
        ({"edge": "north", "share": 1.5}, "[victory.conditions.0.share]"),
        ({"edge": "north", "count": 0}, "[victory.conditions.0.count]"),
        ({"edge": "up", "count": 2}, "[victory.conditions.0.edge]"),
        ({"edge": "north", "count": 2, "by_turn": 9}, "by_turn: turn 9 is after the turn limit 6"),
        ({"edge": "north", "count": 2, "fraction": 0.5}, "'fraction' is not a field of an exit"),
    ],
)
def test_exit_conditions_are_checked_and_the_error_names_the_field(tmp_path, cond, message):
    issues = _errors(tmp_path, {"kind": "exit", "side": "germany", **cond})
    assert any(message in i for i in issues), issues
    assert all("s.yaml:" in i for i in issues)  # file and line


def test_points_need_a_ruleset_that_prices_its_pieces(tmp_path):
    issues = _errors(
        tmp_path, {"kind": "exit", "side": "germany", "edge": "north", "points": 5}, "demo"
    )
    assert any(
        "victory.conditions.0.points: the demo ruleset gives its pieces no worth" in i
        for i in issues
    ), issues


def test_a_field_of_another_kind_is_refused():
    with pytest.raises(ValueError, match="'count' is not a field of a destroy condition"):
        _pf([{"kind": "destroy", "side": "germany", "fraction": 0.5, "count": 2}])


# ------------------------------------------------------------------ briefing and fog


def test_the_briefing_words_each_exit_measure():
    names = {"germany": "KG"}
    sc = _pf(
        [
            {"kind": "exit", "side": "germany", "edge": "north", "count": 4},
            {"kind": "exit", "side": "germany", "edge": "north", "points": 300, "by_turn": 5},
            {"kind": "exit", "side": "germany", "edge": "east", "share": 0.5},
        ]
    )
    assert victory_lines(sc)[:3] == [
        "KG wins at once when 4 of its units have left the table by the north edge",
        "KG wins at once when units worth 300 army-list points (base PV, p44) have left the "
        "table by the north edge by the end of turn 5",
        "KG wins at once when units worth 50% of its whole force in army-list points (base PV, "
        "p44) have left the table by the east edge",
    ]
    assert briefing(sc, "ussr")["victory"] == victory_lines(sc)  # the same words for both
    share = sc.victory.conditions[2]
    assert condition_text(share, names) == (  # a ruleset without worth counts pieces
        "KG wins at once when 50% of its units (its whole force, counted piece by piece) have "
        "left the table by the east edge"
    )


def test_a_side_is_told_its_own_exit_progress_and_only_the_goal_of_the_enemys():
    """Decision P258: a piece leaving is seen by its own side alone, so the enemy's counter
    stays the same whatever leaves; the umpire sees both."""
    sc = _pf([{"kind": "exit", "side": "germany", "edge": "north", "share": 0.5}])
    before = G + R
    after = [_out(G[0]), _out(G[1])] + G[2:] + R
    own = exit_counters(sc, after, "germany")[0]
    assert (own["done"], own["needed"], own["total"], own["pieces"]) == (200, 125, 250, 2)
    assert own["reached"] and "so far 2 pieces worth 200 points" in own["text"]
    for viewer in ("ussr", SPECTATOR):
        theirs = exit_counters(sc, after, viewer)
        assert theirs == exit_counters(sc, before, viewer)
        assert set(theirs[0]) == {"side", "edge", "measure", "goal", "by_turn", "text"}
        assert theirs[0]["goal"] == 0.5 and "hidden from you" in theirs[0]["text"]
    assert exit_counters(sc, after, UMPIRE) == [own]
    # the own counter is built from own pieces only: the enemy's do not move it
    moved = G + [r._replace(x=1, y=1, lost=True) for r in R]
    assert exit_counters(sc, moved, "germany") == exit_counters(sc, before, "germany")
