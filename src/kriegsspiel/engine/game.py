"""A game: ruleset, scenario, seed and an append-only list of events; state is their fold.

The engine knows nothing of any ruleset's rules. A ruleset supplies a `GameRules` object; the
engine validates commands against the ruleset's schemas, resolves them through it, numbers and
stores the events, derives dice from the secret seed (engine/fairplay.py), folds state, undoes
under the game's undo policy (engine/undo.py), replays and filters views and logs per side
(engine/seatlog.py).
"""

from __future__ import annotations

import hashlib
import json
import random
import uuid
from collections.abc import Iterable
from typing import Any, Protocol

from . import registry, spectate
from .command_schema import validate_command
from .commands import IllegalCommand
from .events import SPECTATOR, UMPIRE, Draft, Event
from .fairplay import DiceStream, canonical, check_seed, commitment, new_seed
from .options import BadOption, from_validation, split
from .refusals import guard
from .scenario import Scenario
from .seatlog import SeatLog
from .undo import UNDO_COMMANDS, UndoBook

UNDO = "undo"
GIVEN = "given"  # umpire-only record of a command as given (for verify), one per command
ENGINE_EVENTS = frozenset({UNDO, GIVEN, "undo_request", "undo_declined"})


class GameRules(Protocol):
    """What a ruleset gives the engine."""

    ruleset: str

    def initial_state(self, scenario: Scenario, seed: int, options: dict[str, Any]) -> Any: ...

    def apply(self, state: Any, event: Event) -> None:
        """Fold one event into the state (in place). Must be deterministic."""

    def resolve(
        self, state: Any, side: str, command: dict[str, Any], rng: random.Random
    ) -> list[Draft]:
        """Validate a command (raise IllegalCommand with the reason) and resolve it into events,
        without changing the state."""

    def automatic(self, state: Any, rng: random.Random) -> list[Draft]:
        """Events the rules produce by themselves now (phase ends, initiative rolls, artillery
        falling). The engine calls it after every command until it returns nothing."""

    def legal_commands(self, state: Any, side: str) -> list[dict[str, Any]]: ...

    def view(self, state: Any, side: str) -> dict[str, Any]: ...

    def state_json(self, state: Any) -> Any: ...

    def outcome(self, state: Any) -> dict[str, Any] | None: ...

    def active_sides(self, state: Any) -> list[str]: ...

    # Optional hooks (the engine checks with hasattr):
    #   command_models() -> dict[str, type[BaseModel]]: a pydantic model per command type; the
    #       engine validates every command against its model before `resolve` sees it (a
    #       refusal names the field; `resolve` gets the model's dump of the fields given) and
    #       refuses types without one. Validation context: {"table": (width, depth)}, for
    #       models that keep points on the table (engine/command_schema.py has helpers).
    #   odds(state, side, command) -> dict: exact odds before giving a command.
    #   preview(state, side, command) -> dict: an order's cost before it is given ({ok, reason}
    #       or the ruleset's breakdown), by the order's own legality check; no dice.
    #   reach(state, side, unit) -> dict: {unit, cell, cells}: where the unit can move now.


def rules_for(ruleset: str, options: dict[str, Any] | None = None) -> GameRules:
    """The ruleset's rules with its options, from the registry (engine/registry.py): the engine
    imports no ruleset. BadOption names an unknown option or a bad value."""
    from pydantic import ValidationError

    try:
        return registry.game_rules(ruleset, options)
    except ValidationError as exc:
        raise from_validation(exc) from None
    except TypeError as exc:
        if options:
            raise BadOption(next(iter(options)), f"the {ruleset} ruleset takes no options") from exc
        raise


class Game:
    """One game. `events` is the save file; `state` is always their fold.

    `seed=None` draws a secret 256-bit seed; the `start` event publishes only its commitment
    (and whether the seed was chosen by the players: `seed_chosen`)."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        game_id: str | None = None,
        events: Iterable[Event] = (),
        rules: GameRules | None = None,
        *,
        seed_chosen: bool | None = None,
    ):
        self.scenario = scenario
        chosen = seed is not None if seed_chosen is None else seed_chosen
        try:
            self.seed = check_seed(seed) if seed is not None else new_seed()
        except ValueError as exc:
            raise BadOption("seed", str(exc)) from None
        self.options = dict(options or {})
        self.engine_options, ruleset_options = split(self.options)
        self.id = game_id or uuid.uuid4().hex[:12]
        self.rules = rules or rules_for(scenario.ruleset, ruleset_options)
        self._dice = DiceStream(self.seed)
        self._seat_logs: dict[str, SeatLog] = {}
        self.events: list[Event] = list(events)
        self._state = self._fold(self.events)
        self.undo_book = UndoBook(self)
        if not self.events:
            start = {"scenario": scenario.id, "commitment": commitment(self.seed)}
            self._append(None, [Draft("start", start | {"seed_chosen": chosen})], None)

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> Any:
        return self._state

    @property
    def sides(self) -> list[str]:
        return self.scenario.side_ids

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def _fold(self, events: list[Event], count: bool = True) -> Any:
        state = self.rules.initial_state(self.scenario, self.seed, self.options)
        undone = undone_commands(events)
        line = 0
        for e in events:
            if e.command not in undone:
                line += self._take(state, e)
        if count:
            self._line = line  # commands in force: a command's place in the line of play
        return state

    def state_hash(self) -> str:
        blob = json.dumps(self.rules.state_json(self._state), sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def replay(self) -> Game:
        """A fresh game folded from this one's events (the same state hash, or a bug)."""
        return Game(
            self.scenario,
            self.seed,
            self.options,
            self.id,
            [Event.from_json(e.to_json()) for e in self.events],
            self.rules,
        )

    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.rules.outcome(self._state)

    @property
    def next_command(self) -> int:
        # events are appended in command order, so the last one holds the highest number
        return self.events[-1].command + 1 if self.events else 0

    # ------------------------------------------------------------------ commands
    def _check_side(self, side: str) -> None:
        if side != UMPIRE and all(s.id != side for s in self.scenario.sides):
            raise IllegalCommand(f"unknown side {side!r}; sides are {self.sides}", "side")

    def submit(self, side: str, command: dict[str, Any]) -> list[Event]:
        """Validate and resolve one command; on success append and fold its events."""
        self._check_side(side)
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise IllegalCommand("a command is a JSON object with a string 'type'", "type")
        if self.outcome is not None:
            raise IllegalCommand("the game is over")
        if command["type"] in UNDO_COMMANDS:
            return self.undo_book.command(side, command["type"])
        command, text = self._validated(command)
        rng = self._dice.for_step(self._line, side, text, 0)
        try:
            drafts = self.rules.resolve(self._state, side, command, rng)
        except IllegalCommand as exc:
            raise guard(exc, self.rules, self._state, side, text) from None
        return self._append(side, drafts, command, rng, text)

    def _validated(self, command: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The command as the ruleset's schema reads it, and its canonical JSON."""
        models = getattr(self.rules, "command_models", None)
        if models is None:
            return command, canonical(command)
        table = self.scenario.table
        return validate_command(models(), command, {"table": (table.width, table.depth)})

    def _append(
        self,
        side: str | None,
        drafts: list[Draft],
        command: dict[str, Any] | None,
        first: Any = None,
        text: str | None = None,
    ) -> list[Event]:
        """Append a command's events, then the rules' automatic follow-ups (same command), then
        the umpire's record of the command as given (whether it rolled dice). `text` is the
        command's canonical JSON when the caller has it already (it keys the dice)."""
        cmd = self.next_command
        new: list[Event] = []
        author = side
        if text is None:
            text = canonical(command) if command is not None else "start"
        dice = [first] if first is not None else []
        for round_ in range(1, 10_001):
            for d in drafts:
                e = Event(
                    len(self.events), cmd, d.type, author, d.data, d.visible_to, d.explanation
                )
                self.events.append(e)
                self.rules.apply(self._state, e)
                new.append(e)
            if self.rules.outcome(self._state) is not None:
                break
            dice.append(self._dice.for_step(self._line, side, text, round_))
            drafts = self.rules.automatic(self._state, dice[-1])
            author = None
            if not drafts:
                break
        else:
            raise RuntimeError("automatic steps did not settle")
        if command is not None:
            rolled = any(d.drawn for d in dice)
            new.append(self._record(cmd, side, command, rolled))
            self._line += 1
        return new

    def _record(self, cmd: int, side: str | None, command: dict[str, Any], rolled: bool) -> Event:
        """The umpire-only record of a command as given (verify replays these)."""
        e = Event(len(self.events), cmd, GIVEN, side, {"command": command, "dice": rolled}, ())
        self.events.append(e)
        return e

    def append_engine(self, side: str, kind: str, drafts: list[Draft]) -> list[Event]:
        """Append the engine's own events of one command (undo flow), with its record; the
        state is folded anew if an undo is among them."""
        cmd = self.next_command
        new = []
        for d in drafts:
            e = Event(len(self.events), cmd, d.type, side, d.data, d.visible_to, d.explanation)
            self.events.append(e)
            new.append(e)
        new.append(self._record(cmd, side, {"type": kind}, False))
        if any(e.type == UNDO for e in new):
            self._state = self._fold(self.events)
        return new

    def undo(self, side: str | None = None) -> list[Event]:
        """Ask to undo the last command in force (engine/undo.py: the game's undo policy)."""
        return self.submit(UMPIRE if side is None else side, {"type": "undo"})

    def extend(self, events: Iterable[Event]) -> None:
        """Fold in events another writer committed after this copy's last one (a second
        server process, the CLI): the same state as loading the whole log again."""
        for e in events:
            if e.index != len(self.events):
                raise ValueError(f"event {e.index} does not follow event {len(self.events) - 1}")
            self.events.append(e)
            if e.type == UNDO:
                self._state = self._fold(self.events)
            else:
                self._line += self._take(self._state, e)

    def _take(self, state: Any, e: Event) -> int:
        """Fold one event of a command in force: the rules' events into the state; the count
        (0 or 1) it adds to the line of play (a command given, other than an undo's)."""
        if e.type not in ENGINE_EVENTS:
            self.rules.apply(state, e)
            return 0
        return int(e.type == GIVEN and e.data["command"]["type"] not in UNDO_COMMANDS)

    def odds(self, side: str, command: dict[str, Any]) -> dict[str, Any]:
        """Exact odds of a command before giving it, if the ruleset offers them."""
        return self._before(side, command, "odds", "odds preview")

    def preview(self, side: str, command: dict[str, Any]) -> dict[str, Any]:
        """What an order would cost before it is given (ruleset hook `preview`: e.g. a move's
        legs and terrain), checked by the order's own legality check; `ok` false with the
        reason (fog-safe) if the order would be refused. Rolls no dice, changes nothing."""
        out = self._before(side, command, "preview", "order preview")
        if not out.get("ok") and out.get("reason"):
            exc = IllegalCommand(str(out["reason"]), out.get("field"))
            safe = guard(exc, self.rules, self._state, side, canonical(command))
            out = {**out, "reason": safe.reason, "field": safe.field}
        return out

    def reach(self, side: str, unit: str) -> dict[str, Any]:
        """Where `side`'s `unit` can move now (ruleset hook `reach`: grid cells in table units)."""
        self._check_side(side)
        if side == UMPIRE or not hasattr(self.rules, "reach") or self.outcome is not None:
            raise IllegalCommand("no movement area for this side or ruleset now", "side")
        try:
            return self.rules.reach(self._state, side, unit)
        except IllegalCommand as exc:
            raise guard(exc, self.rules, self._state, side, canonical({"unit": unit})) from None

    def _before(self, side: str, command: dict[str, Any], hook: str, what: str) -> dict[str, Any]:
        """Ask the ruleset's `hook` about a command not given (validated as if it were)."""
        self._check_side(side)
        if side == UMPIRE or not hasattr(self.rules, hook):
            raise IllegalCommand(f"no {what} for this side or ruleset", "side")
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise IllegalCommand("a command is a JSON object with a string 'type'", "type")
        command, text = self._validated(command)
        try:
            return getattr(self.rules, hook)(self._state, side, command)
        except IllegalCommand as exc:
            raise guard(exc, self.rules, self._state, side, text) from None

    # ------------------------------------------------------------------ views
    def legal_commands(self, side: str) -> list[dict[str, Any]]:
        self._check_side(side)
        if self.outcome is not None or side == UMPIRE:
            return []
        return self.rules.legal_commands(self._state, side)

    def events_for(self, side: str) -> list[Event]:
        """The events of commands in force that `side` may see, with the true numbers (the
        umpire's); what a seat is sent is `log_for` (its own numbers)."""
        undone = undone_commands(self.events)
        return [e for e in self.events if e.visible(side) and e.command not in undone]

    def seat_log(self, side: str) -> SeatLog:
        """The seat's own numbering of what it may read (engine/seatlog.py), brought up to date."""
        log = self._seat_logs.get(side)
        if log is None:
            log = self._seat_logs[side] = SeatLog(side)
        log.update(self.events)
        return log

    def log_for(self, side: str) -> list[dict[str, Any]]:
        """The log a seat reads: its entries of commands in force, in its own numbers."""
        return [t[2] for t in self.seat_log(side).live(undone_commands(self.events))]

    def entries_for(self, side: str, events: list[Event]) -> list[dict[str, Any]]:
        """These events as `side` reads them (an ack), in its own numbers."""
        return self.seat_log(side).of(events)

    def header(self, side: str) -> dict[str, Any]:
        """The view's `game` block: the commitment always, the seed to the umpire and, once
        the game is over, to everyone; the seat's own event count."""
        over = self.outcome is not None
        return {
            "id": self.id,
            "scenario": self.scenario.id,
            "ruleset": self.scenario.ruleset,
            "commitment": self.commitment,
            "seed": str(self.seed) if side == UMPIRE or over else None,
            "events": len(self.seat_log(side).entries),
            "options": self.engine_options.model_dump(),
            "undo_request": self.undo_book.pending_for(side),
            # whether the last command in force is this seat's (what its undo would take back)
            "undo_mine": self.undo_book.mine(side),
        }

    def view(self, side: str) -> dict[str, Any]:
        """Everything `side` may know: the ruleset's view plus the log it may read. The
        scenario's parts of it (table, terrain, objectives, sides) may be shared between views:
        read them, do not change them."""
        if side not in self.sides and side not in (UMPIRE, SPECTATOR):
            raise IllegalCommand(f"unknown side {side!r}", "side")
        if side == SPECTATOR:  # public during play; full once over or N turns behind
            undone = undone_commands(self.events)
            out = spectate.spectator_view(self, undone)
            out["game"] = self.header(side)
            out["log"] = [t[2] for t in spectate.spectator_log(self, undone)]
        else:
            out = self.rules.view(self._state, side)
            out["game"] = self.header(side)
            out["log"] = self.log_for(side)
        out["outcome"] = self.outcome
        return out


def undone_commands(events: list[Event]) -> set[int]:
    undone: set[int] = set()
    for e in events:
        if e.type == UNDO:
            undone.add(e.data["command"])
    return undone
