"""Close combat partners (pp. 17-19, P279-P282): melees are connected groups of bases in
contact, split into combats of like variables (worked example 2 of p18, #10 of the digest:
two melees), else fought with each side's worst variables (example 3 of p18); no direct fire
into a melee (p17); what each side is told."""

from __future__ import annotations

import json

import pytest

from kriegsspiel.chance import exact
from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import melee, melee_groups, sight
from kriegsspiel.rulesets.panzerfaust.rules import cqc

from .conftest import HERE, Dice

MELEE = HERE / "melee.yaml"


def _game() -> Game:
    return Game(load_scenario(MELEE), seed=1)


def _combats(game: Game) -> dict[frozenset, melee_groups.Combat]:
    """The combats due now, keyed by all their elements."""
    return {
        frozenset(i for _, m in c.sides for i in m): c for c in melee_groups.combats(game.state)
    }


def _end_platoons(game: Game, then=None) -> None:
    """Phase D ended, then every platoon ends (`then(game, side)` may act first)."""
    for s in game.sides:
        game.submit(s, {"type": "end_phase"})
    while game.state.phase == "F":
        side = game.rules.active_sides(game.state)[0]
        if then is not None and then(game, side):
            continue
        end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
        game.submit(side, end)


def _hold_fire(game: Game) -> None:
    """Every firer of phase G holds; then the melees are fought."""
    st = game.state
    while st.phase == "G" and game.rules.active_sides(st):
        side = game.rules.active_sides(st)[0]
        game.submit(side, next(c for c in game.legal_commands(side) if c["type"] == "hold"))


def test_p18_example_2_three_germans_two_soviets_one_dug_in_make_two_melees():
    """Golden, p18 example 2 (digest #10): three German teams in contact with two Soviet teams,
    one dug in: one melee of five bases, fought as two combats, two Germans against the dug-in
    team (g-2 touches both Soviets and is nearer the dug-in one) and one on one."""
    game = _game()
    st = game.state
    assert ["g-1", "g-2", "g-3", "s-dug", "s-open"] in melee_groups.melees(st)
    combats = _combats(game)
    dug = combats[frozenset({"g-1", "g-2", "s-dug"})]
    assert dug.sides == (("germany", ("g-1", "g-2")), ("ussr", ("s-dug",))) and not dug.worst
    assert frozenset({"g-3", "s-open"}) in combats
    assert melee_groups.side_of(st, st.elements["s-dug"]).cover == "hard"  # dug in (p18)
    # the German roll against the dug-in team reads -5, the other does not
    lines = [
        x for d in melee.resolve(st, dug, Dice(3, 3)) if d.type == "melee" for x in d.explanation
    ]
    assert "attacker CQC factors 4, defender 2 (p18)" in lines  # two rifle teams (2 each)
    assert any("enemy in hard cover -5" in x for x in lines)
    open_ = combats[frozenset({"g-3", "s-open"})]
    other = [
        x for d in melee.resolve(st, open_, Dice(3, 3)) if d.type == "melee" for x in d.explanation
    ]
    assert not any("cover" in x for x in other)


def test_one_team_touching_a_dug_in_and_an_open_team_cannot_split_them():
    """With g-2 alone in contact with both Soviet teams no split leaves every base an enemy:
    one combat, the Soviets at their worst (the open team's lack of cover) (p18 step 2)."""
    game = _game()
    st = game.state
    for gone in ("g-1", "g-3"):
        st.elements[gone].x = 150.0 if gone == "g-3" else 10.0
    (combat,) = [c for c in melee_groups.combats(st) if "g-2" in dict(c.sides)["germany"]]
    assert combat.worst and combat.sides == (("germany", ("g-2",)), ("ussr", ("s-dug", "s-open")))
    a, d = melee.sides(st, combat)
    assert d.cover == "none" and cqc.factors(st.rules, d) == 4


def test_p18_example_1_like_variables_fight_as_one_melee():
    """p18 example 1: four German teams against two stationary Soviet teams, one combat. Here
    the dug-in team climbs out: every base of the melee shares its variables."""
    game = _game()
    game.state.elements["s-dug"].counters.pop("dug_in")
    combats = _combats(game)
    whole = combats[frozenset({"g-1", "g-2", "g-3", "s-dug", "s-open"})]
    assert not whole.worst


def test_two_against_one_and_one_against_two_sum_their_teams():
    """A German rifle and SMG team on one Soviet rifle team (2 + 6 against 2), one German SMG
    team on a Soviet rifle and SMG team (6 against 2 + 6); their odds are the rules core's
    with the teams summed; losses fall on the bases nearest the enemy."""
    game = _game()
    st = game.state
    g5 = st.elements["g-5"]
    g5.x, g5.y = 132.0, 56.5  # beside g-4, in contact with s-7
    combats = _combats(game)
    two = combats[frozenset({"g-4", "g-5", "s-7"})]
    one = combats[frozenset({"g-6", "s-8", "s-9"})]
    assert two.sides == (("germany", ("g-4", "g-5")), ("ussr", ("s-7",)))
    assert one.sides == (("germany", ("g-6",)), ("ussr", ("s-8", "s-9")))
    a, d = melee.sides(st, one)
    assert (cqc.factors(st.rules, a), cqc.factors(st.rules, d)) == (6, 8)
    odds = melee.odds(st, one)
    assert sum(odds.probs.values()) == 1
    assert odds.probs == exact(cqc.cqc, st.rules, a, d).probs
    drafts = melee.resolve(st, one, Dice(6, 6))  # +1 each: the SMG team's 6 and the pair's 8
    fight = next(d for d in drafts if d.type == "melee")
    lost = {r["target"] for r in fight.data["results"] if r["result"] == "lost_1"}
    theirs = next(d for d in drafts if d.type == "melee_fought" and d.visible_to == ("ussr",))
    assert len(theirs.data["lost"]) == min(2, theirs.data["teams_lost"])
    assert set(theirs.data["lost"]) <= lost and set(theirs.data["lost"]) <= {"s-8", "s-9"}


def _move_g5_in(game: Game, side: str) -> bool:
    st = game.state
    if side != "germany" or st.elements["g-5"].moved:
        return False
    legal = game.legal_commands("germany")
    if not any(c.get("platoon") == "g-two" for c in legal if c["type"] == "end_platoon"):
        return False
    game.submit("germany", {"type": "move", "unit": "g-5", "path": [[133, 57]]})
    return True


def test_p18_example_3_a_second_team_moves_in_one_combat_with_the_worst_variables():
    """p18 example 3: one team already in contact, a second moves in against the same single
    enemy: the melee cannot be split, so both Germans take the worse variables (here: not
    having charged, as "enemy charged" -1 helps the charger, P73) and the side that charged
    attacks (P280)."""
    game = _game()
    seen = []

    def spy(g: Game, side: str) -> bool:
        moved = _move_g5_in(g, side)
        if moved:
            combat = _combats(g)[frozenset({"g-4", "g-5", "s-7"})]
            seen.append((combat, melee.sides(g.state, combat)))
        return moved

    _end_platoons(game, spy)
    _hold_fire(game)
    ((combat, (a, d)),) = seen
    assert combat.worst
    st = game.state
    assert not a.charged and cqc.factors(st.rules, a) == 8  # the attacker: the Germans
    assert cqc.factors(st.rules, d) == 2
    fights = [e for e in game.events if e.type == "melee"]
    mine = next(e for e in fights if "s-7" in json.dumps(e.data["sides"]))
    assert mine.data["attacker"] == "germany" and mine.data["worst"]
    assert any("worst variables (p18)" in x for x in mine.explanation)


def test_a_second_rank_fights_with_the_base_in_front_p17():
    """A friendly base lined up behind one in contact fights in its melee (p17)."""
    game = _game()
    st = game.state
    lmg = st.elements["g-lmg"]
    lmg.x, lmg.y = 78.5, 52.5  # behind g-1, which touches the dug-in team
    assert {t.id for t in melee_groups.foes(st, lmg)} == {"s-dug"}
    dug = next(c for c in _combats(game).values() if "s-dug" in dict(c.sides)["ussr"])
    assert "g-lmg" in dict(dug.sides)["germany"]
    lmg.x, lmg.y = 74.5, 56.5  # beside it, not behind: not in the melee
    st.cache.pop("cqc", None)  # moved by hand, not by an event: contact is worked out again
    assert melee_groups.foes(st, lmg) == []


def test_no_direct_fire_into_a_melee_p17():
    """In phase G the LMG team sees every Soviet team; it is offered only the one in no melee,
    and a shot at one in close combat is refused without naming anything it does not know."""
    game = _game()
    _end_platoons(game)
    st = game.state
    assert st.phase == "G" and st.fire_order[st.fire_step] == "g-lmg"
    free, dug = (st.aliases.alias("germany", i) for i in ("s-free", "s-dug"))
    targets = {c["target"] for c in game.legal_commands("germany") if c["type"] == "fire"}
    assert targets == {free}
    with pytest.raises(IllegalCommand) as err:
        game.submit("germany", {"type": "fire", "unit": "g-lmg", "target": dug})
    assert "close combat" in str(err.value) and "p17" in str(err.value)
    assert "x-" not in str(err.value) and "s-" not in str(err.value)
    # the teams in the melee fire at nothing: their weapons fight there
    assert "close combat" in melee_groups.why_not_firer(st, st.elements["g-1"])


def test_fog_melee_notices_name_aliases_only_and_contact_reveals():
    """Each side is told its combats by its own aliases; the umpire's record goes to no side;
    a base touched from behind by an enemy it does not observe is not told so before the
    melee (it may still fire), and observes its enemy once they fought (P281). Seed 6: both
    come out of that fight alive."""
    game = Game(load_scenario(MELEE), seed=6)
    st = game.state
    sneak = st.elements["s-free"]
    sneak.x, sneak.y = 85.0, 26.5  # behind the LMG team, which faces north
    for spotted in st.spotted.values():  # it crept there unseen
        spotted.pop("s-free", None)
    sight.look(st)
    lmg = st.elements["g-lmg"]
    assert "s-free" not in st.seen["germany"]
    assert [t.id for t in melee_groups.foes(st, lmg)] == ["s-free"]
    assert melee_groups.why_not_firer(st, lmg) is None  # nothing to tell it yet
    start = len(game.events)
    _end_platoons(game)
    _hold_fire(game)
    events = game.events[start:]
    umpire = [e for e in events if e.type == "melee"]
    assert len(umpire) == 5 and all(e.visible_to == () for e in umpire)
    for side in game.sides:
        notices = [e for e in events if e.type == "melee_fought" and e.visible(side)]
        assert len(notices) == 5
        blob = json.dumps([e.data for e in notices])
        enemy_ids = [i for i, el in st.elements.items() if el.side != side]
        assert not any(f'"{i}"' in blob for i in enemy_ids)
    assert any("s-free" in json.dumps(e.data["sides"]) for e in umpire)
    # every platoon that fought tests (p19), a beaten one at -2 (p23)
    tests = {
        e.data["platoon"]: e.explanation
        for e in events
        if e.type == "morale" and "platoon" in e.data
    }
    for fight in umpire:
        for side, ids in fight.data["sides"]:
            for pid in {st.elements[i].platoon for i in ids}:
                lost_cqc = any("pinned or lost CQC" in x for x in tests[pid])
                assert lost_cqc == any(
                    f.data["beaten"] == side
                    for f in umpire
                    if pid
                    in {st.elements[i].platoon for s, m in f.data["sides"] if s == side for i in m}
                ), pid
    assert any(f.data["beaten"] for f in umpire)
    assert not lmg.lost and not sneak.lost
    assert "s-free" in st.spotted["g-lmg"] and "s-free" in st.seen["germany"]
