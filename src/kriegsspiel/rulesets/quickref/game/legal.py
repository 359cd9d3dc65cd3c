"""The commands a side may give now, as templates a player, a web page or a bot can fill in."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..models import Infantry, Vehicle
from . import orders_arty, orders_fire
from .geometry_helpers import distance
from .orders_assault import CONTACT
from .sequence import actors, phase
from .state import State, Unit
from .units import allowance, is_armoured, record, unit_sa


def _max_range(game, u: Unit, target: Unit) -> float:
    """How far the unit can fire at the target: it depends on the target only through whether
    it is armoured."""
    rec = record(game.rules, u)
    armoured = is_armoured(game.rules, target)
    far = u.moved == "over_half" and game.rules.opts.firer_moved_over_half == "no_fire"
    if isinstance(rec, Vehicle):
        if armoured:
            return rec.gun.range[-1] if rec.gun and rec.gun.to_hit and not far else 0
        if far:
            return 36 if rec.mg else 0
        if rec.flame:
            return rec.gun.range[-1]
        best = 36 if rec.mg else 0
        if rec.gun and rec.gun.he:
            best = max(best, rec.gun.range[-1])
        return best
    if armoured:
        if rec.kind == "at_team" and (u.at_weapon or rec.at_weapon) and not u.suppressed:
            w = game.rules.cat.get("vehicle", u.at_weapon or rec.at_weapon)
            return w.gun.range[-1]
        return rec.hmg_at.range[-1] if rec.hmg_at else 0
    return rec.range[-1] if not u.attached_mg else max(rec.range[-1], 36)


def copy_templates(templates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fresh copies of templates (their values are scalars or flat dicts of scalars)."""
    return [{k: dict(v) if type(v) is dict else v for k, v in t.items()} for t in templates]


def _fire_ok(game, board, state: State, side: str, cmd, u: Unit, t: Unit) -> bool:
    """`orders_fire.dry_run` of a one-unit order, by a unit on the table that has not fired
    this turn, at a target the side sees, memoised on the board (shared by the games of its
    scenario) by everything it depends on then: the step, the order and both units'
    `fire_facts` (the same from turn to turn and game to game)."""
    key = (state.phase, side, cmd.get("suppressive", False), u.fire_facts(), t.fire_facts())
    memo = board.fire_memo
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= 20_000:
            memo.clear()
        hit = memo[key] = orders_fire.dry_run(game.rules, board, state, side, cmd)
    return hit


def legal_commands(game, state: State, side: str) -> list[dict[str, Any]]:
    return list(iter_legal(game, state, side))


_END = object()


class LegalMemo:
    """A side's legal templates for one state, worked out only as far as they are read: the
    engine's automatic steps ask whether the side can act (its first order), then the view a
    bot or a player is sent asks for all of them, which continues the same walk instead of
    starting it again. Held in `State.legal_memo`, which every applied event clears (the state
    does not change in between); read only."""

    __slots__ = ("got", "_rest")

    def __init__(self, rest: Iterator[dict[str, Any]]):
        self.got: list[dict[str, Any]] = []
        self._rest: Iterator[dict[str, Any]] | None = rest

    def __iter__(self) -> Iterator[dict[str, Any]]:
        got = self.got
        i = 0
        while True:
            if i < len(got):
                yield got[i]
                i += 1
                continue
            if self._rest is None:
                return
            nxt = next(self._rest, _END)
            if nxt is _END:
                self._rest = None
                return
            got.append(nxt)

    def all(self) -> list[dict[str, Any]]:
        """Every template, in `legal_commands`' order."""
        if self._rest is not None:
            self.got.extend(self._rest)
            self._rest = None
        return self.got

    def __deepcopy__(self, memo: dict) -> None:
        # derived, not state (a copied or dumped state has no memo: `None` reads as a miss)
        return None


def iter_legal(game, state: State, side: str) -> Iterator[dict[str, Any]]:
    """The legal templates one by one, in `legal_commands`' order: whether a side has anything
    to do besides ending the step is known at its first order (the engine's automatic steps
    ask it of the side that has just acted, whose list the next command will change)."""
    if state.result is not None or side not in actors(state):
        return
    p = phase(state)
    board = game.board(state)
    mine = [u for u in state.alive(side) if not u.transport]
    seen = [state.units[i] for i in state.seen.get(side, [])]
    if p.id == "initiative":
        if side == state.initiative_winner and state.side_a is None:
            yield from [{"type": "initiative", "side_a": s} for s in state.sides]
        vehicles = [
            u
            for u in mine
            if u.kind == "vehicle" and not getattr(record(game.rules, u), "open_topped", True)
        ]
        if vehicles:
            yield {"type": "hatches", "buttoned": {u.id: not u.buttoned for u in vehicles}}
    elif p.id == "arty_fire":
        for m in state.missions.values():
            if m.side == side and m.due_turn == state.turn and not m.done and not m.held:
                art = game.rules.cat.get("artillery", m.battery)
                if art.kind == "gun":
                    yield {"type": "hold", "mission": m.id}
    elif p.id == "arty_adjust":
        for m in state.missions.values():
            obs = state.units.get(m.observer)
            if (
                m.side == side
                and m.held
                and not m.done
                and not m.adjusted
                and obs is not None
                and obs.alive
                and not obs.suppressed
                and board.los(obs.pos, (m.x, m.y))
            ):
                yield {"type": "adjust", "mission": m.id, "x": m.x, "y": m.y}
    elif p.id == "arty_plot":
        batteries = orders_arty.batteries(game.scenario(state), side, state)
        if batteries:
            for u in mine:
                if (
                    orders_arty.observer_ok(game.rules, state, u)
                    and state.calls.get(u.id) != state.turn
                    and not any(m.observer == u.id and not m.done for m in state.missions.values())
                ):
                    for t in seen:
                        if not board.los(u.pos, t.pos):
                            continue
                        yield {
                            "type": "call_fire",
                            "observer": u.id,
                            "battery": batteries[0],
                            "x": t.x,
                            "y": t.y,
                            "target_hint": t.id,
                        }
    elif p.id in ("fire_suppressive", "fire_all"):
        suppressive = p.id == "fire_suppressive"
        armoured = [is_armoured(game.rules, t) for t in seen]  # all a reach depends on
        for u in mine:
            if u.fired_turn == state.turn:
                continue
            if suppressive and (unit_sa(game.rules, u) < 3 or u.kind != "infantry"):
                continue
            reach: dict[bool, float] = {}  # the unit's reach at armoured and other targets
            for t, hard in zip(seen, armoured, strict=True):
                if suppressive and t.kind != "infantry":
                    continue
                far = reach.get(hard)
                if far is None:
                    far = reach[hard] = _max_range(game, u, t)
                if distance(u, t) <= far and board.los(u.pos, t.pos):
                    cmd = {"type": "fire", "unit": u.id, "target": t.id}
                    if suppressive:
                        cmd["suppressive"] = True
                    if _fire_ok(game, board, state, side, cmd, u, t):
                        yield cmd
    elif p.id in ("move_a1", "move_b", "move_a2"):
        for u in mine:
            full = 0.0 if u.tracked else allowance(game.rules, u)
            if full <= 0:
                continue
            rec = record(game.rules, u)
            cap = (full / 2 if p.id == "move_a1" else full) - u.moved_this_turn
            if cap > 0.05:
                yield {
                    "type": "move",
                    "unit": u.id,
                    "max": round(cap, 2),
                    "withdraw_only": u.suppressed,
                    "infantry": isinstance(rec, Infantry),
                }
        for u in state.alive(side):
            if u.transport:
                yield {"type": "dismount", "unit": u.id}
    elif p.id == "close_assault":
        for u in mine:
            if u.kind != "infantry" or (
                u.fired_turn == state.turn and u.fired_phase == "close_assault"
            ):
                continue
            for t in seen:
                if distance(u, t) <= CONTACT:
                    yield {"type": "assault", "unit": u.id, "target": t.id}
    yield {"type": "end_phase"}
