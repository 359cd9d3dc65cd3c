"""Every kind of illegal Panzerfaust command is refused with its reason (and the field at fault),
and changes nothing: the engine's schema checks first, then the rules' own checks by phase."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, IllegalCommand

from .conftest import end_phase_d


def refused(game: Game, side: str, cmd: dict, reason: str, field: str | None = None) -> None:
    before, n = game.state_hash(), len(game.events)
    with pytest.raises(IllegalCommand, match=reason) as err:
        game.submit(side, cmd)
    if field is not None:
        assert err.value.field == field
    assert game.state_hash() == before and len(game.events) == n


def test_refusals_in_phase_d(game: Game):
    refused(game, "germany", {"type": "warp"}, "unknown command")
    refused(game, "germany", {"type": "move", "unit": "g-pz-1", "path": [[60, 100]]},
            "not a command of phase D", "type")  # fmt: skip
    refused(game, "germany", {"type": "cover", "unit": "b-inf-1", "x": 1, "y": 1},
            "not an element of yours", "unit")  # fmt: skip
    refused(game, "germany", {"type": "cover", "unit": "g-pak", "x": 95, "y": 24},
            "no weapon that gives covering fire", "unit")  # fmt: skip
    refused(
        game,
        "germany",
        {"type": "cover", "unit": "g-inf-2", "x": 95, "y": 24},
        "no weapon that gives covering fire",
    )  # a rifle team (p17)
    refused(game, "germany", {"type": "cover", "unit": "g-inf-1", "x": 500, "y": 24},
            "off the table", "x")  # fmt: skip
    refused(game, "germany", {"type": "cover", "unit": "g-pz-1", "x": 170, "y": 5},
            "beyond|line of sight")  # fmt: skip
    refused(game, "umpire", {"type": "end_phase"}, "umpire")


def test_refusals_in_phase_f(game: Game):
    end_phase_d(game)
    assert game.rules.active_sides(game.state) == ["britain"]
    refused(game, "germany", {"type": "end_platoon", "platoon": "g-pz"}, "not your turn")
    refused(game, "britain", {"type": "move", "unit": "b-inf-2", "path": [[95, 60]]},
            "moves at most 5 cm", "path")  # fmt: skip
    refused(game, "britain", {"type": "move", "unit": "b-inf-2", "path": [[95, -3]]},
            "off the table", "path")  # fmt: skip
    refused(
        game,
        "britain",
        {"type": "move", "unit": "b-wood-1", "path": [[37, 55]]},
        "1 pip\\(s\\) left; this order costs 2",
    )  # out of command radius: +1 (p7)
    refused(game, "britain", {"type": "group", "platoon": "g-pz", "order": "defend"},
            "not a platoon of yours", "platoon")  # fmt: skip
    refused(game, "britain", {"type": "group", "platoon": "b-inf", "order": "move"},
            "needs dx or dy", "dx")  # fmt: skip
    refused(game, "britain", {"type": "fire", "unit": "b-tk-1", "target": "x-00000000"},
            "not a command of phase F")  # fmt: skip
    game.submit("britain", {"type": "move", "unit": "b-inf-2", "path": [[95, 28]]})
    refused(game, "britain", {"type": "move", "unit": "b-inf-2", "path": [[95, 30]]},
            "already moved this turn")  # fmt: skip
    refused(
        game,
        "britain",
        {"type": "move", "unit": "b-inf-1", "path": [[85, 26]]},
        "finished its movement",
    )  # its only pip is spent (p7)
    refused(game, "britain", {"type": "end_platoon", "platoon": "b-tk"},
            "platoon b-inf is moving now", "platoon")  # fmt: skip


def _to_g(game: Game) -> None:
    end_phase_d(game)
    while game.state.phase == "F":
        side = game.rules.active_sides(game.state)[0]
        end = next(c for c in game.legal_commands(side) if c["type"] == "end_platoon")
        game.submit(side, end)


def test_refusals_in_phase_g(game: Game):
    _to_g(game)
    st = game.state
    side = game.rules.active_sides(st)[0]
    me = st.elements[st.fire_order[st.fire_step]]
    assert me.side == side
    other = next(e for e in st.side_elements(side) if e.id != me.id and e.active)
    refused(game, side, {"type": "hold", "unit": other.id}, "not that element's turn", "unit")
    refused(game, side, {"type": "fire", "unit": me.id, "target": "x-00000000"},
            "not an enemy element you observe", "target")  # fmt: skip
    hidden = st.aliases.alias(
        side,
        next(e.id for e in st.elements.values() if e.side != side and e.id not in st.seen[side]),
    )
    refused(game, side, {"type": "fire", "unit": me.id, "target": hidden},
            "not an enemy element you observe")  # fmt: skip
    refused(game, side, {"type": "fire", "unit": me.id, "target": hidden, "at": 0},
            "not an enemy element you have observed")  # fmt: skip
    seen = st.aliases.alias(side, st.seen[side][0])
    refused(
        game,
        side,
        {"type": "fire", "unit": me.id, "target": seen, "at": 3},
        "beyond the move you saw",
    )  # it did not move this turn
    refused(game, side, {"type": "fire", "unit": me.id, "target": seen, "at": -1},
            "greater than or equal", "at")  # fmt: skip


def test_refusal_for_a_target_out_of_reach(game: Game):
    _to_g(game)
    st = game.state
    for _ in range(40):
        side = game.rules.active_sides(st)
        if not side or st.phase != "G":
            break
        me = st.elements[st.fire_order[st.fire_step]]
        far = [i for i in st.spotted.get(me.id, {}) if st.elements[i].kind == "infantry"
               and me.kind == "infantry"]  # fmt: skip
        for tid in far:
            from kriegsspiel.rulesets.panzerfaust.game.orders_fire import _can_hit

            t = st.elements[tid]
            why = _can_hit(st, me, t, (t.x, t.y))
            if why:
                alias = st.aliases.alias(me.side, tid)
                refused(game, me.side, {"type": "fire", "unit": me.id, "target": alias}, "range")
                return
        game.submit(me.side, {"type": "hold", "unit": me.id})
    pytest.fail("no firer with an observed target out of range in this game")
