"""Direct area fire (p32) and covering fire (p17) aimed at one floor of a building (P338-P339),
played on floor-fire.yaml: a three-storey stone mill with a Soviet team on each floor
(s-ground 0, s-first 1, s-top 2), one in the open west of it (s-lee) and one east of it that
no German sees (s-east); a PaK 40 9 cm from the mill sees every floor, a Pz IV beyond the
bocage bank (height 2) only the top floor."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import fieldworks, floor_zone, orders_cover, orders_fire

from .conftest import HERE, Dice, to_fire

MILL = HERE / "floor-fire.yaml"
TOP = (61.0, 46.0)  # s-top, on floor 2


def _game(**opts) -> Game:
    return Game(load_scenario(MILL), seed=1, options=opts or None)


def _he(game: Game, dice: Dice, floor: int | None, target: str = "s-top"):
    """The PaK's HE at `target` (aimed at `floor`), resolved with chosen dice."""
    st = game.state
    cmd = {"type": "fire", "unit": "g-pak", "target": st.aliases.alias("germany", target)}
    if floor is not None:
        cmd["floor"] = floor
    return game.rules.resolve(st, "germany", cmd, dice)


def _rolled(drafts) -> dict[str, str]:
    (hits,) = [d for d in drafts if d.type == "area_hits"]
    return {r["target"]: r["result"] for r in hits.data["results"]}


def test_the_pak_is_offered_every_floor_it_sees_and_the_pz_iv_only_the_top_floor():
    game = _game()
    st = game.state
    pz = st.elements["g-pz"]
    assert floor_zone.choices(st, pz, TOP) == [2]  # the bank hides floors 0 and 1
    assert floor_zone.choices(st, pz, (58.5, 44.0)) == []  # s-lee stands in the open
    covers = [c for c in game.legal_commands("germany") if c["type"] == "cover"]
    assert {c.get("floor") for c in covers} == {2}
    to_fire(game, "g-pak")
    alias = st.aliases.alias("germany", "s-top")
    fires = [c for c in game.legal_commands("germany") if c.get("target") == alias]
    assert [c.get("floor") for c in fires] == [None, 0, 1, 2]


def test_he_aimed_at_the_top_floor_rolls_there_and_outside_the_mill_only_p32():
    """Floor 2 named: the teams on floors 0 and 1 are left alone; in the zone (6 cm doubled
    at a building, p32) outside the mill s-lee and s-east roll as before (P339 `hit`). The
    PaK's to-hit at 9 cm is 12 (band 1), -4 in the mill's hard cover (p32): s-top's 3+3+2 = 8
    destroys it, s-lee's 6+6+6 = 18 misses, s-east's 1+1+1 = 3 destroys it."""
    game = _game()
    to_fire(game, "g-pak")
    drafts = _he(game, Dice(3, 3, 2, 6, 6, 6, 1, 1, 1), 2)
    assert _rolled(drafts) == {"s-top": "destroyed", "s-lee": "survives", "s-east": "destroyed"}
    shot = drafts[0]
    assert shot.data["result"] == "destroyed" and shot.data["floor"] == 2
    assert any("floor 2 of the building mill" in x for x in shot.explanation)


def test_he_without_a_floor_still_reaches_every_floor():
    game = _game()
    to_fire(game, "g-pak")
    drafts = _he(game, Dice(*[6] * 15), None)
    assert set(_rolled(drafts)) == {"s-ground", "s-first", "s-top", "s-lee", "s-east"}


def test_he_at_a_team_on_another_floor_leaves_it_outside_the_zone():
    game = _game()
    to_fire(game, "g-pak")
    drafts = _he(game, Dice(*[6] * 9), 1)  # at s-top's place, floor 1
    assert set(_rolled(drafts)) == {"s-first", "s-lee", "s-east"}
    assert drafts[0].data["result"] == "outside"


def test_option_spared_keeps_the_zone_to_the_named_floor_p339():
    game = _game(floor_zone_outside="spared")
    to_fire(game, "g-pak")
    assert _rolled(_he(game, Dice(6, 6, 6), 2)) == {"s-top": "survives"}


def test_the_firer_reads_the_rolls_only_at_teams_it_observes():
    """s-east, behind the mill, is rolled for but the PaK's side is not told of it (fog)."""
    game = _game()
    to_fire(game, "g-pak")
    assert "s-east" not in game.state.seen["germany"]
    shot = _he(game, Dice(*[6] * 9), 2)[0]
    assert sum(x == "infantry in the beaten zone:" for x in shot.explanation) == 2  # s-top, s-lee


def test_fire_floor_refusals_name_the_reason():
    game = _game()
    to_fire(game, "g-pak")
    st = game.state
    fire = {"type": "fire", "unit": "g-pak", "target": st.aliases.alias("germany", "s-top")}
    at_lee = fire | {"target": st.aliases.alias("germany", "s-lee")}
    for cmd, reason in [
        (fire | {"floor": 3}, "the building mill has floors 0 to 2"),
        (at_lee | {"floor": 0}, r"\(58.5, 44\) is not in a building"),
        (fire | {"floor": -1}, "greater than or equal to 0"),  # the schema's check
    ]:
        n = len(game.events)
        with pytest.raises(IllegalCommand, match=reason) as err:
            game.submit("germany", cmd)
        assert err.value.field == "floor" and len(game.events) == n
    pz, lee = st.elements["g-pz"], st.elements["s-lee"]
    with pytest.raises(IllegalCommand, match="named only for area fire"):
        orders_fire._floor(st, pz, lee, (lee.x, lee.y), {"floor": 0})  # its MGs reach s-lee


def _cover(game: Game, floor: int | None, xy=(61.0, 45.0)) -> None:
    cmd = {"type": "cover", "unit": "g-pz", "x": xy[0], "y": xy[1]}
    game.submit("germany", cmd if floor is None else cmd | {"floor": floor})


def _pinned(game: Game) -> set[str]:
    return {i for i, e in game.state.elements.items() if e.has("pinned")}


def test_covering_fire_on_the_top_floor_pins_it_and_the_open_ground_p17():
    """The Pz IV's two LMGs cover 2 base widths (a 4 cm radius, p17) round (61, 45): s-lee in
    the open is pinned as before, in the mill only s-top on the floor named."""
    game = _game()
    _cover(game, 2)
    assert _pinned(game) == {"s-top", "s-lee"}
    st = game.state
    (zone,) = [m for m in st.markers.values() if m.kind == "cf"]
    assert zone.data == {"aim": {"building": "mill", "floor": 2}}
    assert game.view("ussr")["panzerfaust"]["markers"][0]["data"]["aim"]["floor"] == 2
    first, top = st.elements["s-first"], st.elements["s-top"]
    assert not orders_cover.covers(st, zone, first) and orders_cover.covers(st, zone, top)
    assert not fieldworks.under_fire(st, first) and fieldworks.under_fire(st, top)


def test_covering_fire_without_a_floor_pins_every_floor_and_spared_only_the_floor():
    game = _game()
    pz = game.state.elements["g-pz"]
    pz.x, pz.y = 57.0, 40.0  # east of the bank: it sees the mill's ground floor
    game.state.cache.clear()
    _cover(game, None)
    assert _pinned(game) == {"s-ground", "s-first", "s-top", "s-lee"}
    game = _game(floor_zone_outside="spared")
    _cover(game, 2)
    assert _pinned(game) == {"s-top"}


def test_cover_floor_refusals_name_the_reason():
    game = _game()
    for xy, floor, reason in [
        ((35.0, 15.0), 0, "the building shed has one floor only"),
        ((40.0, 30.0), 0, r"\(40, 30\) is not in a building"),
        ((61.0, 45.0), 5, "the building mill has floors 0 to 2"),
        ((61.0, 45.0), 1, "Pz IV Ausf G-J cannot see floor 1 of the building mill"),
    ]:
        n = len(game.events)
        with pytest.raises(IllegalCommand, match=reason) as err:
            _cover(game, floor, xy)
        assert err.value.field == "floor" and len(game.events) == n


def test_a_refusal_for_an_unseen_floor_reveals_nobody_on_it():
    """Floors 0 and 1 are hidden from the Pz IV: the refusal is the same whether a Soviet
    team stands there or not, and names no enemy."""
    game = _game()
    reasons = {}
    for floor in (0, 1):
        with pytest.raises(IllegalCommand) as err:
            _cover(game, floor)
        reasons[floor] = str(err.value)
    st = game.state
    st.elements["s-ground"].x = st.elements["s-first"].x = 110.0  # both floors emptied
    st.elements["s-first"].floor = 0
    st.cache.clear()
    for floor in (0, 1):
        with pytest.raises(IllegalCommand) as err:
            _cover(game, floor)
        assert str(err.value) == reasons[floor]
        assert not any(i in reasons[floor] for i in ("s-ground", "s-first", "Rifle"))
