"""A scripted Panzerfaust game of the test scenario from set-up to victory (issue 19 item 7):
Germany drives its platoons on the farm by full-speed group moves and fires at the first target
offered; Britain holds and fires. The log replays to the same state, every roll explained."""

from __future__ import annotations

import math

from kriegsspiel.engine import Game

from .conftest import skirmish

FARM = (90.0, 60.0)
GOAL = (90.0, 69.0)  # just north of the farm building, inside the objective


def _advance(game: Game, side: str, legal: list[dict]) -> dict | None:
    """A full-speed group move of the platoon moving now towards the farm's north side."""
    st = game.state
    platoons = {c["platoon"] for c in legal if c["type"] == "group"}
    for pid in sorted(platoons):
        members = [st.elements[m] for m in st.platoons[pid].members if st.elements[m].active]
        if any(m.moved for m in members) or any(m.kind == "gun" for m in members):
            continue
        lead = min(members, key=lambda m: math.dist((m.x, m.y), GOAL))
        d = math.dist((lead.x, lead.y), GOAL)
        if d < 1:
            continue
        step = min(d, 10.0 if lead.kind == "afv" else 5.0) - 0.01
        dx, dy = (GOAL[0] - lead.x) / d * step, (GOAL[1] - lead.y) / d * step
        return {"type": "group", "platoon": pid, "order": "move", "dx": dx, "dy": dy}
    return None


def scripted(game: Game, max_commands: int = 3000) -> int:
    n = 0
    while game.outcome is None and n < max_commands:
        side = game.rules.active_sides(game.state)[0]
        legal = game.legal_commands(side)
        cmd = None
        if game.state.phase == "F" and side == "germany":
            cmd = _advance(game, side, legal)
        elif game.state.phase == "G":
            cmd = next((c for c in legal if c["type"] == "fire" and "at" not in c), None)
        if cmd is None:
            cmd = next(c for c in legal if c["type"] in ("end_phase", "end_platoon", "hold"))
        try:
            game.submit(side, cmd)
        except Exception:
            if cmd["type"] != "group":
                raise
            game.submit(side, next(c for c in legal if c["type"] == "end_platoon"))
        n += 1
    return n


def test_scripted_game_reaches_a_verdict_and_replays():
    game = Game(skirmish(), seed=19)
    scripted(game)
    out = game.outcome
    # seed 19: the Panzers reach the farm and hold it at the end of turn 6 (other seeds end
    # in a retreat or a draw: the dice decide, the script does not). Seed 21 held it until
    # small arms could fire at AFV crews (p17): the British teams that had no target now fire
    # at the Panzer commanders, so the dice fall elsewhere and seed 21 ends in a draw.
    assert out == {"winner": "germany", "reason": "holds farm", "turn": 6}
    kinds = {e.type for e in game.events}
    # every phase of p6 ran, pips rolled, platoons moved, shots fired, morale tested
    assert {"pips", "move", "platoon_moved", "shot", "shot_at", "volley"} <= kinds
    assert {e.data["phase"] for e in game.events if e.type == "phase"} == set("ABCDEFGHI")
    shots = [e for e in game.events if e.type == "shot"]
    assert all(any("3d6" in line or "1d6" in line for line in e.explanation) for e in shots)
    germans = [e for e in game.state.side_elements("germany") if e.active and e.kind == "afv"]
    assert any(math.dist((t.x, t.y), FARM) <= 10 for t in germans)
    again = game.replay()
    assert again.state_hash() == game.state_hash()
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]
