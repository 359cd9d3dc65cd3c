"""Overruns (p111 Q&A 1; decisions P288-P289) played through the game: T-34s drive into a
German rifle platoon (scenario overrun.yaml)."""

from __future__ import annotations

import json

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import overrun

from .conftest import HERE, Dice, fold, settle


def _to_move(options: dict | None = None) -> Game:
    """Phase F of turn 1, the Soviet tank platoon's turn (the Germans, regulars, move first
    and stay put)."""
    game = Game(load_scenario(HERE / "overrun.yaml"), seed=1, options=options or {})
    for side in game.sides:
        game.submit(side, {"type": "end_phase"})
    st = game.state
    while st.phase == "F":
        side = game.rules.active_sides(st)[0]
        if side == "ussr":
            return game
        game.submit(side, next(c for c in game.legal_commands(side) if c["type"] == "end_platoon"))
    raise AssertionError("the Soviet platoons never got their move")


def _alias(game: Game, uid: str) -> str:
    return game.state.aliases.alias("ussr", uid)


def test_q1_overrun_in_the_open_removes_the_teams_the_path_drives_over():
    game = _to_move()
    st = game.state
    start = len(game.events)
    offered = [c for c in game.legal_commands("ussr") if c["type"] == "overrun"]
    assert {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-r1")} in offered
    # straight north through g-r1 (on the path) and past g-r2 (2 cm off it): both are caught
    game.submit("ussr", {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-r1"),
                         "path": [[40, 66]]})  # fmt: skip
    tank = st.elements["r-t34-1"]
    assert (tank.x, tank.y, tank.moved) == (40.0, 66.0, 16.0)
    assert st.elements["g-r1"].lost and st.elements["g-r2"].lost
    assert [p[2] for p in tank.path] == sorted(p[2] for p in tank.path)  # backtracking needs it
    told = [e for e in game.events[start:] if e.type == "overrun"][0]
    assert told.visible_to == ("ussr",)
    assert [c["result"] for c in told.data["caught"]] == ["destroyed", "destroyed"]
    assert all("p111 Q&A 1" in line for line in told.explanation)
    # the Germans are told their own losses and who did it; the platoon tests morale (p23)
    notices = [e for e in game.events[start:] if e.type == "overrun_suffered"]
    assert {e.data["unit"] for e in notices} == {"g-r1", "g-r2"}
    assert all(e.visible_to == ("germany",) for e in notices)
    assert any(e.type == "morale" and e.data["platoon"] == "g-inf" for e in game.events[start:])


def test_q1_the_path_catches_two_teams_at_most():
    game = _to_move()
    st = game.state
    traced = [[40.0, 50.0, 0.0], [40.0, 66.0, 16.0]]
    got = overrun.caught(st, st.elements["r-t34-1"], traced, st.elements["g-r2"])
    assert [e.id for e, _ in got] == ["g-r1", "g-r2"]
    overrun.MOST, saved = 1, overrun.MOST
    try:
        got = overrun.caught(st, st.elements["r-t34-1"], traced, st.elements["g-r2"])
        assert [e.id for e, _ in got] == ["g-r2"]  # the named target always, others up to MOST
    finally:
        overrun.MOST = saved


def test_q1_dug_in_infantry_let_the_afv_pass_over():
    game = _to_move()
    st = game.state
    game.submit("ussr", {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-dug")})
    assert not st.elements["g-dug"].lost
    told = [e for e in game.events if e.type == "overrun"][-1]
    assert told.data["caught"] == [{"target": _alias(game, "g-dug"), "result": "unharmed"}]
    assert "dug in" in told.explanation[0]
    assert (st.elements["r-t34-1"].x, st.elements["r-t34-1"].y) == (50.0, 60.0)


def test_q1_infantry_faster_than_the_afv_in_their_ground_step_aside():
    """Q&A 1's example: infantry walking 5 cm where the AFV keeps less (a marsh keeps 1/4 of
    the T-34's 17 cm C/C, 4.25 cm, P143) step aside unharmed."""
    game = _to_move()
    st = game.state
    game.submit("ussr", {"type": "overrun", "unit": "r-t34-2", "target": _alias(game, "g-boc")})
    assert not st.elements["g-boc"].lost
    told = [e for e in game.events if e.type == "overrun"][-1]
    assert told.data["caught"][0]["result"] == "stepped_aside"
    assert "steps aside" in told.explanation[0] and "4.25" in told.explanation[0]


def test_q1_at_weapons_fire_first_and_a_miss_lets_the_afv_through():
    game = _to_move()
    st = game.state
    cmd = {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-r3")}
    drafts = game.rules.resolve(st, "ussr", cmd, Dice(6, 6, 6))  # 3D6 18: the Panzerschreck misses
    kinds = [d.type for d in drafts]
    assert kinds[:3] == ["move", "overrun_fire", "overrun_fired_on"]
    shot = drafts[1]
    assert shot.data["unit"] == "g-schreck" and shot.data["result"] == "miss"
    assert shot.visible_to == ("germany",) and "fires first" in shot.explanation[0]
    assert drafts[2].visible_to == ("ussr",) and drafts[2].data["by"] == _alias(game, "g-schreck")
    # the AFV stops half a base short of the team while the Panzerschreck fires
    assert drafts[0].data["moves"][0]["path"][-1][2] == pytest.approx(
        ((40 - 30) ** 2 + (50 - 58) ** 2) ** 0.5 - overrun.HALF_BASE, abs=1e-3
    )
    fold(game, "ussr", drafts)
    assert st.elements["g-schreck"].fired  # that is its fire this turn
    settle(game, Dice(*[4] * 30))
    assert st.elements["g-r3"].lost and (st.elements["r-t34-1"].x, st.elements["r-t34-1"].y) == (
        30.0,
        58.0,
    )


def test_q1_an_afv_knocked_out_by_the_fire_first_does_not_drive_over():
    game = _to_move()
    st = game.state
    cmd = {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-r3")}
    # to-hit 3, turret, penetration effects 18: destroyed (pp. 29-31)
    drafts = game.rules.resolve(st, "ussr", cmd, Dice(1, 1, 1, 6, 6, 6, 6))
    assert drafts[1].data["result"] == "destroyed"
    fold(game, "ussr", drafts)
    settle(game, Dice(*[4] * 30))
    tank = st.elements["r-t34-1"]
    assert tank.lost and tank.path[-1][2] < 12  # stopped where it was hit
    assert not st.elements["g-r3"].lost
    assert "overrun" not in st.phase_data  # the order is over: the next platoon may move


def test_q1_refusals_with_their_reasons():
    game = _to_move()
    with pytest.raises(IllegalCommand, match="not an AFV"):
        game.submit(
            "ussr", {"type": "overrun", "unit": "r-molotov", "target": _alias(game, "g-r1")}
        )
    with pytest.raises(IllegalCommand, match="only infantry and guns can be overrun"):
        game.submit("ussr", {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-pz4")})
    with pytest.raises(IllegalCommand, match="in a building"):
        game.submit(
            "ussr", {"type": "overrun", "unit": "r-t34-3", "target": _alias(game, "g-barn")}
        )
    with pytest.raises(IllegalCommand, match="does not drive over the target"):
        game.submit("ussr", {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-r1"),
                             "path": [[50, 50]]})  # fmt: skip
    with pytest.raises(IllegalCommand, match="moves at most 17 cm"):
        game.submit("ussr", {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-r2"),
                             "path": [[40, 68]]})  # fmt: skip
    with pytest.raises(IllegalCommand, match="not an enemy element you observe"):
        game.submit("ussr", {"type": "overrun", "unit": "r-t34-1", "target": "x-deadbeef"})
    assert game.state.elements["r-t34-1"].moved == 0


def test_p289_option_no_guns_names_infantry_only():
    game = _to_move({"overrun_guns": False})
    with pytest.raises(IllegalCommand, match=r"only infantry can be overrun .*P289"):
        game.submit("ussr", {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-pz4")})


def test_fog_the_overrunning_side_is_told_aliases_only():
    game = _to_move()
    start = len(game.events)
    game.submit("ussr", {"type": "overrun", "unit": "r-t34-1", "target": _alias(game, "g-r1"),
                         "path": [[40, 66]]})  # fmt: skip
    told = json.dumps([e.data for e in game.events[start:] if e.visible("ussr")])
    for uid in ("g-r1", "g-r2", "g-inf"):
        assert f'"{uid}"' not in told


@pytest.mark.parametrize("seed", [0, 3])
def test_fog_random_battles_with_overruns_and_flame_leak_nothing(seed):
    """Random bots in this scenario (overrun and flame orders among their templates): no side
    is ever given the id or type of an enemy element it does not observe."""
    from kriegsspiel.ai import RandomBot
    from kriegsspiel.ai.harness import act

    from .test_hidden import _leaks

    game = Game(load_scenario(HERE / "overrun.yaml"), seed=seed)
    bots = {s: RandomBot(seed + i) for i, s in enumerate(game.sides)}
    last = 0
    for _ in range(300):
        if game.outcome is not None:
            break
        side = game.rules.active_sides(game.state)[0]
        act(game, side, bots[side])
        for s in game.sides:
            assert _leaks(game, s, last) == [], (s, game.state.phase)
        last = len(game.events)
