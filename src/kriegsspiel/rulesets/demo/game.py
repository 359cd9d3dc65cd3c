"""`DemoGame`: the demo ruleset's face to the engine (kriegsspiel.engine.GameRules).

A turn: both sides activate their pieces alternately (the side with more pieces takes several
in a row: `ActivationQueue`), odd turns led by the first side, even turns by the second. An
activated piece moves, fires, leaves the table by an edge it can reach, or holds. Every move
opens a reaction prompt to the other side, whether or not it has a piece able to react, so the
mover learns nothing from the pause; the asked side answers `react` (one piece fires at the
mover, once a turn) or `decline` (the default). Enemy pieces are named by per-side aliases.
All numbers are the demo's own (placeholder values, not any rulebook's).
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from ...engine import victory
from ...engine.aliases import Aliases
from ...engine.commands import IllegalCommand
from ...engine.envelope import scenario_keys
from ...engine.events import SPECTATOR, UMPIRE, Draft, Event
from ...engine.flow import ActivationQueue, Phase, PhaseCycle, ReactionPrompt
from ...engine.scenario import Scenario

MOVE = {"rifles": 10.0, "scouts": 15.0}  # cm per activation
RANGE = {"rifles": 30.0, "scouts": 20.0}  # cm
SIGHT = 40.0  # cm: a piece in the open is seen this far
SPOT_CLOSE = 10.0  # cm: a hidden piece, or one in woods, is seen only this close
HIT = 4  # d6 at least this: an activated piece's fire hits
REACT_HIT = 5  # d6 at least this: a reaction hits
DIRECTIONS = 8  # move templates per piece: full moves towards each compass point

PHASES = PhaseCycle(
    [
        Phase("setup", "Set-up", actors="none", automatic=True),
        Phase("activation", "Alternate activations", actors="active"),
    ]
)
EDGES = ("north", "south", "east", "west")


# --------------------------------------------------------------------------- command models
class _Cmd(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MoveCmd(_Cmd):
    type: Literal["move"]
    unit: str
    x: float
    y: float


class FireCmd(_Cmd):
    type: Literal["fire"]
    unit: str
    target: str


class ExitCmd(_Cmd):
    type: Literal["exit"]
    unit: str
    edge: Literal["north", "south", "east", "west"]


class HoldCmd(_Cmd):
    type: Literal["hold"]
    unit: str


class ReactCmd(_Cmd):
    type: Literal["react"]
    unit: str


class DeclineCmd(_Cmd):
    type: Literal["decline"]


COMMAND_MODELS: dict[str, type[BaseModel]] = {
    "move": MoveCmd,
    "fire": FireCmd,
    "exit": ExitCmd,
    "hold": HoldCmd,
    "react": ReactCmd,
    "decline": DeclineCmd,
}


# ----------------------------------------------------------------------------------- state
@dataclass
class Piece:
    id: str
    side: str
    type: str
    name: str
    x: float
    y: float
    facing: float
    hidden: bool
    lost: bool = False
    exited: str | None = None
    reacted_turn: int = 0

    @property
    def on_table(self) -> bool:
        return not self.lost and self.exited is None


@dataclass
class State:
    scenario: Scenario
    aliases: Aliases
    sides: list[str]
    pieces: dict[str, Piece]
    turn: int = 0
    phase: str = "setup"
    queue: ActivationQueue | None = None
    activated: list[str] = field(default_factory=list)
    prompt: ReactionPrompt | None = None
    mover: str | None = None  # the piece whose move is awaiting the prompt's answer
    seen: dict[str, list[str]] = field(default_factory=dict)  # side -> enemy ids observed
    last_seen: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    result: dict[str, Any] | None = None

    def enemy(self, side: str) -> str:
        return next(s for s in self.sides if s != side)

    def to_json(self) -> dict[str, Any]:
        return {
            "pieces": {k: asdict(p) for k, p in self.pieces.items()},
            "turn": self.turn,
            "phase": self.phase,
            "queue": self.queue.to_json() if self.queue else None,
            "activated": list(self.activated),
            "prompt": self.prompt.to_json() if self.prompt else None,
            "mover": self.mover,
            "seen": self.seen,
            "last_seen": self.last_seen,
            "result": self.result,
        }


def _dist(a: Piece, x: float, y: float) -> float:
    return math.hypot(a.x - x, a.y - y)


def _inside(x: float, y: float, poly: list[tuple[float, float]]) -> bool:
    """Point in polygon (even-odd rule)."""
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


class DemoGame:
    ruleset = "demo"

    # ------------------------------------------------------------------ set-up
    def command_models(self) -> dict[str, type[BaseModel]]:
        """One pydantic model per command type (checked before the rules see a command)."""
        return dict(COMMAND_MODELS)

    def initial_state(self, scenario: Scenario, seed: int, options: dict[str, Any]) -> State:
        pieces = {}
        for side in scenario.side_ids:
            for u in scenario.pieces(side):
                pieces[u.id] = Piece(
                    u.id, side, u.type, u.name or u.id, u.x, u.y, u.facing, u.hidden
                )
        if scenario.reinforcements:
            raise NotImplementedError("not implemented: reinforcements in the demo ruleset")
        aliases = Aliases(seed)
        for side in scenario.side_ids:
            aliases.learn(side, [p.id for p in pieces.values() if p.side != side])
        state = State(scenario, aliases, scenario.side_ids, pieces)
        self._look(state)
        return state

    # ------------------------------------------------------------------ sight
    def _concealed(self, state: State, p: Piece) -> bool:
        if p.hidden:
            return True
        return any(
            f.kind == "woods" and f.polygon and _inside(p.x, p.y, f.polygon)
            for f in state.scenario.terrain
        )

    def _observes(self, state: State, side: str, e: Piece) -> bool:
        reach = SPOT_CLOSE if self._concealed(state, e) else SIGHT
        return any(
            p.side == side and p.on_table and _dist(p, e.x, e.y) <= reach
            for p in state.pieces.values()
        )

    def _look(self, state: State) -> None:
        """Refresh what each side observes and where it last saw each enemy piece."""
        for side in state.sides:
            now = [
                e.id
                for e in state.pieces.values()
                if e.side != side and e.on_table and self._observes(state, side, e)
            ]
            marks = state.last_seen.setdefault(side, {})
            for i in now:
                marks[i] = [state.pieces[i].x, state.pieces[i].y]
            for i in list(marks):
                if not state.pieces[i].on_table:
                    del marks[i]
            state.seen[side] = now

    # ------------------------------------------------------------------ fold
    def apply(self, state: State, e: Event) -> None:
        handler = getattr(self, f"_on_{e.type}", None)
        if handler is None:
            raise ValueError(f"unknown event type {e.type!r}")
        handler(state, e.data, e)
        self._look(state)

    def _on_start(self, state: State, d: dict, e: Event) -> None:
        pass

    def _on_turn(self, state: State, d: dict, e: Event) -> None:
        state.turn, state.phase, state.activated = d["turn"], "activation", []
        state.queue = ActivationQueue.start(d["first"], d["counts"])

    def _activate(self, state: State, uid: str) -> None:
        if uid not in state.activated:
            state.activated.append(uid)

    def _done(self, state: State, side: str) -> None:
        assert state.queue is not None
        state.queue.activated(side)

    def _lose(self, state: State, uid: str) -> None:
        p = state.pieces[uid]
        p.lost = True
        if state.queue is not None and uid not in state.activated:
            state.queue.withdraw(p.side)

    def _on_move(self, state: State, d: dict, e: Event) -> None:
        p = state.pieces[d["unit"]]
        p.x, p.y, p.facing = d["x"], d["y"], d["facing"]
        self._activate(state, p.id)
        self._look(state)
        asked = state.enemy(p.side)
        action: dict[str, Any] = {}
        if p.id in state.seen.get(asked, []):
            action = {"type": "move", "unit": state.aliases.alias(asked, p.id), "x": p.x, "y": p.y}
        state.prompt = ReactionPrompt(p.side, asked, action, kind="opportunity_fire")
        state.mover = p.id

    def _close_prompt(self, state: State) -> None:
        assert state.prompt is not None
        actor = state.prompt.actor
        state.prompt, state.mover = None, None
        self._done(state, actor)

    def _target_of(self, state: State, p: Piece, d: dict) -> str:
        """The true id behind the alias a firer's event names its target by."""
        uid = state.aliases.resolve(p.side, d["target"])
        assert uid is not None, d
        return uid

    def _on_reaction(self, state: State, d: dict, e: Event) -> None:
        p = state.pieces[d["unit"]]
        p.reacted_turn, p.hidden = state.turn, False
        if d["hit"]:
            self._lose(state, self._target_of(state, p, d))
        self._close_prompt(state)

    def _on_declined(self, state: State, d: dict, e: Event) -> None:
        self._close_prompt(state)

    def _on_fire(self, state: State, d: dict, e: Event) -> None:
        p = state.pieces[d["unit"]]
        p.hidden = False
        self._activate(state, p.id)
        if d["hit"]:
            self._lose(state, self._target_of(state, p, d))
        self._done(state, p.side)

    def _on_shot_at(self, state: State, d: dict, e: Event) -> None:
        pass  # the target side's notice of a fire or reaction event folded above

    def _on_exit(self, state: State, d: dict, e: Event) -> None:
        p = state.pieces[d["unit"]]
        p.exited = d["edge"]
        self._activate(state, p.id)
        self._done(state, p.side)

    def _on_hold(self, state: State, d: dict, e: Event) -> None:
        self._activate(state, d["unit"])
        self._done(state, state.pieces[d["unit"]].side)

    def _on_game_over(self, state: State, d: dict, e: Event) -> None:
        state.result = dict(d)

    # ------------------------------------------------------------------ commands
    def _own(self, state: State, side: str, uid: Any) -> Piece:
        p = state.pieces.get(uid) if isinstance(uid, str) else None
        if p is None or p.side != side or not p.on_table:
            raise IllegalCommand(f"{uid!r} is not a piece of yours on the table", "unit")
        return p

    def _to_act(self, state: State, side: str, uid: Any) -> Piece:
        p = self._own(state, side, uid)
        if p.id in state.activated:
            raise IllegalCommand(f"{p.name} has already been activated this turn", "unit")
        return p

    def _target(self, state: State, side: str, name: Any) -> Piece:
        uid = state.aliases.resolve(side, name) if isinstance(name, str) else None
        if uid is None or uid not in state.seen.get(side, []):
            raise IllegalCommand(f"{name!r} is not an enemy piece you observe", "target")
        return state.pieces[uid]

    def resolve(
        self, state: State, side: str, cmd: dict[str, Any], rng: random.Random
    ) -> list[Draft]:
        if side in (UMPIRE, SPECTATOR):
            raise IllegalCommand("the umpire and spectators do not command pieces", "side")
        if side not in self.active_sides(state):
            raise IllegalCommand("it is not your turn to act", "type")
        kind = cmd["type"]
        if state.prompt is not None:
            if kind == "decline":
                return [Draft("declined", {}, (side,))]
            if kind == "react":
                return self._react(state, side, cmd, rng)
            raise IllegalCommand("answer the prompt first: react or decline", "type")
        if kind == "move":
            return self._move(state, side, cmd)
        if kind == "fire":
            return self._fire(state, side, cmd, rng)
        if kind == "exit":
            return self._exit(state, side, cmd)
        if kind == "hold":
            p = self._to_act(state, side, cmd.get("unit"))
            return [Draft("hold", {"unit": p.id}, (side,))]
        allowed = "move, fire, exit, hold"
        raise IllegalCommand(f"unknown command {kind!r}; allowed now: {allowed}", "type")

    def _move(self, state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
        p = self._to_act(state, side, cmd.get("unit"))
        try:
            x, y = float(cmd["x"]), float(cmd["y"])
        except (KeyError, TypeError, ValueError):
            raise IllegalCommand("a move needs numbers x and y", "x") from None
        t = state.scenario.table
        if not (0 <= x <= t.width and 0 <= y <= t.depth):
            raise IllegalCommand(f"({x:g}, {y:g}) is off the table", "x")
        if _dist(p, x, y) > MOVE[p.type] + 1e-9:
            raise IllegalCommand(f"{p.name} moves at most {MOVE[p.type]:g} cm", "x")
        facing = (
            math.degrees(math.atan2(x - p.x, y - p.y)) % 360 if (x, y) != (p.x, p.y) else p.facing
        )
        return [Draft("move", {"unit": p.id, "x": x, "y": y, "facing": facing}, (side,))]

    def _exit_distance(self, state: State, p: Piece, edge: str) -> float:
        t = state.scenario.table
        return {"north": t.depth - p.y, "south": p.y, "east": t.width - p.x, "west": p.x}[edge]

    def _exit(self, state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
        p = self._to_act(state, side, cmd.get("unit"))
        edge = cmd.get("edge")
        if edge not in EDGES:
            raise IllegalCommand(f"edge must be one of {', '.join(EDGES)}", "edge")
        if self._exit_distance(state, p, edge) > MOVE[p.type]:
            raise IllegalCommand(f"{p.name} cannot reach the {edge} edge this activation", "edge")
        return [Draft("exit", {"unit": p.id, "edge": edge}, (side,))]

    def _shot(
        self, state: State, side: str, p: Piece, target: Piece, need: int, what: str, rng
    ) -> list[Draft]:
        roll = rng.randint(1, 6)
        hit = roll >= need
        lines = (
            f"d6 = {roll}, needs {need}+ ({what}): {'hit' if hit else 'miss'}",
            "placeholder: the demo ruleset's own number, no rulebook's",
        )
        enemy = target.side
        alias = state.aliases.alias(side, target.id)
        mine = {"unit": p.id, "target": alias, "roll": roll, "hit": hit}
        notice = {
            "by": state.aliases.alias(enemy, p.id),
            "x": p.x,
            "y": p.y,
            "unit": target.id,
            "roll": roll,
            "hit": hit,
        }
        return [
            Draft("reaction" if what == "reaction" else "fire", mine, (side,), lines),
            Draft("shot_at", notice, (enemy,), lines),
        ]

    def _fire(self, state: State, side: str, cmd: dict[str, Any], rng) -> list[Draft]:
        p = self._to_act(state, side, cmd.get("unit"))
        target = self._target(state, side, cmd.get("target"))
        if _dist(p, target.x, target.y) > RANGE[p.type]:
            raise IllegalCommand(f"out of range: {p.name} reaches {RANGE[p.type]:g} cm", "target")
        return self._shot(state, side, p, target, HIT, "fire", rng)

    def _can_react(self, state: State, side: str, p: Piece) -> bool:
        mover = state.pieces[state.mover] if state.mover else None
        return (
            mover is not None
            and mover.on_table
            and p.reacted_turn != state.turn
            and mover.id in state.seen.get(side, [])
            and _dist(p, mover.x, mover.y) <= RANGE[p.type]
        )

    def _react(self, state: State, side: str, cmd: dict[str, Any], rng) -> list[Draft]:
        p = self._own(state, side, cmd.get("unit"))
        if not self._can_react(state, side, p):
            raise IllegalCommand(f"{p.name} cannot react to this move", "unit")
        assert state.mover is not None
        return self._shot(state, side, p, state.pieces[state.mover], REACT_HIT, "reaction", rng)

    # ------------------------------------------------------------------ automatic steps
    def automatic(self, state: State, rng: random.Random) -> list[Draft]:
        if state.result is not None or state.prompt is not None:
            return []
        statuses = self.statuses(state)
        at_end = state.phase == "activation" and state.queue is not None and state.queue.done
        if state.phase != "setup":
            verdict = victory.decide(state.scenario, statuses, state.turn, at_end)
            if verdict is not None:
                return [Draft("game_over", verdict)]
        if state.phase == "setup" or at_end:
            return [self._new_turn(state)]
        return []

    def _new_turn(self, state: State) -> Draft:
        turn = state.turn + 1
        first = state.sides[(turn - 1) % 2]
        counts = {
            s: sum(1 for p in state.pieces.values() if p.side == s and p.on_table)
            for s in state.sides
        }
        return Draft("turn", {"turn": turn, "first": first, "counts": counts})

    def statuses(self, state: State) -> list[victory.PieceStatus]:
        return [
            victory.PieceStatus(
                p.id, p.side, p.x, p.y, present=p.on_table, lost=p.lost, exited=p.exited
            )
            for p in state.pieces.values()
        ]

    # ------------------------------------------------------------------ queries
    def active_sides(self, state: State) -> list[str]:
        if state.result is not None:
            return []
        if state.prompt is not None:
            return [state.prompt.side]
        if state.phase == "activation" and state.queue is not None and not state.queue.done:
            side = state.queue.to_act()
            return [side] if side else []
        return []

    def outcome(self, state: State) -> dict[str, Any] | None:
        return state.result

    def state_json(self, state: State) -> Any:
        return state.to_json()

    def legal_commands(self, state: State, side: str) -> list[dict[str, Any]]:
        if side not in self.active_sides(state):
            return []
        if state.prompt is not None:
            out: list[dict[str, Any]] = [{"type": "decline"}]
            for p in state.pieces.values():
                if p.side == side and p.on_table and self._can_react(state, side, p):
                    out.append({"type": "react", "unit": p.id})
            return out
        out = []
        t = state.scenario.table
        for p in state.pieces.values():
            if p.side != side or not p.on_table or p.id in state.activated:
                continue
            out.append({"type": "hold", "unit": p.id})
            for i in range(DIRECTIONS):
                a = 2 * math.pi * i / DIRECTIONS
                x = round(min(max(p.x + MOVE[p.type] * math.sin(a), 0.0), t.width), 2)
                y = round(min(max(p.y + MOVE[p.type] * math.cos(a), 0.0), t.depth), 2)
                if _dist(p, x, y) <= MOVE[p.type] and (x, y) != (p.x, p.y):
                    out.append({"type": "move", "unit": p.id, "x": x, "y": y})
            for edge in EDGES:
                if self._exit_distance(state, p, edge) <= MOVE[p.type]:
                    out.append({"type": "exit", "unit": p.id, "edge": edge})
            for eid in state.seen.get(side, []):
                e = state.pieces[eid]
                if _dist(p, e.x, e.y) <= RANGE[p.type]:
                    alias = state.aliases.alias(side, eid)
                    out.append({"type": "fire", "unit": p.id, "target": alias})
        return out

    def battle_summary(self, state: State) -> dict[str, Any]:
        """For the battle simulator: the turn, losses by type, objective holders."""
        losses: dict[str, dict[str, int]] = {s: {} for s in state.sides}
        for p in state.pieces.values():
            if p.lost:
                losses[p.side][p.type] = losses[p.side].get(p.type, 0) + 1
        pieces = self.statuses(state)
        holders = {o.id: victory.holder(o, pieces) for o in state.scenario.objectives}
        return {"turn": state.turn, "losses": losses, "objectives": holders}

    # ------------------------------------------------------------------ views
    def _piece(self, p: Piece, name: str | None = None, alias: str | None = None) -> dict:
        return {
            "id": alias or p.id,
            "side": p.side,
            "x": p.x,
            "y": p.y,
            "facing": p.facing,
            "kind": p.type,
            "name": name or p.name,
            "type": p.type,
        }

    def view(self, state: State, side: str) -> dict[str, Any]:
        sc = state.scenario
        if side == UMPIRE:
            own = [
                self._piece(p) | {"hidden": p.hidden} for p in state.pieces.values() if p.on_table
            ]
            enemies: list[dict[str, Any]] = []
            last: list[dict[str, Any]] = []
        elif side == SPECTATOR:
            # no live piece, not even an observed one: a watcher could tell its owner that
            # it is observed (engine/spectate.py shows everything after the game or delayed)
            own, enemies, last = [], [], []
        else:
            own = [
                self._piece(p) | {"hidden": p.hidden, "activated": p.id in state.activated}
                for p in state.pieces.values()
                if p.side == side and p.on_table
            ]
            seen = state.seen.get(side, [])
            enemies = [
                self._piece(state.pieces[i], p_name(state.pieces[i]), state.aliases.alias(side, i))
                for i in seen
            ]
            last = [
                {"id": state.aliases.alias(side, i), "x": xy[0], "y": xy[1]}
                for i, xy in state.last_seen.get(side, {}).items()
                if i not in seen
            ]
        phase = PHASES[state.phase]
        queue = state.queue
        return {
            "ruleset": self.ruleset,
            "you": side,
            "turn": state.turn,
            "phase": state.phase,
            "phase_title": phase.title,
            "active": self.active_sides(state),
            **scenario_keys(sc),
            "options": {},
            "legal": self.legal_commands(state, side),
            "result": state.result,
            "prompt": state.prompt.for_side(side) if state.prompt else None,
            "units": own,
            "enemies": enemies,
            "last_known": last,
            "demo": {
                "to_activate": dict(queue.remaining) if queue else {},
                "acting": queue.to_act() if queue else None,
            },
        }


def p_name(p: Piece) -> str:
    """What the enemy calls an observed piece: its kind, never its scenario name."""
    return f"enemy {p.type}"
