"""Morale after close combat judged for both sides at once (p19; P335-P337): a Retreat in
close combat surrenders, but when both sides of a combat break, each disengages instead.
Scenario cqc-retreat.yaml: two German and two Soviet rifle teams of poor morale in two
one-on-one combats (g-a/s-a, g-b/s-b), a third German team (g-c) that can join the left one,
and an open-topped Marder II touched by a Soviet SMG team, each of its own company."""

from __future__ import annotations

import random

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.events import Event
from kriegsspiel.rulesets.panzerfaust.game import (
    cqc_morale,
    melee,
    melee_groups,
    morale_tests,
    sight,
)

from .conftest import HERE, Dice, fold
from .test_melee_groups import _end_platoons, _hold_fire

SCENARIO = HERE / "cqc-retreat.yaml"
PAIRS = ("g-a", "g-b", "s-a", "s-b")


def _game(**options: str) -> Game:
    return Game(load_scenario(SCENARIO), seed=1, options=options or None)


def _park(game: Game, *uids: str) -> None:
    """Take pieces far from every fight (the test is about the others)."""
    st = game.state
    for n, uid in enumerate(uids):
        e = st.elements[uid]
        e.x, e.y = 20.0 + 30 * n, 110.0
        e.feature = st.board.feature(e.x, e.y)
    st.cache.clear()
    sight.look(st)


def _fight(game: Game, *morale_dice: int) -> list:
    """The pairs' two combats rolled with chance dice 1 (a -1 row each: no team falls at two CQC
    factors, p16), folded; then every morale test and the combat's outcome with
    `morale_dice`, in order: the drafts after the melees."""
    st = game.state
    drafts = []
    for c in melee_groups.combats(st):
        drafts += melee.resolve(st, c, Dice(1, 1))
    assert all(r["result"] == "lost_0" for d in drafts if d.type == "melee"
               for r in d.data["results"])  # fmt: skip
    fold(game, None, drafts)
    return _settle(game, Dice(*morale_dice))


def _settle(game: Game, dice: random.Random) -> list:
    out = []
    while morale_tests.pending(game.state):
        drafts = game.rules.automatic(game.state, dice)
        assert drafts
        fold(game, None, drafts)
        out += drafts
    assert not dice.faces, "every chosen die is used"
    return out


def _lines(drafts: list, kind: str, side: str) -> list[str]:
    return [x for d in drafts if d.type == kind and d.visible_to == (side,) for x in d.explanation]


def test_both_sides_retreat_in_close_combat_both_disengage_none_surrenders_p19():
    """Golden (pp. 19, 23-24). Each pair's chance dice read 1: no loss. g-pair tests: poor -2,
    2D6 1+1 = 2 - 2 = 0, Retreat (0 or less, p24); s-pair the same. Each company HQ then tests
    (p23 step 6): poor -2, a Retreating platoon -2, its HQ (g-a, s-a) retreating -2: 6+6 = 12
    - 6 = 6, OK. Every base of both sides would surrender (the enemy in contact, p24), so the
    result is reduced to disengaging for both (p19): each steps back out of contact, nobody is
    lost; its Retreat becomes Shaken for 1D6 turns (P335: g-pair 3, s-pair 4, poor re-rolls
    only 1-2)."""
    game = _game()
    st = game.state
    _park(game, "g-c", "s-smg")
    drafts = _fight(game, 1, 1, 1, 1, 6, 6, 6, 6, 3, 4)
    tests = [d for d in drafts if d.type == "morale"]
    assert [d.data for d in tests] == [
        {"platoon": "g-pair", "result": "retreat", "held": ["g-a", "g-b"]},
        {"platoon": "s-pair", "result": "retreat", "held": ["s-a", "s-b"]},
        {"company": "g-co", "result": "ok"},
        {"company": "s-co", "result": "ok"},
    ]
    assert "modifier own HQ destroyed or retreating -2 (p23 morale test variations)" in (
        tests[2].explanation
    )
    assert any("waits until both sides have tested (p19)" in x for x in tests[0].explanation)
    outcome = [d for d in drafts if d.type == "cqc_morale"]
    assert [d.visible_to for d in outcome] == [("germany",), ("ussr",)]
    assert [d.data["surrendered"] for d in outcome] == [[], []]
    assert [d.data["platoons"] for d in outcome] == [[["g-pair", "shaken", 3]],
                                                     [["s-pair", "shaken", 4]]]  # fmt: skip
    for uid in PAIRS:
        e = st.elements[uid]
        assert e.active and not e.has("retreat") and e.has("shaken")
        assert melee_groups.foes(st, e) == []  # out of contact
    assert st.platoons["g-pair"].status == st.platoons["s-pair"].status == "shaken"
    assert not morale_tests.pending(st)
    for side in ("germany", "ussr"):
        text = _lines(drafts, "cqc_morale", side)
        assert sum("reduced to disengaging (p19, P336)" in x for x in text) == 2
        assert sum("steps back out of the close combat" in x for x in text) == 2
        assert not any("surrenders:" in x for x in text)


def test_a_one_sided_retreat_in_close_combat_still_surrenders_p19():
    """g-pair: 6+6 = 12 - 2 = 10, OK; s-pair: 1+1 - 2 = 0, Retreat; s-co: 12 - 6 = 6, OK. The
    Germans stand, so both Soviet bases are taken prisoner (p19); no German event."""
    game = _game()
    st = game.state
    _park(game, "g-c", "s-smg")
    drafts = _fight(game, 6, 6, 1, 1, 6, 6)
    (outcome,) = [d for d in drafts if d.type == "cqc_morale"]
    assert outcome.visible_to == ("ussr",)
    assert outcome.data == {"surrendered": ["s-a", "s-b"], "disengaged": [], "platoons": []}
    assert st.elements["s-a"].lost and st.elements["s-b"].lost
    assert all(st.elements[u].active and not st.elements[u].counters for u in ("g-a", "g-b"))
    text = outcome.explanation
    assert text.count("Rifle Team surrenders: it broke in close combat and an enemy of its "
                      "combat still stands (p19, p24)") == 2  # fmt: skip
    assert st.platoons["s-pair"].status == "retreat"


def test_steady_option_reduces_the_retreat_to_the_disengagement_alone_p335():
    """`cqc_double_retreat=steady`: the same double Retreat as above, no Shaken roll; the bases
    step apart and both platoons are steady again."""
    game = _game(cqc_double_retreat="steady")
    st = game.state
    _park(game, "g-c", "s-smg")
    drafts = _fight(game, 1, 1, 1, 1, 6, 6, 6, 6)
    outcome = [d for d in drafts if d.type == "cqc_morale"]
    assert [d.data["platoons"] for d in outcome] == [[["g-pair", "ok", 0]], [["s-pair", "ok", 0]]]
    for uid in PAIRS:
        e = st.elements[uid]
        assert e.active and not e.counters and melee_groups.foes(st, e) == []


# ----------------------------------------------------------------------------- judged per base
def _broken(game: Game, fights: list, held: list[str], lost: tuple[str, ...] = ()) -> None:
    """The state once the tests are taken: `held` broke next to the enemy (Retreat, surrender
    waiting), `lost` fell in the combat. The morale results are given, not tested."""
    st = game.state
    st.phase_data[morale_tests.FIGHTS] = fights
    st.phase_data[morale_tests.HELD] = list(held)
    for uid in held:
        st.elements[uid].counters["retreat"] = 1
        st.platoons[st.elements[uid].platoon].status = "retreat"
    for uid in lost:
        st.elements[uid].lost = True
    st.cache.clear()
    sight.look(st)


def test_a_base_surrenders_while_an_enemy_of_its_combat_stands_p336():
    """g-a and the steady g-c (another platoon) fought s-a; g-b fought s-b; g-a, g-b, s-a and
    s-b broke. s-a still has g-c standing against it: taken prisoner. g-a's only enemy broke
    too: it disengages, and so do g-b and s-b. g-pair's status stays Shaken (P335)."""
    game = _game()
    st = game.state
    _park(game, "s-smg")
    left = [["germany", ["g-a", "g-c"]], ["ussr", ["s-a"]]]
    right = [["germany", ["g-b"]], ["ussr", ["s-b"]]]
    _broken(game, [left, right], ["g-a", "g-b", "s-a", "s-b"])
    drafts = _settle(game, Dice(3, 4))
    by_side = {d.visible_to[0]: d.data for d in drafts}
    assert by_side["germany"]["surrendered"] == [] and by_side["ussr"]["surrendered"] == ["s-a"]
    assert [m[0] for m in by_side["germany"]["disengaged"]] == ["g-a", "g-b"]
    assert [m[0] for m in by_side["ussr"]["disengaged"]] == ["s-b"]
    assert st.elements["s-a"].lost and not st.elements["g-a"].lost
    assert st.elements["g-c"].active and not st.elements["g-c"].counters
    # s-pair: s-b disengaged, s-a taken: no base of it retreats any more
    assert by_side["ussr"]["platoons"] == [["s-pair", "shaken", 4]]


def test_a_base_whose_enemy_fell_surrenders_to_another_enemy_near_p24():
    """s-a fell in the combat; g-a broke with s-b (another combat) 5.7 cm away: no enemy of
    its combat is left to break with it, so the plain p24 surrender stands."""
    game = _game()
    _park(game, "g-c", "s-smg")
    fights = [[["germany", ["g-a"]], ["ussr", ["s-a"]]]]
    _broken(game, fights, ["g-a"], lost=("s-a",))
    (outcome,) = _settle(game, Dice())
    assert outcome.data["surrendered"] == ["g-a"]
    assert "an enemy it observes is within 20 cm (p24)" in outcome.explanation[0]


def test_a_base_already_out_of_contact_stays_where_it_stands_p309():
    """g-a disengaged by order and stepped back after the combat (P309) before both sides
    broke: the reduction moves neither it nor s-a, whom it no longer touches."""
    game = _game()
    st = game.state
    _park(game, "g-c", "s-smg")
    st.elements["g-a"].y = 55.0  # 5 cm from s-a: out of contact (P146)
    fights = [[["germany", ["g-a"]], ["ussr", ["s-a"]]]]
    _broken(game, fights, ["g-a", "s-a"])
    drafts = _settle(game, Dice(3, 4))
    assert [d.data["disengaged"] for d in drafts] == [[["g-a", 80.0, 55.0]], [["s-a", 80.0, 60.0]]]
    assert not any("steps back" in x for d in drafts for x in d.explanation)


def test_an_open_afv_crew_and_its_assailant_both_break_the_infantry_steps_away_p337():
    """The Marder II's crew (CQC as an Open Topped AFV Crew, p18) and the Soviet SMG team both
    broke: neither surrenders (p19). The AFV holds where it is; the team on foot steps back,
    which ends the contact. Shaken turns: g-jagd (reliable) 2, s-hunters 5."""
    game = _game()
    st = game.state
    _park(game, "g-a", "g-b", "g-c", "s-a", "s-b")
    assert melee_groups.foes(st, st.elements["s-smg"])  # in contact (Q&A 9, p111)
    fights = [[["germany", ["g-marder"]], ["ussr", ["s-smg"]]]]
    _broken(game, fights, ["g-marder", "s-smg"])
    drafts = _settle(game, Dice(2, 5))
    marder, smg = st.elements["g-marder"], st.elements["s-smg"]
    assert (marder.x, marder.y) == (150.0, 60.0) and marder.active and marder.has("shaken")
    assert smg.active and (smg.x, smg.y) != (150.0, 64.0)
    assert melee_groups.foes(st, smg) == []
    assert any("holds where it is" in x and "P337" in x for x in _lines(drafts, "cqc_morale",
                                                                      "germany"))  # fmt: skip


def test_a_log_from_before_the_rule_surrenders_at_once():
    """A `morale` event without `held` (logs written before P336) folds as it did then: the
    bases that would surrender are lost at once and nothing waits."""
    game = _game()
    st = game.state
    cqc_morale.record(st, [["germany", ["g-a"]], ["ussr", ["s-a"]]])
    old = Event(10_000, 0, "morale", None, {"platoon": "s-pair", "result": "retreat"}, ("ussr",))
    game.rules.apply(st, old)
    assert st.elements["s-a"].lost and st.elements["s-b"].lost
    assert morale_tests.HELD not in st.phase_data


# ----------------------------------------------------------------------------- the engine
def test_a_played_double_retreat_disengages_both_and_the_log_replays():
    """Seed 33, turn 1, every platoon ends and every firer holds: in the g-b/s-b combat both
    platoons came out Retreat (g-pair 5+1 -7 = -1, s-pair 1+5 -7 = -1, p24): both bases step
    apart, neither surrenders; each side is told only of its own (fog of war); the log
    replays to the same state."""
    game = Game(load_scenario(SCENARIO), seed=33)
    st = game.state
    _end_platoons(game)
    _hold_fire(game)
    outcome = [e for e in game.events if e.type == "cqc_morale"]
    assert [e.visible_to for e in outcome] == [("germany",), ("ussr",)]
    assert [e.data["surrendered"] for e in outcome] == [[], []]
    assert [[m[0] for m in e.data["disengaged"]] for e in outcome] == [["g-b"], ["s-b"]]
    for uid in ("g-b", "s-b"):
        e = st.elements[uid]
        assert e.active and not e.has("retreat") and melee_groups.foes(st, e) == []
    assert not any(e.visible("ussr") for e in outcome if e.visible_to == ("germany",))
    assert game.replay().state_hash() == game.state_hash()
