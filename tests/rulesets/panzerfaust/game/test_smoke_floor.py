"""Smoke and WP aimed at one floor of a building (p32-33; P367-P369), played on
floor-smoke.yaml: the mill of floor-fire.yaml (a Soviet team on each of its three floors,
s-lee in the open west of it, s-east east of it) under a US 75 mm M2 gun 9 cm away (smoke and WP, p33)."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario

from .conftest import HERE, Dice, to_fire

MILL = HERE / "floor-smoke.yaml"
TOP = (61.0, 46.0)  # s-top's place, on floor 2 of the mill


def _game(**opts) -> Game:
    game = Game(load_scenario(MILL), seed=1, options=opts or None)
    to_fire(game, "g-pak")
    return game


def _smoke(game: Game, dice: Dice, floor: int | None, wp: bool, xy=TOP):
    cmd = {"type": "smoke", "unit": "g-pak", "x": xy[0], "y": xy[1], "wp": wp}
    if floor is not None:
        cmd["floor"] = floor
    return game.rules.resolve(game.state, "germany", cmd, dice)


def _rolled(drafts) -> set[str]:
    hits = [d for d in drafts if d.type == "area_hits"]
    return {r["target"] for h in hits for r in h.data["results"]}


def test_wp_at_floor_1_rolls_only_for_the_team_on_floor_1_in_the_mill_p33():
    """The smoke roll 1+1+1 lays the WP (p33 step 5); in the mill only s-first (floor 1) is
    diced for (p33 step 8 with p32's one floor), outside it s-lee and s-east as HE (P339)."""
    drafts = _smoke(_game(), Dice(1, 1, 1, *[6] * 9), 1, True)
    assert _rolled(drafts) == {"s-first", "s-lee", "s-east"}
    fired = drafts[0]
    assert fired.type == "smoke_fired" and fired.data["placed"] and fired.data["floor"] == 1
    assert any("floor 1 of the building mill" in x for x in fired.explanation)


def test_wp_without_a_floor_rolls_every_floor():
    drafts = _smoke(_game(), Dice(1, 1, 1, *[6] * 15), None, True)
    assert _rolled(drafts) == {"s-ground", "s-first", "s-top", "s-lee", "s-east"}
    assert "floor" not in drafts[0].data


def test_option_every_rolls_every_floor_though_a_floor_is_named_p369():
    drafts = _smoke(_game(wp_floor="every"), Dice(1, 1, 1, *[6] * 15), 1, True)
    assert _rolled(drafts) == {"s-ground", "s-first", "s-top", "s-lee", "s-east"}


def test_smoke_at_a_floor_is_accepted_and_its_cloud_covers_the_zone_p368():
    """Plain smoke names floor 2: accepted, nothing is rolled, and the cloud is the one laid
    without a floor (the 75 mm gun's 6 cm radius round the point, p32-33), forming next turn."""
    game = _game()
    drafts = _smoke(game, Dice(1, 1, 1), 2, False)
    assert not _rolled(drafts)
    fired = drafts[0]
    assert fired.data["floor"] == 2 and fired.data["placed"]
    assert fired.data["marker"]["radius"] == 6 and fired.data["marker"]["from_turn"] == 2
    assert any("every floor" in x for x in fired.explanation)


def test_smoke_floor_refusals_name_the_floor_field():
    game = _game()
    for cmd, reason in [
        ({"x": 61.0, "y": 46.0, "floor": 3}, "the building mill has floors 0 to 2"),
        ({"x": 58.5, "y": 44.0, "floor": 0}, r"\(58.5, 44\) is not in a building"),
    ]:
        n = len(game.events)
        with pytest.raises(IllegalCommand, match=reason) as err:
            game.submit("germany", {"type": "smoke", "unit": "g-pak", "wp": True} | cmd)
        assert err.value.field == "floor" and len(game.events) == n
