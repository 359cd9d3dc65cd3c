"""The spectator seat (issue 15 item 11), in every ruleset with games: public information during play, never a piece either
side hides; everything once the game is over; with `spectator_delay = N`, the whole game as it
stood N turns ago."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.options import BadOption
from kriegsspiel.engine.scenario import all_scenarios, find_scenario

from .play import random_play
from .test_fog import has_position, unit_refs

SCENARIOS = [s for s in all_scenarios() if s.ruleset == "quickref"]
PF_SKIRMISH = Path(__file__).parents[1] / "rulesets/panzerfaust/game/scenarios/skirmish.yaml"
# every ruleset with games: a small scenario each (two seeds of quickref's)
LIVE = {
    "quickref-2": lambda: (SCENARIOS[0], 2),
    "quickref-7": lambda: (SCENARIOS[1 % len(SCENARIOS)], 7),
    "demo": lambda: (find_scenario("demo-patrol"), 3),
    "panzerfaust": lambda: (load_scenario(PF_SKIRMISH), 3),
}


def positions(view: dict) -> dict[str, tuple[float, float]]:
    return {u["id"]: (u["x"], u["y"]) for u in [*view["units"], *view["enemies"]]}


def pieces(state) -> dict:
    """The live pieces of any ruleset's state (quickref units, demo pieces, panzerfaust elements)."""
    for name in ("units", "pieces", "elements"):
        if isinstance(getattr(state, name, None), dict):
            return getattr(state, name)
    raise AssertionError(f"no pieces in {type(state).__name__}")


def play(game: Game, rng: random.Random, on_step, max_commands: int = 250) -> None:
    """Random legal play in any ruleset (quickref's move templates need a path filled in)."""
    if game.scenario.ruleset == "quickref":
        random_play(game, rng, max_commands=max_commands, on_step=on_step)
        return
    for _ in range(max_commands):
        if game.outcome is not None:
            return
        side = game.rules.active_sides(game.state)[0]
        game.submit(side, rng.choice(game.legal_commands(side)))
        on_step(game)


@pytest.mark.parametrize("case", LIVE)
def test_during_play_the_spectator_sees_no_live_piece(case):
    scenario, seed = LIVE[case]()
    game = Game(scenario, seed=seed)
    observed = []

    def look(g: Game) -> None:
        if g.outcome is not None:
            return
        state, view = g.state, g.view("spectator")
        assert view["spectator"]["mode"] == "public" and view["units"] == []
        assert view["legal"] == [] and view["last_known"] == [] and view["enemies"] == []
        # no live piece at all, not even one its enemy observes (that it is observed is news
        # to its owner): nothing a side hides, nor what it sees; the log is the public one
        hidden = {
            i
            for i, u in pieces(state).items()
            if not any(i in state.seen.get(s, []) for s in g.sides if s != u.side)
        }
        assert len(view["log"]) == len(g.events_for("spectator"))  # public entries only
        for e in view["log"]:  # and none of them places a piece its enemy does not see
            assert not (unit_refs(e["data"]) & hidden and has_position(e["data"])), e
        observed.append(sum(len(state.seen.get(s, [])) for s in g.sides))

    play(game, random.Random(seed), look)
    # some piece was observed while the game was live: the old view would have shown it
    assert observed and max(observed) > 0


def test_after_the_game_the_spectator_sees_everything():
    game = Game(SCENARIOS[0], seed=4)
    random_play(game, random.Random(4))
    assert game.outcome is not None
    view, umpire = game.view("spectator"), game.view("umpire")
    assert view["spectator"]["mode"] == "full"
    assert positions(view) == positions(umpire)
    assert [e["index"] for e in view["log"]] == [e["index"] for e in umpire["log"]]
    assert view["game"]["seed"] == str(game.seed)


def test_a_delayed_spectator_sees_the_whole_game_n_turns_behind():
    game = Game(SCENARIOS[0], seed=6, options={"spectator_delay": 1})
    behind = Game(SCENARIOS[0], seed=6)  # the same game, stopped when turn 2 begins
    rng = random.Random(6)
    while game.state.turn < 3:
        random_play(game, rng, max_commands=1)
        if game.state.turn == 2 and behind.state.turn == 1:
            n = next(i for i, e in enumerate(game.events) if e.data.get("turn") == 2) + 1
            behind.extend(game.events[len(behind.events) : n])
        assert game.outcome is None
    view = game.view("spectator")
    assert view["spectator"] == {"mode": "delayed", "delay": 1, "as_of_turn": 2, "turn": 3}
    assert view["turn"] == 2 and view["legal"] == [] and view["active"] == []
    assert positions(view) == positions(behind.view("umpire"))  # every piece, as it stood
    assert {e["index"] for e in view["log"]} == {e["index"] for e in behind.view("umpire")["log"]}


def test_the_delay_is_checked():
    with pytest.raises(BadOption, match="spectator_delay"):
        Game(SCENARIOS[0], seed=1, options={"spectator_delay": -1})
