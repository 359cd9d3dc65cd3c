"""Fair play (issue 13 items 1, 2, 4; issue 14 item 1): secret seeds with a published
commitment and `verify`, dice that undo cannot re-roll, undo by consent, per-seat counters,
options that reach the rules."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.engine.fairplay import COMMIT_PREFIX, commitment
from kriegsspiel.engine.options import BadOption
from kriegsspiel.engine.scenario import find_scenario
from kriegsspiel.engine.store import Store
from kriegsspiel.engine.verify import verify

from .play import random_play
from .test_game import advance_to

PROBE = Path(__file__).parent / "scenarios" / "infantry_probe.yaml"


def probe(**kw) -> Game:
    return Game(load_scenario(PROBE), **kw)


def fire_b3(g: Game) -> list:
    advance_to(g, "fire_all")
    return g.submit("red", {"type": "fire", "unit": "r1", "target": "b3"})


def seen_by(g: Game, side: str) -> str:
    return json.dumps(g.view(side)) + json.dumps(g.log_for(side))


# ---------------------------------------------------------------- item 1: secret seed
def test_a_game_without_a_seed_has_a_secret_256_bit_seed_that_no_side_sees():
    g = probe()
    assert g.seed.bit_length() > 200 and probe().seed != g.seed
    start = g.events[0].data
    assert "seed" not in start and start["seed_chosen"] is False
    assert (
        start["commitment"]
        == hashlib.sha256(COMMIT_PREFIX + g.seed.to_bytes(32, "big")).hexdigest()
    )
    advance_to(g, "fire_all")
    for side in (*g.sides, "spectator"):
        text = seen_by(g, side)
        assert str(g.seed) not in text and hex(g.seed)[2:] not in text
        assert g.view(side)["game"]["seed"] is None
        assert g.view(side)["game"]["commitment"] == commitment(g.seed)
    assert g.view("umpire")["game"]["seed"] == str(g.seed)


def test_the_seed_is_revealed_when_the_game_ends_and_verify_checks_the_whole_log():
    g = probe()
    random_play(g, random.Random(4))
    assert g.outcome is not None
    for side in g.sides:
        assert g.view(side)["game"]["seed"] == str(g.seed)
    verdict = verify(g)
    assert verdict.ok, verdict.problems
    assert verdict.commands > 10 and verdict.state_hash == g.state_hash()


def test_verify_finds_a_wrong_seed_and_a_changed_roll():
    g = probe(seed=5)
    random_play(g, random.Random(2))
    assert verify(g).ok
    other = Game(g.scenario, 6, g.options, g.id, g.events, g.rules)
    assert not verify(other).ok and "commitment" in verify(other).problems[0]
    # an umpire who changed one die's result in the log is found out
    forged = list(g.events)
    i = next(i for i, e in enumerate(forged) if e.explanation)
    e = forged[i]
    forged[i] = type(e)(e.index, e.command, e.type, e.side, e.data, e.visible_to, ("forged",))
    bad = Game(g.scenario, 5, g.options, g.id, forged, g.rules)
    assert not verify(bad).ok and "differs" in verify(bad).problems[0]


def test_the_secret_seed_survives_the_store(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    g = probe()
    store.create(g)
    new = fire_b3_events(g)
    store.append(g.id, new)
    back = store.load(g.id)
    assert back.seed == g.seed and back.state_hash() == g.state_hash()
    assert verify(back).ok
    assert "seed" not in store.list_games()[0]


def fire_b3_events(g: Game) -> list:
    out = []
    for _ in range(200):
        if g.state.phase == "fire_all":
            break
        side = g.rules.active_sides(g.state)[0]
        legal = g.legal_commands(side)
        init = [c for c in legal if c["type"] == "initiative" and c["side_a"] == "red"]
        out += g.submit(side, init[0] if init else {"type": "end_phase"})
    return out + g.submit("red", {"type": "fire", "unit": "r1", "target": "b3"})


def test_dice_do_not_follow_from_what_a_side_sees():
    """Two games alike in all a side sees (scenario, commands, event indices) but for their
    secret seeds roll different dice: the event index no longer predicts a roll."""
    rolls = set()
    for _ in range(12):
        g = probe()
        fire_b3(g)
        rolls.add(tuple(e.explanation for e in g.events if e.type in ("initiative", "fire")))
    assert len(rolls) > 1


def test_a_chosen_seed_is_reproducible_and_only_the_umpire_sees_it():
    a, b = probe(seed=7), probe(seed=7)
    fire_b3(a), fire_b3(b)
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert a.events[0].data["seed_chosen"] is True
    assert a.view("red")["game"]["seed"] is None and a.view("umpire")["game"]["seed"] == "7"


@pytest.mark.parametrize("seed", [-1, 2**256, 1.5, True])
def test_a_bad_seed_is_refused_by_name(seed):
    with pytest.raises(BadOption, match="seed"):
        probe(seed=seed)


# ---------------------------------------------------------------- item 2: honest undo
def test_undo_never_rerolls_the_same_command():
    g = probe(options={"undo": "free"})
    first = [e.to_json() for e in fire_b3(g) if e.type != "given"]
    for _ in range(3):
        g.undo("red")
        again = g.submit("red", {"type": "fire", "unit": "r1", "target": "b3"})
        again = [e.to_json() for e in again if e.type != "given"]
        for x, y in zip(first, again, strict=True):
            assert (x["type"], x["data"], x["explanation"]) == (
                y["type"],
                y["data"],
                y["explanation"],
            )


def test_undoing_a_roll_needs_the_other_sides_consent():
    g = probe()
    fire_b3(g)
    fired = g.state_hash()
    req = g.undo("red")
    assert req[0].type == "undo_request" and g.state_hash() == fired
    assert g.view("blue")["game"]["undo_request"] == {"by": "red", "yours_to_answer": True}
    assert g.view("red")["game"]["undo_request"]["yours_to_answer"] is False
    assert g.view("spectator")["game"]["undo_request"]["yours_to_answer"] is False
    with pytest.raises(IllegalCommand):
        g.submit("spectator", {"type": "undo_accept"})
    with pytest.raises(IllegalCommand, match="other side answers"):
        g.submit("red", {"type": "undo_accept"})
    with pytest.raises(IllegalCommand, match="awaits"):
        g.undo("red")
    g.submit("blue", {"type": "undo_decline"})
    assert g.state_hash() == fired and g.view("blue")["game"]["undo_request"] is None
    g.undo("red")
    g.submit("blue", {"type": "undo_accept"})
    assert g.state_hash() != fired and g.state.units["r1"].fired_turn == 0
    assert verify(g).ok  # requests and answers are part of the record


def test_the_umpire_undoes_at_once_and_a_quiet_command_needs_no_consent():
    g = probe()
    advance_to(g, "move_a1")
    g.submit("red", {"type": "move", "unit": "r2", "path": [[17, 3]]})  # sees nothing new
    assert g.undo("red")[0].type == "undo"
    fire_b3(g)
    assert g.undo("umpire")[0].type == "undo"


SCREEN = """
id: t-screen
name: a wood between two squads
ruleset: quickref
table: {width: 20, depth: 20, unit: inch}
terrain:
  - {id: wood, kind: woods, polygon: [[3, 8], [6, 8], [6, 9], [3, 9]]}
sides:
  - {id: red, name: Red, nation: britain, units: [{id: r1, type: squad, x: 5, y: 5}]}
  - {id: blue, name: Blue, nation: germany, units: [{id: b1, type: squad, x: 5, y: 13}]}
objectives:
  - {id: o, name: O, x: 5, y: 15, radius: 3}
victory:
  turn_limit: 3
  default_winner: blue
  conditions:
    - {kind: hold, side: red, objectives: [o]}
"""


def test_undoing_a_new_sighting_needs_consent(tmp_path):
    path = tmp_path / "screen.yaml"
    path.write_text(SCREEN)
    g = Game(load_scenario(path))
    advance_to(g, "move_a1")
    assert g.state.seen["red"] == []
    g.submit("red", {"type": "move", "unit": "r1", "path": [[5, 6]]})  # still behind the wood
    assert g.state.seen["red"] == [] and g.undo("red")[0].type == "undo"
    g.submit("red", {"type": "move", "unit": "r1", "path": [[8, 5]]})  # round its end
    assert g.state.seen["red"] == ["b1"]
    assert g.undo("red")[0].type == "undo_request"
    g.submit("blue", {"type": "undo_accept"})
    assert g.state.seen["red"] == [] and g.state.units["r1"].x == 5


def test_every_sides_log_shows_an_undo_without_what_was_hidden():
    g = probe()
    advance_to(g, "move_a1")
    blue_before = g.log_for("blue")
    g.submit("red", {"type": "move", "unit": "r2", "path": [[17, 3]]})  # hidden from blue
    g.undo("red")
    undo = g.log_for("blue")[-1]
    assert undo["type"] == "undo" and undo["data"] == {"command": None, "by": "red"}
    assert g.log_for("blue")[:-1] == blue_before
    mine = g.log_for("red")[-1]
    assert mine["type"] == "undo" and mine["data"]["command"] is not None


# ---------------------------------------------------------------- item 4: counters
def test_a_seat_sees_its_own_numbers_only():
    """Two games alike for blue, but red gives hidden commands (moves blue cannot see) in one:
    blue's log and counter are the same in both."""
    quiet, busy = probe(seed=3), probe(seed=3)
    for g in (quiet, busy):
        advance_to(g, "move_a1")
    for y in (3, 4, 5):
        busy.submit("red", {"type": "move", "unit": "r2", "path": [[17, y - 1 + 0.5]]})
    for g in (quiet, busy):
        g.submit("red", {"type": "end_phase"})
    assert quiet.log_for("blue") == busy.log_for("blue")
    assert quiet.view("blue")["game"]["events"] == busy.view("blue")["game"]["events"]
    log = busy.log_for("blue")
    assert [e["index"] for e in log] == list(range(len(log)))
    assert sorted({e["command"] for e in log}) == list(range(len({e["command"] for e in log})))


# ---------------------------------------------------------------- issue 14 item 1: options
def test_options_reach_the_rules_typed_and_show_in_the_view():
    g = Game(
        find_scenario("qr-crossroads-armour"),
        options={"morale_dice": "2d10", "rt_morale_option": "false", "undo": "free"},
    )
    assert g.rules.rules.opts.morale_dice == "2d10" and g.rules.rules.opts.rt_morale_option is False
    v = g.view("germany")
    assert v["options"]["morale_dice"] == "2d10" and v["options"]["rt_morale_option"] is False
    assert v["game"]["options"] == {"undo": "free", "spectator_delay": 0}
    assert Game(find_scenario("qr-crossroads-armour")).rules.rules.opts.morale_dice == "1d10"


@pytest.mark.parametrize(
    "options,name",
    [
        ({"no_such": 1}, "no_such"),
        ({"morale_dice": "3d10"}, "morale_dice"),
        ({"burst_radius": "wide"}, "burst_radius"),
        ({"undo": "sometimes"}, "undo"),
        ({"allow_undo": "perhaps"}, "allow_undo"),
    ],
)
def test_a_bad_option_is_refused_by_name(options, name):
    with pytest.raises(BadOption) as exc:
        Game(find_scenario("qr-crossroads-armour"), options=options)
    assert exc.value.field == name and name in str(exc.value)
