"""The scenario's `reinforcements` block in a Panzerfaust game (pp. 4-5): whole forces blocks
that come on by their entry edge on their turn, join a company the side already has or bring
their own, and stay unknown to the enemy until one of its elements observes them (p8)."""

from __future__ import annotations

import pytest
import yaml

from kriegsspiel.engine import Game
from kriegsspiel.engine.scenario import Scenario

from .conftest import SKIRMISH

LATE = {
    "turn": 2,
    "side": "britain",
    "forces": {
        "companies": [
            {"id": "b-co", "platoons": [
                {"id": "b-late", "teams": [
                    {"id": "b-late-1", "type": "britain/rifle-team"},
                    {"id": "b-late-2", "type": "britain/lmg-team-mag"},
                ]},
            ]},
        ],
    },
}  # fmt: skip
NEW_COMPANY = {
    "turn": 3,
    "side": "germany",
    "edge": "east",
    "forces": {
        "companies": [
            {"id": "g-co-2", "platoons": [
                {"id": "g-late", "teams": [
                    {"id": "g-late-hq", "type": "germany/platoon-hq-team"},
                    {"id": "g-late-1", "type": "germany/rifle-team"},
                ]},
            ]},
        ],
    },
}  # fmt: skip


def scenario(*reinforcements: dict, cover: bool = False) -> Scenario:
    raw = yaml.safe_load(SKIRMISH.read_text())
    if cover:  # a wood on the British entry point (p8: infantry in woods are seen close only)
        raw["terrain"].append({"id": "south-wood", "kind": "woods", "height": 3,
                               "polygon": [[75, 0], [105, 0], [105, 10], [75, 10]]})  # fmt: skip
    raw["reinforcements"] = list(reinforcements)
    raw["victory"]["turn_limit"] = 4
    return Scenario.model_validate(raw)


def play_to(game: Game, turn: int, phase: str) -> None:
    """End every phase, platoon and shot until (turn, phase) starts."""
    st = game.state
    for _ in range(500):
        if (st.turn, st.phase) == (turn, phase) or st.result:
            return
        side = game.rules.active_sides(st)[0]
        end = next(
            c
            for c in game.legal_commands(side)
            if c["type"] in ("end_phase", "end_platoon", "hold")
        )
        game.submit(side, end)
    raise AssertionError("the game did not get there")


def test_reinforcements_join_their_company_and_enter_by_their_edge_on_their_turn():
    game = Game(scenario(LATE, NEW_COMPANY), seed=3)
    st = game.state
    late = [st.elements["b-late-1"], st.elements["b-late-2"]]
    assert all(not e.on_table for e in late)
    assert st.companies["b-co"].platoons[-1] == "b-late" and st.companies["b-co"].hq == "b-co-hq"
    assert st.companies["g-co-2"].hq == "g-late-hq" and st.platoons["g-late"].hq == "g-late-hq"
    play_to(game, 2, "F")
    # the British edge is south: side by side 5 cm apart, 2 cm in, facing north (P153)
    assert [(e.x, e.y, e.facing) for e in late] == [(87.5, 2.0, 0.0), (92.5, 2.0, 0.0)]
    assert not st.elements["g-late-1"].on_table
    assert {u["id"] for u in game.view("britain")["units"]} >= {"b-late-1", "b-late-2"}
    while "britain" not in game.rules.active_sides(st):
        game.submit("germany", {"type": "end_platoon"})
    units = {c.get("unit") for c in game.legal_commands("britain") if c["type"] == "move"}
    assert {"b-late-1", "b-late-2"} <= units  # it moves with the rest of phase F
    play_to(game, 3, "F")
    east = [st.elements["g-late-hq"], st.elements["g-late-1"]]
    assert [(e.x, e.y, e.facing) for e in east] == [(178.0, 57.5, 270.0), (178.0, 62.5, 270.0)]
    assert game.replay().state_hash() == game.state_hash()


def test_an_arrival_is_the_owners_to_see_until_the_enemy_observes_it():
    game = Game(scenario(LATE, cover=True), seed=3)
    st = game.state
    play_to(game, 2, "G")
    arrive = [e for e in game.events if e.type == "arrive" and e.data["placed"]]
    assert [e.visible_to for e in arrive] == [("britain",)]
    german = game.view("germany")
    assert not set(st.seen.get("germany", ())) & {"b-late-1", "b-late-2"}  # in the wood, 90 cm off
    hidden = {st.aliases.alias("germany", u) for u in ("b-late-1", "b-late-2")}
    assert not hidden & {e["id"] for e in german["enemies"] + german["last_known"]}
    assert "b-late" not in str(german)
    log = [e for e in game.events if e.visible("germany")]
    assert not any("b-late" in str(e.data) + str(e.explanation) for e in log)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda r: r["forces"]["companies"][0]["platoons"][0].update(id="b-inf"),
            "reinforcements.0: platoon id 'b-inf' is used twice",
        ),
        (
            lambda r: r["forces"]["companies"][0].update(id="g-co"),
            "reinforcements.0: company id 'g-co' is used twice",
        ),
        (
            lambda r: r["forces"].update(arrivals=[{"turn": 3, "platoons": ["b-late"]}]),
            "a reinforcement brings companies only, not arrivals",
        ),
    ],
)
def test_a_reinforcement_that_cannot_join_is_refused_with_its_place(change, message):
    import copy

    late = copy.deepcopy(LATE)
    change(late)
    with pytest.raises(ValueError, match=message):
        Game(scenario(late), seed=3)
