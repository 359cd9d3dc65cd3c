"""Morale after fire (pp. 23-24; decisions P310-P311): a Retreating unit that loses men to an
enemy within 60 cm surrenders whole, and a flame attack makes its victim's unit test morale,
with -2, even when it caused no loss (scenarios withdrawal.yaml, the barn; flame.yaml)."""

from __future__ import annotations

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import orders_fire, sight

from .conftest import HERE, Dice, fold, settle, to_fire


def barn() -> Game:
    return Game(load_scenario(HERE / "withdrawal.yaml"), seed=7)


def _retreating(game: Game, **at: tuple[float, float]) -> None:
    """5 Platoon under a Retreat result, its elements and the enemy placed as given."""
    st = game.state
    st.platoons["b-two"].status = "retreat"
    for m in st.platoons["b-two"].members:
        st.elements[m].counters["retreat"] = 1
    for uid, (x, y) in at.items():
        e = st.elements[uid]
        e.x, e.y, e.feature = x, y, st.board.feature(x, y)
    sight.look(st)


def test_p24_a_retreating_unit_losing_men_to_an_enemy_within_60_cm_surrenders():
    """German riflemen 47 cm up the field (seen, not within the 20 cm of the other surrender)
    kill a retreating rifle team: the rest of 5 Platoon gives itself up at once; its own morale
    test is moot and the company HQ tests for a platoon gone (p23)."""
    game = barn()
    st = game.state
    _retreating(game, **{"b-two-1": (85.0, 50.0), "g-inf-2": (85.0, 97.0)})
    assert "g-inf-2" in st.seen["britain"]
    orders_fire.land(st, [{"target": "b-two-1", "result": "lost_1", "src": "g-inf-2"}])
    (gone,) = game.rules.automatic(st, Dice())
    assert gone.type == "surrendered" and gone.visible_to == ("britain",)
    assert gone.data == {"units": ["b-two-hq", "b-two-2"], "platoon": "b-two"}
    alias = st.aliases.alias("britain", "g-inf-2")
    assert alias in gone.explanation[0] and "47 cm" in gone.explanation[0]
    assert "60 cm" in gone.explanation[0] and "p24" in gone.explanation[0]
    fold(game, "britain", [gone])
    assert all(st.elements[m].lost for m in st.platoons["b-two"].members)
    (company,) = game.rules.automatic(st, Dice(3, 3))
    assert company.data["company"] == "b-co"  # the platoon's test skipped, the HQ's taken


def test_p24_losses_from_farther_than_60_cm_or_an_unseen_enemy_bring_only_a_morale_test():
    for where, seen in (((20.0, 97.0), True), ((52.0, 45.0), False)):  # 80 cm; in the barn
        game = barn()
        st = game.state
        _retreating(game, **{"b-two-1": (85.0, 50.0), "g-inf-2": where})
        assert ("g-inf-2" in st.seen["britain"]) is seen
        orders_fire.land(st, [{"target": "b-two-1", "result": "lost_1", "src": "g-inf-2"}])
        (test,) = game.rules.automatic(st, Dice(3, 3))
        assert test.type == "morale" and test.data["platoon"] == "b-two"
        fold(game, "britain", [test])
        assert not st.elements["b-two-2"].lost and st.elements["b-two-2"].has("retreat")
        hidden = st.aliases.alias("britain", "g-inf-2")
        assert seen or hidden not in " ".join(test.explanation)


def test_p24_a_steady_unit_losing_men_at_close_range_does_not_surrender():
    game = barn()
    st = game.state
    st.elements["g-inf-2"].x, st.elements["g-inf-2"].y = 85.0, 97.0
    sight.look(st)
    orders_fire.land(st, [{"target": "b-two-1", "result": "lost_1", "src": "g-inf-2"}])
    (test,) = game.rules.automatic(st, Dice(3, 3))
    assert test.type == "morale"


def test_p23_a_flame_attack_that_caused_no_loss_makes_its_target_test_at_minus_2():
    """A German flamethrower at a Cromwell: 1D6 4, no effect (p21). When the fire lands the
    troop tests all the same, with -2 for the flame attack and +1 for an AFV crew (p23):
    2D6 1+1 = 2 -1 = 1, Shaken."""
    game = Game(load_scenario(HERE / "flame.yaml"), seed=5)
    to_fire(game, "g-flame")
    st = game.state
    cmd = {"type": "fire", "unit": "g-flame", "target": st.aliases.alias("germany", "b-tk-1")}
    drafts = game.rules.resolve(st, "germany", cmd, Dice(4))
    assert drafts[0].data["result"] == "no_effect"
    fold(game, "germany", drafts)
    settle(game, Dice(1, 1, 3, 6, 6))  # the troop 1+1; its turns 3; the company HQ 6+6
    assert not st.elements["b-tk-1"].lost
    assert st.platoons["b-tk"].status == "shaken"
    assert st.elements["b-tk-1"].counters["shaken"] == 3


def test_p23_the_flame_test_is_explained_and_tells_nothing_of_the_flamer():
    game = Game(load_scenario(HERE / "flame.yaml"), seed=5)
    to_fire(game, "g-flame")
    st = game.state
    cmd = {"type": "fire", "unit": "g-flame", "target": st.aliases.alias("germany", "b-tk-1")}
    fold(game, "germany", game.rules.resolve(st, "germany", cmd, Dice(4)))
    drafts = []
    while True:
        more = game.rules.automatic(st, Dice(3, 3, 3, 3))
        if not more:
            break
        fold(game, None, more)
        drafts += more
    (test,) = [d for d in drafts if d.type == "morale"]
    assert test.visible_to == ("britain",)
    assert "after a flame attack" in test.explanation[0]
    assert any("flame or air attack -2" in x for x in test.explanation)
    assert any("AFV unit +1" in x for x in test.explanation)
    assert "g-flame" not in " ".join(test.explanation) + str(test.data)
