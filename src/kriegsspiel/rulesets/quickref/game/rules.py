"""`QuickrefGame`: the quickref ruleset's face to the engine (kriegsspiel.engine.GameRules)."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from ....chance import Roll, exact, sample
from ....data.errors import RuleError
from ....engine import victory as engine_victory
from ....engine.commands import IllegalCommand
from ....engine.events import SPECTATOR, UMPIRE, Draft, Event
from ....engine.scenario import Scenario
from ..models import Infantry, Vehicle
from ..options import Options
from ..tables import Rules, rules
from . import card, orders_arty, orders_assault, orders_fire, orders_move, results, sight, victory
from .board import Board
from .commands import MODELS
from .geometry_helpers import distance
from .legal import LegalMemo, copy_templates, iter_legal
from .sequence import AUTOMATIC, BY_ID, actors, next_phase
from .state import Mission, State, Unit
from .units import allowance, record
from .view import view as side_view

FIRE_STEPS = ("fire_suppressive", "fire_all")


PREVIEWS = ("move", "call_fire", "fire")


class QuickrefGame:
    ruleset = "quickref"
    # `view` builds new JSON data on every call, sharing no list or dict with the state or an
    # earlier view, but for the scenario's parts that no event changes (which the bot harness
    # copies once per game): the harness need not copy the rest (tests/ai/test_interface.py
    # checks this over whole battles)
    fresh_views = True
    options_model = Options  # the documented per-game options (engine: `options.documented`)

    def __init__(self, rules_: Rules | None = None):
        self.rules = rules_ or rules()
        self._boards: dict[str, tuple[Scenario, Board]] = {}
        self.scenarios: dict[str, Scenario] = {}

    # ------------------------------------------------------------------ set-up
    def board(self, state: State) -> Board:
        return self._boards[state.scenario_id][1]

    def scenario(self, state: State) -> Scenario:
        return self._boards[state.scenario_id][0]

    def check_scenario(self, scenario: Scenario) -> None:
        """Every unit type must exist in the quickref data (raises LookupError naming it)."""
        for s in scenario.sides:
            for u in scenario.pieces(s.id):
                self._record(u.type)
        for i in range(len(scenario.reinforcements)):
            for u in scenario.arriving(i):
                self._record(u.type)
        for a in scenario.artillery:
            self.rules.cat.get("artillery", a.battery)
        Board(scenario, self.rules)

    def _record(self, type_id: str) -> Vehicle | Infantry:
        if type_id in self.rules.cat.entries.get("infantry", {}):
            return self.rules.cat.get("infantry", type_id)  # an id: no name search needed
        try:
            rec = self.rules.cat.get("vehicle", type_id)
        except LookupError as vehicle_error:
            try:
                rec = self.rules.cat.get("infantry", type_id)
            except LookupError:
                raise vehicle_error from None
        assert isinstance(rec, Vehicle | Infantry)
        return rec

    def initial_state(self, scenario: Scenario, seed: int, options: dict[str, Any]) -> State:
        self.check_scenario(scenario)
        known = self._boards.get(scenario.id)
        if known is None or known[0] is not scenario:
            # a board is a pure function of the (frozen) scenario and the rules: the games of
            # one scenario share it, and with it its memos of sight lines and terrain
            self._boards[scenario.id] = (scenario, Board(scenario, self.rules))
        units: dict[str, Unit] = {}
        entries = [(s.id, u, 0) for s in scenario.sides for u in scenario.pieces(s.id)]
        entries += [
            (r.side, u, r.turn)
            for i, r in enumerate(scenario.reinforcements)
            for u in scenario.arriving(i)
        ]
        for side, spec, turn in entries:
            rec = self._record(spec.type)
            kind = "vehicle" if isinstance(rec, Vehicle) else "infantry"
            u = Unit(
                spec.id,
                side,
                rec.id,
                kind,
                spec.name or rec.name,
                spec.x,
                spec.y,
                spec.facing,
                radio=spec.radio,
                hidden=spec.hidden,
                transport=spec.transport,
                reinforcement_turn=turn,
            )
            if isinstance(rec, Infantry):
                u.stands = rec.stands
                for att in spec.attachments:
                    a = self._record(att)
                    if isinstance(a, Infantry) and a.kind == "mg_team":
                        u.attached_mg, u.stands = a.id, u.stands + 1
                    elif isinstance(a, Vehicle) and a.category == "infantry_at":
                        u.at_weapon = a.id
            units[u.id] = u
        state = State(scenario.id, seed, scenario.side_ids, units)
        sight.refresh(self.board(state), state)
        return state

    # ------------------------------------------------------------------ fold
    def apply(self, state: State, e: Event) -> None:
        d = e.data
        handler = getattr(self, f"_on_{e.type}", None)
        if handler is None:
            raise ValueError(f"unknown event type {e.type!r}")
        handler(state, d, e)
        state.legal_memo.clear()  # the state moved on: its legal commands are worked out anew

    def _on_start(self, state, d, e):
        pass

    def _on_phase(self, state: State, d, e):
        new_turn = d["turn"] != state.turn
        state.turn, state.phase, state.done = d["turn"], d["phase"], []
        if new_turn:
            for u in state.units.values():
                u.suppressed = False  # suppression lasts until the start of the next turn (L2)
                u.moved_this_turn = 0.0
            state.side_a = None
            state.initiative_winner = None
        if d["phase"] == "move_a1":
            for u in state.units.values():
                u.moved = "none"
        if new_turn or d["phase"] == "move_a1":
            sight.refresh(self.board(state), state)

    def _on_initiative(self, state, d, e):
        state.initiative_winner = d["winner"]

    def _on_side_a(self, state, d, e):
        state.side_a = d["side"]

    def _on_hatches(self, state, d, e):
        for uid, b in d["buttoned"].items():
            state.units[uid].buttoned = b

    def _on_end_phase(self, state, d, e):
        if d["side"] not in state.done:
            state.done.append(d["side"])

    def _on_fire(self, state: State, d, e):
        for uid in d["firers"]:
            u = state.units[uid]
            u.fired_turn, u.fired_phase, u.hidden = state.turn, state.phase, False
        state.pending.append(
            {k: d[k] for k in ("target", "kind", "outcome", "parts", "attack")}
            | {"from": list(state.units[d["firers"][0]].pos)}
        )
        sight.refresh(self.board(state), state)

    def _on_hit(self, state, d, e):
        state.pending.append(dict(d))

    def _on_pending_now(self, state, d, e):
        state.pending.append(dict(d))

    def _on_results_applied(self, state, d, e):
        state.pending = state.pending[d["count"] :]

    def _on_update(self, state: State, d, e):
        u = state.units[d["unit"]]
        for k, v in d["set"].items():
            setattr(u, k, v)
        if {"x", "y", "removed"} & set(d["set"]):
            sight.refresh(self.board(state), state)

    def _on_move(self, state: State, d, e):
        u = state.units[d["unit"]]
        u.x, u.y = d["path"][-1]
        u.facing = d["facing"]
        u.moved_this_turn += d["distance"]
        u.moved = (
            "none"
            if u.moved_this_turn <= 0
            else ("half" if d["fraction"] <= 0.5 + 1e-9 else "over_half")
        )
        for p in state.units.values():
            if p.transport == u.id:
                p.x, p.y = u.x, u.y
        sight.refresh_after_move(self.board(state), state, u)

    def _on_dismount(self, state, d, e):
        u = state.units[d["unit"]]
        u.transport = None
        u.x, u.y = d["x"], d["y"]
        u.moved_this_turn = allowance(self.rules, u)  # may not move further this turn (Q40)
        sight.refresh(self.board(state), state)

    def _on_call_fire(self, state: State, d, e):
        state.calls[d["observer"]] = state.turn
        state.counter += 1
        if d["ok"]:
            m = Mission(
                d["mission"],
                e.side,
                d["observer"],
                d["battery"],
                d["strength"],
                d["x"],
                d["y"],
                state.turn + 1,
                trained=d["trained"],
            )
            state.missions[m.id] = m

    def _on_drift(self, state, d, e):
        m = state.missions[d["mission"]]
        m.x, m.y, m.drifted = d["x"], d["y"], True

    def _on_hold(self, state, d, e):
        state.missions[d["mission"]].held = True

    def _on_adjust(self, state, d, e):
        m = state.missions[d["mission"]]
        m.x, m.y, m.adjusted = d["x"], d["y"], True

    def _on_burst(self, state, d, e):
        state.missions[d["mission"]].done = True

    def _on_assault_declared(self, state, d, e):
        for uid in d["units"]:
            u = state.units[uid]
            u.fired_turn, u.fired_phase, u.hidden = state.turn, "close_assault", False
        sight.refresh(self.board(state), state)

    def _on_assault(self, state, d, e):
        pass

    def _on_note(self, state, d, e):
        pass

    def _on_game_over(self, state: State, d, e):
        state.result = dict(d)
        state.winner = d.get("winner")

    # ------------------------------------------------------------------ commands
    def command_models(self) -> dict[str, type]:
        """The schema of every command (engine hook; rulesets/quickref/game/commands.py)."""
        return MODELS

    def _own(self, state: State, side: str, uid: Any, what: str = "unit") -> Unit:
        return orders_fire._own(state, side, uid, what)

    def resolve(
        self, state: State, side: str, cmd: dict[str, Any], rng: random.Random
    ) -> list[Draft]:
        kind = cmd["type"]
        self._turn_check(state, side, kind)
        if kind == "end_phase":
            return [Draft("end_phase", {"side": side})]
        board = self.board(state)
        if kind == "initiative":
            if side != state.initiative_winner:
                raise IllegalCommand("only the initiative winner chooses side A", "type")
            choice = cmd.get("side_a")
            if choice not in state.sides:
                raise IllegalCommand(f"side_a must be one of {state.sides}", "side_a")
            return [Draft("side_a", {"side": choice})]
        if kind == "hatches":
            return self._hatches(state, side, cmd)
        if kind == "fire":
            return orders_fire.resolve_fire(self.rules, board, state, side, cmd, rng)
        if kind == "move":
            return orders_move.resolve_move(self.rules, board, state, side, cmd, self._own)
        if kind == "dismount":
            return self._dismount(state, side, cmd)
        if kind == "call_fire":
            return orders_arty.resolve_call(
                self.rules, board, self.scenario(state), state, side, cmd, self._own, rng
            )
        if kind == "hold":
            return orders_arty.resolve_hold(self.rules, state, side, cmd)
        if kind == "adjust":
            return orders_arty.resolve_adjust(board, state, side, cmd)
        if kind == "assault":
            return orders_assault.resolve_assault(
                self.rules, board, state, side, cmd, self._own, orders_fire._target, rng
            )
        raise IllegalCommand(f"unknown command {kind!r}", "type")

    def _turn_check(self, state: State, side: str, kind: str):
        """Whether `side` may give a `kind` command now (raises IllegalCommand); the phase."""
        if side in (UMPIRE, SPECTATOR):
            raise IllegalCommand("the umpire and spectators do not command units", "side")
        phase = BY_ID.get(state.phase)
        if phase is None:
            raise IllegalCommand("the game has not started")
        if side not in actors(state):
            if side in state.done:
                raise IllegalCommand(f"you have ended the {phase.title} step", "type")
            raise IllegalCommand(
                f"it is not your turn to act: {phase.title} belongs to "
                f"{', '.join(actors(state)) or 'nobody'}",
                "type",
            )
        if kind == "end_phase":
            return phase
        if kind not in phase.commands:
            allowed = ", ".join((*phase.commands, "end_phase"))
            raise IllegalCommand(
                f"{kind!r} is not allowed in {phase.title}; allowed: {allowed}", "type"
            )
        return phase

    # ------------------------------------------------------------------ order previews
    def preview(self, state: State, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
        """What an order would cost, checked by the order's own legality check, before it is
        given (engine hook): a move's legs, lengths and terrain; whether a call for fire's
        aim point is accepted; the weapons and fire-group partners a fire order may take. Rolls no dice and changes nothing."""
        kind = cmd["type"]
        if kind not in PREVIEWS:
            raise IllegalCommand(f"previews are offered for {', '.join(PREVIEWS)}", "type")
        try:
            self._turn_check(state, side, kind)
        except IllegalCommand as exc:
            return {"ok": False, "reason": exc.reason, "field": exc.field}
        board = self.board(state)
        if kind == "move":
            return orders_move.preview_move(self.rules, board, state, side, cmd, self._own)
        if kind == "fire":
            return orders_fire.fire_choices(self.rules, board, state, side, cmd)
        return orders_arty.preview_call(
            self.rules, board, self.scenario(state), state, side, cmd, self._own
        )

    def reach(self, state: State, side: str, unit: str) -> dict[str, Any]:
        """The area `unit` can reach now by one straight leg, as grid cells (engine hook)."""
        self._turn_check(state, side, "move")
        return orders_move.reach(self.rules, self.board(state), state, side, unit, self._own)

    def _hatches(self, state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
        b = cmd.get("buttoned")
        if not isinstance(b, dict):
            raise IllegalCommand("hatches needs 'buttoned': {unit id: true/false}", "buttoned")
        for uid, val in b.items():
            u = self._own(state, side, uid, "buttoned")
            rec = record(self.rules, u)
            if not isinstance(rec, Vehicle):
                raise IllegalCommand(f"{u.name} is not a vehicle", "buttoned")
            if val and rec.open_topped:
                raise IllegalCommand(f"{u.name} is open-topped and cannot button up", "buttoned")
        return [Draft("hatches", {"buttoned": {k: bool(v) for k, v in b.items()}}, (side,))]

    def _dismount(self, state: State, side: str, cmd: dict[str, Any]) -> list[Draft]:
        uid = cmd.get("unit")
        u = state.units.get(uid) if isinstance(uid, str) else None
        if u is None or u.side != side or not u.alive or not u.transport:
            raise IllegalCommand(f"{uid!r} is not a unit of yours being carried", "unit")
        carrier = state.units[u.transport]
        try:
            x, y = float(cmd.get("x", carrier.x)), float(cmd.get("y", carrier.y))
        except (TypeError, ValueError):
            raise IllegalCommand("x and y must be numbers", "x") from None
        if distance((x, y), carrier.pos) > 2.0:
            raise IllegalCommand('dismount within 2" of the carrier (decision Q40)', "x")
        return [Draft("dismount", {"unit": u.id, "x": x, "y": y}, (side,))]

    # ------------------------------------------------------------------ automatic steps
    def automatic(self, state: State, rng: random.Random) -> list[Draft]:
        if state.result is not None:
            return []
        if state.pending and (state.phase not in FIRE_STEPS or not actors(state)):
            return self._apply_pending(state, rng)
        if state.phase == "setup":
            first = BY_ID["initiative"].title
            return [Draft("phase", {"turn": 1, "phase": "initiative", "title": first})]
        if state.phase == "initiative" and state.initiative_winner is None:
            return [self._roll_initiative(state, rng)]
        if state.phase == "arty_fire":
            drafts = orders_arty.drift_drafts(self.rules, state, rng)
            if drafts:
                return drafts
        if state.phase == "adjusted_fire":
            due = [m for m in state.missions.values() if m.held and not m.done]
            if due:
                return orders_arty.burst_drafts(self.rules, self.board(state), state, due[0], rng)
        # sides that cannot do anything in this step end it at once
        for side in actors(state):
            if not self._can_act(state, side):
                why = BY_ID[state.phase].idle
                return [Draft("end_phase", {"side": side, "auto": True, "reason": why})]
        if actors(state):
            return []
        return self._end_step(state, rng)

    def _apply_pending(self, state: State, rng: random.Random) -> list[Draft]:
        """Apply the oldest pending result; the engine calls again for the next, so each one
        sees the changes of those before it."""
        entry = state.pending[0]
        drafts = results.result_drafts(self.rules, self.board(state), state, entry, rng)
        return [*drafts, Draft("results_applied", {"count": 1})]

    def _roll_initiative(self, state: State, rng: random.Random) -> Draft:
        a, b = state.sides
        res = sample(_initiative, a, b, rng=rng)
        return Draft("initiative", {"winner": res.result}, None, tuple(res.lines()))

    def _end_step(self, state: State, rng: random.Random) -> list[Draft]:
        drafts: list[Draft] = []
        if state.phase == "initiative" and state.side_a is None:
            drafts.append(Draft("side_a", {"side": state.initiative_winner, "default": True}))
            return drafts
        if state.phase == "arty_fire":
            for m in state.missions.values():
                if m.due_turn == state.turn and not m.done and not m.held:
                    return orders_arty.burst_drafts(self.rules, self.board(state), state, m, rng)
        if state.phase == "aircraft":
            drafts.append(
                Draft("note", {"text": "aircraft: the sheet gives no rules (decision Q30)"})
            )
        end_of_turn = state.phase == "aircraft"
        outcome = victory.check(self.scenario(state), state, end_of_turn)
        if outcome is not None:
            return [*drafts, Draft("game_over", outcome)]
        turn, phase = next_phase(state)
        done = BY_ID[state.phase].actors != "none"
        why = "every side has ended the step" if done else AUTOMATIC
        data = {"turn": turn, "phase": phase, "title": BY_ID[phase].title, "reason": why}
        return [*drafts, Draft("phase", data)]

    def _can_act(self, state: State, side: str) -> bool:
        """Whether the side has anything to do in this step: a legal order, or in the plot step
        an observer and a battery (an observer may call fire on any point it sees, not only on
        a seen enemy: sheet L4). Unless they are known already, the templates are read only
        up to the first order, and the view sent next reads on from there (`LegalMemo`)."""
        if any(c["type"] != "end_phase" for c in self._lazy_legal(state, side)):
            return True
        return state.phase == "arty_plot" and bool(
            orders_arty.batteries(self.scenario(state), side, state)
            and orders_arty.observers(self.rules, state, side)
        )

    # ------------------------------------------------------------------ odds preview
    def odds_situation(self, state: State, side: str, cmd: dict[str, Any]) -> tuple:
        """Everything besides the command, the rules and the scenario that `odds` of a fire
        command depends on, as a memo key (the bot harness shares its memo between the games
        of one rules object and scenario): the step, the `fire_facts` of the units named and
        whether each may act now (on the table, a firer not yet fired this turn, the target
        seen). Not the turn itself: the same shot a turn later has the same odds."""
        firers = cmd.get("units") or [cmd.get("unit")]
        if not isinstance(firers, list):
            firers = [firers]
        seen = state.seen.get(side, [])
        out: list[Any] = [state.phase, side]
        for uid in [*firers, cmd.get("target")]:
            u = state.units.get(uid) if isinstance(uid, str) else None
            if u is None:
                out.append(None)
                continue
            here = u.reinforcement_turn <= state.turn
            fired = u.fired_turn == state.turn and uid in firers
            out.append((u.fire_facts(), here, fired, uid in seen))
        return tuple(out)

    def odds(self, state: State, side: str, cmd: dict[str, Any]) -> dict[str, Any]:
        """Exact odds of a fire command before it is given (validated as the command would be;
        uses only what `side` may know: its own units and targets it observes)."""
        if cmd.get("type") != "fire":
            raise IllegalCommand("odds are offered for fire commands", "type")
        if state.phase not in FIRE_STEPS:
            raise IllegalCommand("odds are offered in the fire steps", "type")
        _ids, _target, (attack, fn, args, _meta) = orders_fire.fire_query(
            self.rules, self.board(state), state, side, cmd
        )
        try:
            dist = exact(fn, *args)
        except RuleError as exc:
            raise IllegalCommand(str(exc), "units") from None
        order = sorted(dist.probs, key=lambda k: -dist.probs[k])
        return {
            "attack": attack,
            "outcomes": {str(k): float(dist.probs[k]) for k in order},
            "exact": {
                str(k): f"{dist.probs[k].numerator}/{dist.probs[k].denominator}" for k in order
            },
            "placeholders": sorted(dist.placeholders),
        }

    # ------------------------------------------------------------------ queries
    def active_sides(self, state: State) -> list[str]:
        return [] if state.result else actors(state)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return state.result

    def state_json(self, state: State) -> Any:
        return state.to_json()

    def legal_commands(self, state: State, side: str) -> list[dict[str, Any]]:
        """The templates a side may give now (copies of `_legal`'s)."""
        return copy_templates(self._legal(state, side))

    def _legal(self, state: State, side: str) -> list[dict[str, Any]]:
        """The legal templates, memoised until the next event is applied (the engine's
        automatic steps, the view and a bot all ask for the same state): read only."""
        return self._lazy_legal(state, side).all()

    def _lazy_legal(self, state: State, side: str) -> LegalMemo:
        hit = state.legal_memo.get(side)
        if hit is None:
            hit = state.legal_memo[side] = LegalMemo(iter_legal(self, state, side))
        return hit

    def view(self, state: State, side: str) -> dict[str, Any]:
        return side_view(self, state, side)

    def glossary(self) -> dict[str, str]:
        """Terms of this ruleset a briefing explains (engine/briefing.py hook)."""
        return {
            "side A": "the side the initiative winner names at the start of each turn (L7): "
            "it moves half its units first, side B then moves all of its own, and side A "
            "moves its other half last",
            "side B": "the other side that turn",
            "turn": "initiative, indirect fire, fire (suppressive, then all), three move "
            "steps, adjusted fire, close assault, aircraft (L7)",
        }

    def unit_card(self, state: State, side: str, unit_id: str) -> dict[str, Any]:
        """A unit's data and state as `side` may know them (GameRules hook, card.py)."""
        return card.unit_card(self.rules, state, side, unit_id)

    def sight_check(
        self, state: State, side: str, unit_id: str, x: float, y: float
    ) -> dict[str, Any]:
        """May this own unit see (x, y)? From terrain alone (GameRules hook, card.py)."""
        return card.sight_check(self.board(state), state, side, unit_id, x, y)

    def battle_summary(self, state: State) -> dict[str, Any]:
        """For the battle simulator (GameRules hook): the turn, each side's losses by unit
        type, and who holds each objective now."""
        losses: dict[str, dict[str, int]] = {}
        for side in state.sides:
            gone = Counter(u.type for u in state.units.values() if u.side == side and u.removed)
            losses[side] = dict(sorted(gone.items()))
        sc = self.scenario(state)
        pieces = victory.statuses(state)
        holders = {o.id: engine_victory.holder(o, pieces) for o in sc.objectives}
        return {"turn": state.turn, "losses": losses, "objectives": holders}


def _initiative(a: str, b: str):
    """Each side rolls d10, higher wins, ties re-rolled (decision Q41)."""
    ra, rb = yield Roll(
        "2d10",
        f"initiative ({a} die, {b} die; higher wins, a tie is rolled again)",
        "L7 Turn Sequence",
        faces=True,
        reroll=frozenset((i, i) for i in range(1, 11)),
    )
    return a if ra > rb else b


def game_rules(options: Options | dict[str, Any] | None = None) -> QuickrefGame:
    """The rules of a game with these options (rulesets/quickref/options.py; a mapping is
    validated, raising pydantic's ValidationError naming an unknown option or a bad value)."""
    if not isinstance(options, Options):
        options = Options.model_validate(options or {}) if options else None
    return _game_rules(options)


@lru_cache(maxsize=8)
def _game_rules(options: Options | None) -> QuickrefGame:
    return QuickrefGame(rules(opts=options))
