"""Hidden deployment with counters and dummies (p5, decision P150) and the fog property of the
Panzerfaust game: no view, log entry or refusal gives a side an unobserved enemy element's
identity (true id, type) or orders; a counter says no more than where something may be."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.ai import RandomBot
from kriegsspiel.ai.harness import act
from kriegsspiel.engine import Game, IllegalCommand

from .conftest import skirmish

HIDDEN = {"hidden_deployment": True}


def test_set_up_with_dummies_and_counters():
    game = Game(skirmish(), seed=7, options=HIDDEN)
    st_ = game.state
    assert st_.phase == "setup" and game.rules.active_sides(st_) == ["germany", "britain"]
    with pytest.raises(IllegalCommand, match="outside your deployment zone"):
        game.submit("britain", {"type": "dummy", "x": 90, "y": 100})
    game.submit("britain", {"type": "dummy", "x": 60, "y": 12, "size": "C"})  # beside the road
    game.submit("britain", {"type": "dummy", "x": 178, "y": 1, "size": "A"})
    assert len([m for m in st_.markers.values() if m.kind == "dummy"]) == 2
    # the Germans see nothing of the dummies being placed
    assert not any(e.type == "dummy_placed" and e.visible("germany") for e in game.events)
    game.submit("germany", {"type": "end_phase"})
    game.submit("britain", {"type": "end_phase"})
    assert st_.turn == 1
    view = game.view("germany")
    counters = view["panzerfaust"]["counters"]
    # the platoon in the wood is unobserved: its three elements are counters; the dummy far
    # off in the corner too; the one by the road is in plain sight of the Panzers: turned over
    unseen = [e for e in st_.side_elements("britain") if e.id not in st_.seen["germany"]]
    assert {e.id for e in unseen} == {"b-wood-hq", "b-wood-1", "b-wood-2"}
    assert len(counters) == 4
    assert all(set(c) == {"id", "x", "y", "size"} for c in counters)  # real and dummy alike
    assert (178, 1) in {(c["x"], c["y"]) for c in counters}
    assert (60, 12) not in {(c["x"], c["y"]) for c in counters}
    blob = json.dumps(view)
    shown = {st_.elements[i].type for i in st_.seen["germany"]}
    for e in unseen:
        assert f'"{e.id}"' not in blob
        assert e.type in shown or f'"{e.type}"' not in blob
    # observed elements are turned over for good; the owner's own view says which are hidden
    own = {u["id"]: u["hidden"] for u in game.view("britain")["units"]}
    assert own["b-wood-1"] and not own["b-tk-1"]


def test_dummies_at_most_one_per_element_and_only_with_hidden_deployment():
    game = Game(skirmish(), seed=7, options=HIDDEN)
    for i in range(7):  # Germany has 7 elements
        game.submit("germany", {"type": "dummy", "x": 10 + 10 * i, "y": 115})
    with pytest.raises(IllegalCommand, match="at most one dummy per hidden element"):
        game.submit("germany", {"type": "dummy", "x": 100, "y": 115})
    plain = Game(skirmish(), seed=7)
    assert plain.state.phase == "D"  # no set-up step without hidden deployment
    with pytest.raises(IllegalCommand):
        plain.submit("germany", {"type": "dummy", "x": 100, "y": 115})


def _leaks(game: Game, side: str, start: int) -> list[str]:
    """True ids and types of enemy elements `side` does not observe, found in what it is given
    (its view, the events it may read since `start`, the legal templates)."""
    st_ = game.state
    seen = set(st_.seen.get(side, ()))
    shown_types = {st_.elements[i].type for i in seen}
    view = game.view(side)
    told = [e.data for e in game.events[start:] if e.visible(side)]
    blob = json.dumps([view, told])
    out = []
    for e in st_.elements.values():
        if e.side == side or e.id in seen:
            continue
        if f'"{e.id}"' in blob:
            out.append(e.id)
        if e.type not in shown_types and f'"{e.type}"' in blob:
            out.append(e.type)
    return out


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.booleans())
def test_fog_no_unobserved_identity_reaches_a_side(seed, hidden):
    game = Game(skirmish(), seed=seed, options=HIDDEN if hidden else {})
    bots = {s: RandomBot(seed + i) for i, s in enumerate(game.sides)}
    last = 0
    for _ in range(250):
        if game.outcome is not None:
            break
        side = game.rules.active_sides(game.state)[0]
        act(game, side, bots[side])
        for s in game.sides:
            assert _leaks(game, s, last) == [], (s, game.state.phase)
        last = len(game.events)


def test_refusals_say_nothing_of_unobserved_elements():
    """Naming an unseen enemy's alias is refused exactly like naming no element at all."""
    game = Game(skirmish(), seed=7)
    for side in game.sides:
        game.submit(side, {"type": "end_phase"})
    st_ = game.state
    while st_.phase == "F":
        side = game.rules.active_sides(st_)[0]
        end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
        game.submit(side, end)
    side = game.rules.active_sides(st_)[0]
    me = st_.fire_order[st_.fire_step]
    unseen = next(
        e.id for e in st_.elements.values() if e.side != side and e.id not in st_.seen[side]
    )
    reasons = []
    for alias in (st_.aliases.alias(side, unseen), "x-deadbeef"):
        with pytest.raises(IllegalCommand) as err:
            game.submit(side, {"type": "fire", "unit": me, "target": alias})
        reasons.append(err.value.reason.replace(alias, "?"))
    assert reasons[0] == reasons[1]
