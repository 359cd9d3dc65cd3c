"""`PanzerfaustGame`: Panzerfaust's face to the engine (kriegsspiel.engine.GameRules).

The turn is the phase table of phases.py (p6, A-I); each phase's handler validates and
resolves its commands and produces its automatic events. This module only routes: commands
to the current phase's handler, events to their fold, phase changes, turn starts and the
verdict (engine/victory.py).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from ....engine import victory
from ....engine.commands import IllegalCommand
from ....engine.events import SPECTATOR, UMPIRE, Draft, Event
from ....engine.scenario import Scenario
from ..options import Options
from ..rules.tables import Rules, rules
from . import (
    card,
    cqc_morale,
    fieldworks,
    fire_retreat,
    morale_tests,
    mortar_sights,
    orders_fire,
    phases,
    regroup,
    sight,
    smoke,
    turn,
    withdrawal,
)
from .build import initial
from .state import State
from .view import view as side_view
from .worth import notes, worth

CORE_EVENTS = ("start", "phase", "phase_done", "game_over")
MOVES = (
    "move",
    "shot",
    "volley",
    "melee",
    "morale",
    "retreat_move",
    "fire_retreat",
    "regrouped",
    "surrendered",
    "cqc_morale",
    "dummy_placed",
    "arrive",
    "mine_hits",
    "exited",
    "overrun",
    "overrun_hits",
    "mortar_debarked",
    "riders_down",
)
# change what an element observes without moving anything (sight looks again)
LOOKS = ("hatch",)
# may take an element off its position
LEAVES = (*MOVES, "embark", "dismount", "smoke_fired", "climb")
# state.cache entries that any event may make stale: live vehicles (screens.py), the infantry in
# contact (melee_groups.py), the victory statuses, who is within command radius (command.py)
VOLATILE = ("screens", "statuses", "cqc", "radius")


def forget(state: State) -> None:
    """Drop the memos an event may make stale (each is rebuilt when next asked)."""
    for key in VOLATILE:
        state.cache.pop(key, None)


class PanzerfaustGame:
    ruleset = "panzerfaust"
    fresh_views = True
    options_model = Options

    def __init__(self, rules_: Rules | None = None):
        self.rules = rules_ or rules()
        self.folds = {**phases.folds(), **morale_tests.FOLDS, **regroup.FOLDS, **withdrawal.FOLDS,
                      **fire_retreat.FOLDS, **cqc_morale.FOLDS}  # fmt: skip
        clash = set(self.folds) & set(CORE_EVENTS)
        if clash:
            raise ValueError(f"phase handlers may not fold core events {sorted(clash)}")

    # ------------------------------------------------------------------ set-up
    def command_models(self) -> dict[str, type[BaseModel]]:
        return {**turn.END, **phases.command_models()}

    def initial_state(self, scenario: Scenario, seed: int, options: dict[str, Any]) -> State:
        state = initial(scenario, seed, options, self.rules)
        for h in phases.HANDLERS.values():
            if hasattr(h, "check"):
                h.check(state)
        sight.look(state)
        return state

    # ------------------------------------------------------------------ fold
    def apply(self, state: State, e: Event) -> None:
        if e.type == "start":
            return
        forget(state)
        if e.type == "phase":
            self._enter(state, e.data)
        elif e.type == "phase_done":
            turn.fold_done(state, e.data, e)
        elif e.type == "game_over":
            state.result = dict(e.data)
        else:
            fold = self.folds.get(e.type)
            if fold is None:
                raise ValueError(f"unknown event type {e.type!r}")
            fold(state, e.data, e)
        if e.type in LEAVES:
            fieldworks.vacate(state)
        forget(state)  # a fold may have read them while it changed the elements
        if e.type in MOVES or e.type in LOOKS or e.type == "phase":
            sight.look(state)

    def _enter(self, state: State, d: dict) -> None:
        if d["turn"] != state.turn:
            self._new_turn(state, d["turn"])
        state.phase, state.phase_data = d["phase"], {}
        h = phases.handler(state.phase)
        if hasattr(h, "enter"):
            h.enter(state)

    def _new_turn(self, state: State, n: int) -> None:
        """Per-turn marks cleared (p6): moved, fired, paths; pips and platoon moves."""
        state.turn = n
        mortar_sights.new_turn(state, n)  # before `moved` is cleared
        for e in state.elements.values():
            e.moved, e.fired, e.path = 0.0, False, []
            for k in list(e.counters):
                if k in ("shaken", "stunned", "riders_off") and e.counters[k] > 0:
                    e.counters[k] -= 1
                    if not e.counters[k]:
                        del e.counters[k]
        state.glimpses = {}  # along_move.py: what was seen of this turn's moves
        for p in state.platoons.values():
            p.moved, p.order = False, None
        morale_tests.new_turn(state)
        for c in state.companies.values():
            c.pips, c.spent, c.finished = 0, 0, False
        state.queue, state.fire_order, state.fire_step = None, [], 0
        smoke.new_turn(state)

    # ------------------------------------------------------------------ commands
    def resolve(
        self, state: State, side: str, cmd: dict[str, Any], rng: random.Random
    ) -> list[Draft]:
        if side in (UMPIRE, SPECTATOR):
            raise IllegalCommand("the umpire and spectators do not command elements", "side")
        if state.result is not None:
            raise IllegalCommand("the game is over", "type")
        if side not in self.active_sides(state):
            raise IllegalCommand(f"it is not your turn to act in phase {state.phase}", "type")
        h = phases.handler(state.phase)
        kind = cmd["type"]
        if kind == "end_phase" and phases.phase(state.phase).actors == "all":
            return turn.end_phase(state, side)
        if kind not in h.COMMANDS:
            allowed = sorted({c["type"] for c in self.legal_commands(state, side)})
            raise IllegalCommand(
                f"{kind!r} is not a command of phase {state.phase}; allowed now: "
                f"{', '.join(allowed) or 'none'}",
                "type",
            )
        return h.resolve(state, side, cmd, rng)

    # ------------------------------------------------------------------ automatic
    def automatic(self, state: State, rng: random.Random) -> list[Draft]:
        if state.result is not None:
            return []
        if state.phase != "setup":
            verdict = victory.decide(state.scenario, self.statuses(state), state.turn, False)
            if verdict is not None:
                return [Draft("game_over", verdict, None, notes(state))]
        tests = (
            morale_tests.automatic(state, rng)
            or cqc_morale.automatic(state, rng)
            or withdrawal.surrendering(state)
            or fire_retreat.due(state, rng)
            or regroup.automatic(state)
        )
        if tests:
            return tests
        h = phases.handler(state.phase)
        drafts = h.automatic(state, rng)
        if drafts or h.actors(state):
            return drafts
        if state.phase == "setup":
            nxt, n = phases.PHASES.first, 1
        else:
            nxt, n = phases.PHASES.after(state.phase, state.turn)
        if state.phase != "setup" and n != state.turn:
            works = fieldworks.turn_end(state)  # the turn's digging and camouflage count
            if works:
                return works
            verdict = victory.decide(state.scenario, self.statuses(state), state.turn, True)
            if verdict is not None:
                return [Draft("game_over", verdict, None, notes(state))]
        nh = phases.handler(nxt.id)
        note = nh.note(state) if hasattr(nh, "note") else None
        return [Draft("phase", {"phase": nxt.id, "turn": n}, None, (note,) if note else ())]

    # ------------------------------------------------------------------ queries
    def active_sides(self, state: State) -> list[str]:
        if state.result is not None or morale_tests.pending(state):
            return []
        return phases.handler(state.phase).actors(state)

    def odds(self, state: State, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
        """The odds preview of a direct-fire command (phase G; orders_fire.odds)."""
        return orders_fire.odds(state, side, cmd)

    def legal_commands(self, state: State, side: str) -> list[dict[str, Any]]:
        if side not in self.active_sides(state):
            return []
        out = list(phases.handler(state.phase).legal(state, side))
        if phases.phase(state.phase).actors == "all":
            out.append({"type": "end_phase"})
        return out

    def outcome(self, state: State) -> dict[str, Any] | None:
        return state.result

    def state_json(self, state: State) -> Any:
        return state.to_json()

    def statuses(self, state: State) -> list[victory.PieceStatus]:
        """Every element as the victory predicates see it, worth its points (worth.py, P256):
        a passenger does not count for losses but leaves with its carrier (P257). Kept in
        the state's memo until the next event (VOLATILE)."""
        memo = state.cache.get("statuses")
        if memo is None:
            memo = state.cache["statuses"] = self._statuses(state)
        return list(memo)

    def _statuses(self, state: State) -> list[victory.PieceStatus]:
        points = state.cache.get("points")  # each element's worth: fixed for the game
        if points is None:
            points = state.cache["points"] = {
                e.id: worth(state, e).value for e in state.elements.values()
            }
        piece = victory.PieceStatus  # positional (id, side, x, y, present, counts, lost,
        out = []  # exited, points): built for every element after every event
        for e in state.elements.values():
            placed = e.x is not None
            free = e.transport is None
            out.append(piece(
                e.id, e.side, e.x if placed else -1.0, e.y if e.y is not None else -1.0,
                free and placed and e.exited is None and not e.lost,  # e.active
                free, e.lost, e.exited,
                points[e.id] if e.id in points else worth(state, e).value,
            ))  # fmt: skip
        return out

    def battle_summary(self, state: State) -> dict[str, Any]:
        losses: dict[str, dict[str, int]] = {s: {} for s in state.sides}
        for e in state.elements.values():
            if e.lost:
                losses[e.side][e.kind] = losses[e.side].get(e.kind, 0) + 1
        pieces = self.statuses(state)
        holders = {o.id: victory.holder(o, pieces) for o in state.scenario.objectives}
        return {"turn": state.turn, "losses": losses, "objectives": holders}

    def view(self, state: State, side: str) -> dict[str, Any]:
        return side_view(self, state, side)

    def unit_card(self, state: State, side: str, unit_id: str) -> dict[str, Any]:
        """An element's data and state as `side` may know them (GameRules hook, card.py)."""
        return card.unit_card(state, side, unit_id)

    def sight_check(
        self, state: State, side: str, unit_id: str, x: float, y: float
    ) -> dict[str, Any]:
        """Could this own element see (x, y)? From terrain alone (GameRules hook, card.py)."""
        return card.sight_check(state, side, unit_id, x, y)


def game_rules(options: Options | dict[str, Any] | None = None) -> PanzerfaustGame:
    """The rules of a game with these options (rulesets/panzerfaust/options.py)."""
    if not isinstance(options, Options):
        options = Options.model_validate(options or {}) if options else None
    return _game_rules(options)


@lru_cache(maxsize=8)
def _game_rules(options: Options | None) -> PanzerfaustGame:
    return PanzerfaustGame(rules(opts=options))
