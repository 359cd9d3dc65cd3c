"""The bot interface: a bot is given only JSON copies of its side's view and legal commands and
an odds table; nothing it can reach is the game or its state (issue 5 item 1)."""

from __future__ import annotations

import json
import re
import types
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.ai import RandomBot
from kriegsspiel.ai.harness import OddsTable, act, bot_inputs, json_copy, play
from kriegsspiel.ai.quickref import load_profile, profile_names
from kriegsspiel.ai.quickref.bot import QuickrefBot, command_of
from kriegsspiel.ai.quickref.profiles import Profile
from kriegsspiel.ai.seat import run_ai
from kriegsspiel.engine import Game, IllegalCommand
from kriegsspiel.engine.scenario import find_scenario

JSON_TYPES = (dict, list, str, int, float, bool, type(None))


class Spy:
    """Records what a bot is given, then lets a random bot decide."""

    def __init__(self) -> None:
        self.inner = RandomBot(3)
        self.calls: list[tuple[Any, Any, Any]] = []

    def decide(self, view, legal, odds):
        self.calls.append((view, legal, odds))
        return self.inner.decide(view, legal, odds)


def reachable(*roots: Any) -> list[Any]:
    """Every object reachable from the roots through data: containers, instance attributes,
    slots and closure cells (not code: functions' globals, classes and modules)."""
    seen: dict[int, Any] = {}
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, dict):
            stack += list(obj.keys()) + list(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            stack += list(obj)
        elif isinstance(obj, types.FunctionType):
            stack += [c.cell_contents for c in obj.__closure__ or ()]
            stack += list(obj.__defaults__ or ())
        elif isinstance(obj, types.MethodType):
            stack.append(obj.__self__)
        else:
            stack += list(getattr(obj, "__dict__", {}).values())
            for slot in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, slot):
                    stack.append(getattr(obj, slot))
    return list(seen.values())


def test_bot_sees_only_what_its_side_observes():
    game = Game(find_scenario("qr-village-assault"), seed=11)
    spy, other = Spy(), RandomBot(5)
    checked = 0
    for _ in range(400):
        if game.outcome is not None:
            break
        side = game.rules.active_sides(game.state)[0]
        if side != "britain":
            act(game, side, other)
            continue
        observed = set(game.state.seen["britain"])
        never_seen = {
            u.id
            for u in game.state.alive("germany")
            if u.id not in observed and u.id not in game.state.last_known.get("britain", {})
        }
        act(game, side, spy)
        view, legal, odds = spy.calls[-1]
        assert {e["id"] for e in view["enemies"]} == observed
        blob = json.dumps([view, legal, odds.table])
        for uid in never_seen:
            assert uid not in blob, uid  # a hidden unit leaves no trace in the bot's inputs
        checked += 1
    assert checked > 50


def test_nothing_reachable_from_the_inputs_is_the_game():
    game = Game(find_scenario("qr-crossroads-armour"), seed=2)
    rnd = RandomBot(1)
    while game.state.phase != "fire_all" or not any(
        c["type"] == "fire" for c in game.legal_commands(game.rules.active_sides(game.state)[0])
    ):
        assert game.outcome is None
        act(game, game.rules.active_sides(game.state)[0], rnd)
    side = game.rules.active_sides(game.state)[0]
    view, legal, odds = bot_inputs(game, side)
    assert isinstance(odds, OddsTable) and odds.table
    objs = reachable(view, legal, odds)
    assert not any(o is game or o is game.state or o is game.rules for o in objs)
    assert all(isinstance(o, JSON_TYPES) for o in objs if o is not odds)
    fire = next(c for c in legal if c["type"] == "fire")
    cmd = {k: fire[k] for k in ("type", "unit", "target")}
    assert odds(cmd) == game.odds(side, cmd)  # the table holds the exact odds
    with pytest.raises(IllegalCommand):
        odds({"type": "fire", "unit": cmd["unit"], "target": "nobody"})


@pytest.mark.parametrize("sid", ["qr-crossroads-armour", "qr-village-assault"])
def test_fresh_views_share_nothing_with_the_state(sid):
    """A ruleset with `fresh_views` promises that every view is new JSON data, so the harness
    passes it on uncopied: at every decision of a battle, no list or dict of a side's view
    (but for the scenario's parts, which the harness copies once per game) is one the state
    holds or an earlier view held, and all of it is exact JSON types (no tuples, no enums)."""
    from kriegsspiel.ai.harness import STATIC

    game = Game(find_scenario(sid), seed=5)
    assert game.rules.fresh_views
    bots = {s: QuickrefBot("balanced") for s in game.sides}
    earlier: set[int] = set()
    kept: list[Any] = []  # earlier views, kept alive so that no id is reused
    last, checked = None, 0
    while game.outcome is None:
        active = game.rules.active_sides(game.state)
        side = next((s for s in active if s != last), active[0])
        full = game.rules.view(game.state, side)
        parts = [v for k, v in full.items() if k not in STATIC]
        mine = {id(o) for o in reachable(*parts) if isinstance(o, dict | list)}
        held = {id(o) for o in reachable(game.state) if isinstance(o, dict | list)}
        assert not mine & held and not mine & earlier
        assert all(type(o) in JSON_TYPES for o in reachable(*parts))
        earlier |= mine
        kept.append(full)
        act(game, side, bots[side])
        last, checked = side, checked + 1
    assert checked > 50
    view = game.rules.view(game.state, last)
    assert view["result"] == game.state.result and view["result"] is not game.state.result


def test_every_decision_is_traced():
    game = Game(find_scenario("qr-crossroads-armour"), seed=4)
    bot, rnd = QuickrefBot("balanced"), RandomBot(2)
    decisions = []
    for _ in range(400):
        if game.outcome is not None:
            break
        side = game.rules.active_sides(game.state)[0]
        act(game, side, bot if side == "usa" else rnd, decisions.append)
    assert decisions
    for d in decisions:
        if d.trace.get("why") == "random legal choice":
            continue
        t = d.trace
        assert t["chosen"]["command"] == d.command and "why" in t["chosen"]
        scores = [a["score"] for a in t["alternatives"]]
        assert all(t["chosen"]["score"] >= s for s in scores)
        assert t["considered"] >= len(t["alternatives"]) + 1
    fires = [d for d in decisions if d.command["type"] == "fire" and "chosen" in d.trace]
    assert fires and all("expected value" in d.trace["chosen"]["why"] for d in fires)


@pytest.mark.parametrize("seed", [2, 3])
def test_memoised_odds_and_fire_orders_are_the_games_now(seed):
    """The odds a bot is given and the fire orders listed as legal come from memos that outlive
    a turn (keyed by the ruleset's `odds_situation` and the units' `fire_facts`; the odds memo
    is shared with the earlier games of the scenario): at every decision of a battle they are
    what the game works out afresh."""
    game = Game(find_scenario("qr-village-assault"), seed=seed)
    bots = {s: QuickrefBot("aggressive") for s in game.sides}
    checked, last = 0, None
    while game.outcome is None:
        active = game.rules.active_sides(game.state)
        side = next((s for s in active if s != last), active[0])
        view, legal, odds = bot_inputs(game, side)
        fresh_state = game.state
        fire_memo = game.rules.board(fresh_state).fire_memo
        memo = dict(fire_memo)
        fire_memo.clear()
        fresh_state.legal_memo.clear()
        assert game.rules.legal_commands(fresh_state, side) == legal
        fire_memo.update(memo)
        for t in legal:
            if t["type"] == "fire":
                cmd = {k: t[k] for k in ("type", "unit", "target", "suppressive") if k in t}
                try:
                    want = json.loads(json.dumps(game.odds(side, cmd)))
                except IllegalCommand as exc:
                    with pytest.raises(IllegalCommand, match=re.escape(str(exc))):
                        odds(cmd)
                else:
                    assert odds(cmd) == want
                checked += 1
        act(game, side, bots[side])
        last = side
    assert checked > 50


def test_odds_follow_a_change_in_either_unit():
    """The odds memo is keyed by both units' facts: a gun's target turned about, or a firer
    that moved, gets odds of its own."""
    game = Game(find_scenario("qr-crossroads-armour"), seed=2)
    bots = {s: QuickrefBot("aggressive") for s in game.sides}
    cmd = None
    while cmd is None:
        side = game.rules.active_sides(game.state)[0]
        _view, legal, odds = bot_inputs(game, side)
        for t in legal:
            if t["type"] == "fire" and odds(command_of(t))["attack"] == "gun":
                cmd = command_of(t)
                break
        else:
            act(game, side, bots[side])
    before = odds(cmd)
    target, firer = game.state.units[cmd["target"]], game.state.units[cmd["unit"]]
    changes = [(target, "facing", (target.facing + 180) % 360), (firer, "moved", "half")]
    for unit, field, value in changes:
        setattr(unit, field, value)
        game.state.legal_memo.clear()
        _view, _legal, odds = bot_inputs(game, side)
        now = json.loads(json.dumps(game.odds(side, cmd)))
        assert odds(cmd) == now != before
        before = now


def test_profiles_are_data():
    names = profile_names()
    assert {"aggressive", "balanced", "cautious"} <= set(names)
    profiles = {n: load_profile(n) for n in names}
    assert profiles["aggressive"].assault > profiles["cautious"].assault
    assert profiles["cautious"].outcome_value == profiles["balanced"].outcome_value
    with pytest.raises(ValueError, match="unknown profile keys"):
        Profile.from_dict({"name": "x", "courage": 3})
    with pytest.raises(ValueError, match="unknown AI profile"):
        load_profile("reckless")


def test_run_ai_plays_its_side_until_not_its_turn():
    game = Game(find_scenario("qr-village-assault"), seed=8)
    rnd = RandomBot(0)
    for _ in range(300):
        if game.outcome is not None:
            break
        active = game.rules.active_sides(game.state)
        if "germany" in active:
            events = run_ai(game, "germany", "cautious")
            assert events and "germany" not in game.rules.active_sides(game.state)
        else:
            act(game, active[0], rnd)
    assert game.state.turn >= 3 or game.outcome is not None


def test_a_game_between_bots_ends():
    game = Game(find_scenario("qr-crossroads-armour"), seed=1)
    out = play(game, {"germany": QuickrefBot("aggressive"), "usa": QuickrefBot("cautious")})
    assert out is not None and out.get("turn", 0) >= 1


_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.tuples(kids, kids)
        | st.dictionaries(st.text(max_size=5) | st.integers(), kids, max_size=4)
    ),
    max_leaves=20,
)


@given(_JSONISH)
def test_json_copy_is_the_json_round_trip(data):
    """The bots' fast copy gives what `json.loads(json.dumps(data, default=str))` gives."""
    assert json_copy(data) == json.loads(json.dumps(data, default=str))


def test_the_process_memos_of_plans_and_destinations_change_no_decision(monkeypatch):
    """Battles of one scenario played in a row reuse plans and destinations from the process's
    memos (the same situations recur); every decision is what it is with the memos off."""
    from kriegsspiel.ai.quickref import bot as quickref_bot
    from kriegsspiel.ai.quickref import plan

    def traces() -> list[str]:
        out: list[str] = []
        for seed in range(4):
            game = Game(find_scenario("qr-village-assault"), seed=seed)
            bots = {s: QuickrefBot("balanced") for s in game.sides}
            last = None
            while game.outcome is None:
                active = game.rules.active_sides(game.state)
                side = next((s for s in active if s != last), active[0])
                act(game, side, bots[side], lambda d: out.append(json.dumps(d.trace)))
                last = side
        return out

    planned = 0
    plan_moves = QuickrefBot._plan_moves

    def counted(self, view, batch):
        nonlocal planned
        planned += 1
        return plan_moves(self, view, batch)

    monkeypatch.setattr(QuickrefBot, "_plan_moves", counted)
    plan._DESTS.clear()
    quickref_bot._PLANS.clear()
    remembered, with_memo = traces(), planned
    monkeypatch.setattr(plan, "DESTS_KEPT", 0)
    monkeypatch.setattr(quickref_bot, "PLANS_KEPT", 0)
    plan._DESTS.clear()
    quickref_bot._PLANS.clear()
    planned = 0
    assert traces() == remembered
    assert with_memo < planned  # situations did recur


def test_a_trace_given_as_a_function_is_written_once_when_first_read():
    from kriegsspiel.ai.bot import Decision

    calls = []

    def words():
        calls.append(1)
        return {"why": "because"}

    d = Decision({"type": "end_phase"}, words)
    assert calls == []  # not written until read
    assert d.trace == {"why": "because"} and d.trace["why"] == "because"
    assert calls == [1]
    d.trace["rejected"] = []  # the written trace is kept and can be added to
    assert d.trace == {"why": "because", "rejected": []}
    assert Decision({"type": "end_phase"}).trace == {}


def test_holders_are_assaulted_at_long_odds_only_in_the_last_turns():
    """An enemy squad holding the objective (strength 4) against a one-stand unit (ratio
    0.25... 0.5): refused at the profile's ratio 1.0 until the last two turns, then assaulted
    at 0.3; a squad off the objective never."""
    bot = QuickrefBot("balanced")
    holder = {"id": "g1", "kind": "infantry", "x": 20.0, "y": 27.0, "stands": 3, "attached_mg": 1}
    other = {"id": "g2", "kind": "infantry", "x": 5.0, "y": 5.0, "stands": 3, "attached_mg": 1}
    bot._holding = [holder]
    for turn, need in ((1, 1.0), (6, 1.0), (7, 0.3), (8, 0.3)):
        view = {"turn": turn, "turn_limit": 8}
        assert bot._min_ratio(view, holder) == need
        assert bot._min_ratio(view, other) == 1.0
    off = Profile(name="plain")  # the dataclass defaults: no desperate turns
    assert off.desperate_turns == 0 and off.desperate_ratio == 1.0
