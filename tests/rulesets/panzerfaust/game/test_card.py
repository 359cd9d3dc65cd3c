"""The Panzerfaust unit card and sight check (GameRules hooks `unit_card`, `sight_check`): an
own element's data and state in full; an observed enemy by its alias only, with what can be
seen of it; one refusal for an unknown name, an enemy's true id and an unobserved enemy; the
sight check answers from terrain and the own element alone."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand

from .conftest import skirmish


@pytest.fixture
def game() -> Game:
    g = Game(skirmish(), seed=7)
    assert g.state.phase != "setup"
    return g


def _first(game: Game, side: str, kind: str):
    return next(e for e in game.state.side_elements(side) if e.kind == kind and e.on_table)


def test_own_card_has_the_data_and_the_state(game):
    st = game.state
    tank = _first(game, "germany", "afv")
    tank.counters["stunned"] = 1
    card = game.rules.unit_card(st, "germany", tank.id)
    assert card["own"] and card["unit"] == tank.id and card["name"] == st.records[tank.id].name
    rows = dict(card["data"]["rows"])
    armour = st.records[tank.id].armour
    assert f"hull front {armour.hf}" in rows["armour (cm)"]
    assert rows["main gun"].startswith(card["data"]["gun"]["name"])
    first = card["data"]["gun"]["bands"][0]
    assert first["band"] == 1 and first["up_to"] == 20  # p29: the first gun band ends at 20 cm
    assert card["state"] == ["stunned"] and "p31" in card["reminders"][0]
    assert card["now"]["platoon"] == tank.platoon


def test_enemy_card_by_alias_only_while_observed(game):
    st = game.state
    seen = st.seen["germany"]
    assert seen, "the skirmish starts with British elements in the Germans' sight"
    real = seen[0]
    alias = st.aliases.alias("germany", real)
    enemy = st.elements[real]
    enemy.counters["pinned"] = 1  # not visible on a model: the Germans are not told
    card = game.rules.unit_card(st, "germany", alias)
    assert not card["own"] and card["unit"] == alias and "now" not in card
    assert "pinned" not in card["state"] and real not in str(card)
    unseen = next(e for e in st.side_elements("britain") if e.id not in seen)
    refusals = set()
    for name in (real, st.aliases.alias("germany", unseen.id), unseen.id, "nobody", 3):
        with pytest.raises(IllegalCommand) as err:
            game.rules.unit_card(st, "germany", name)
        assert err.value.field == "unit"
        refusals.add(str(err.value).replace(repr(name), "NAME"))
    assert len(refusals) == 1  # the same words for every name it may not ask about


def test_sight_check_from_terrain_and_the_own_element(game):
    st = game.state
    tank = _first(game, "germany", "afv")
    here = game.rules.sight_check(st, "germany", tank.id, tank.x, tank.y)
    assert here["distance"] == 0 and here["clear_line"]
    assert set(here["ranges"]) == {"A", "B", "C", "D"}
    assert here["ranges"]["A"] <= here["ranges"]["D"]  # a bigger piece is seen further off
    with pytest.raises(IllegalCommand, match="off the table"):
        game.rules.sight_check(st, "germany", tank.id, -5, 10)
    enemy = st.side_elements("britain")[0]
    with pytest.raises(IllegalCommand) as err:
        game.rules.sight_check(st, "germany", enemy.id, 10, 10)
    assert err.value.field == "unit"
    # the answer is the same whatever the enemy does: it never looks at enemy pieces
    before = game.rules.sight_check(st, "germany", tank.id, 90, 60)
    for e in st.side_elements("britain"):
        e.x, e.y = 90.0, 60.0
    assert game.rules.sight_check(st, "germany", tank.id, 90, 60) == before
