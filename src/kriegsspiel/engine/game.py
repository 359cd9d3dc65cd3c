"""A game: ruleset, scenario, seed and an append-only list of events; state is their fold.

The engine knows nothing of any ruleset's rules. A ruleset supplies a `GameRules` object; the
engine validates and resolves commands through it, numbers and stores the events, derives dice
from (seed, event index), folds state, undoes, replays and filters views per side.
"""

from __future__ import annotations

import hashlib
import json
import random
import uuid
from collections.abc import Iterable
from typing import Any, Protocol

from . import registry
from .commands import IllegalCommand
from .events import SPECTATOR, UMPIRE, Draft, Event
from .scenario import Scenario

UNDO = "undo"


class Dice:
    """The `random.Random` of one command, seeded from (game seed, event index) on its first
    draw: most commands and automatic steps roll nothing, and the hash and the generator's
    set-up were a measurable share of every command."""

    __slots__ = ("_at", "_rng")

    def __init__(self, seed: int, index: int):
        self._at = (seed, index)
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:  # randint, uniform, choice, random, ...
        if self._rng is None:
            seed, index = self._at
            digest = hashlib.sha256(f"kriegsspiel:{seed}:{index}".encode()).digest()
            self._rng = random.Random(int.from_bytes(digest[:8], "big"))
        return getattr(self._rng, name)


def dice_for(seed: int, index: int) -> Any:
    """The RNG for the command that will write event `index`: same seed, same log, same dice
    (a `Dice`, which behaves as a `random.Random`)."""
    return Dice(seed, index)


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


def rules_for(ruleset: str) -> GameRules:
    """The ruleset's rules, from the registry (engine/registry.py): the engine imports no
    ruleset."""
    return registry.game_rules(ruleset)


class Game:
    """One game. `events` is the save file; `state` is always their fold."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        game_id: str | None = None,
        events: Iterable[Event] = (),
        rules: GameRules | None = None,
    ):
        self.scenario = scenario
        self.seed = seed
        self.options = dict(options or {})
        self.id = game_id or uuid.uuid4().hex[:12]
        self.rules = rules or rules_for(scenario.ruleset)
        self.events: list[Event] = list(events)
        self._state = self._fold(self.events)
        if not self.events:
            self._append(None, [Draft("start", {"scenario": scenario.id, "seed": seed})])

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> Any:
        return self._state

    @property
    def sides(self) -> list[str]:
        return self.scenario.side_ids

    def _fold(self, events: list[Event]) -> Any:
        state = self.rules.initial_state(self.scenario, self.seed, self.options)
        undone = undone_commands(events)
        for e in events:
            if e.type != UNDO and e.command not in undone:
                self.rules.apply(state, e)
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
        if side not in self.sides and side != UMPIRE:
            raise IllegalCommand(f"unknown side {side!r}; sides are {self.sides}", "side")

    def submit(self, side: str, command: dict[str, Any]) -> list[Event]:
        """Validate and resolve one command; on success append and fold its events."""
        self._check_side(side)
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise IllegalCommand("a command is a JSON object with a string 'type'", "type")
        if self.outcome is not None:
            raise IllegalCommand("the game is over")
        if command["type"] == UNDO:
            return self.undo(side)
        rng = dice_for(self.seed, len(self.events))
        drafts = self.rules.resolve(self._state, side, command, rng)
        return self._append(side, drafts)

    def _append(self, side: str | None, drafts: list[Draft]) -> list[Event]:
        """Append a command's events, then the rules' automatic follow-ups (same command)."""
        cmd = self.next_command
        new: list[Event] = []
        author = side
        for _ in range(10_000):
            for d in drafts:
                e = Event(
                    len(self.events), cmd, d.type, author, d.data, d.visible_to, d.explanation
                )
                self.events.append(e)
                self.rules.apply(self._state, e)
                new.append(e)
            if self.rules.outcome(self._state) is not None:
                break
            drafts = self.rules.automatic(self._state, dice_for(self.seed, len(self.events)))
            author = None
            if not drafts:
                break
        else:
            raise RuntimeError("automatic steps did not settle")
        return new

    def undo(self, side: str | None = None) -> list[Event]:
        """Undo the last command still in force, if the game allows it (option allow_undo)."""
        if not self.options.get("allow_undo", True):
            raise IllegalCommand("undo is not allowed in this game")
        undone = undone_commands(self.events)
        live = [e for e in self.events if e.type != UNDO and e.command not in undone]
        if not live:
            raise IllegalCommand("nothing to undo")
        last = live[-1]
        if last.command == 0:
            raise IllegalCommand("nothing to undo")
        author = next(e.side for e in live if e.command == last.command)
        if side not in (None, UMPIRE) and author != side:
            raise IllegalCommand(
                f"the last command was {author}'s; only they or the umpire may undo it"
            )
        drafts = [Draft(UNDO, {"command": last.command})]
        cmd = self.next_command
        e = Event(len(self.events), cmd, UNDO, side, drafts[0].data)
        self.events.append(e)
        self._state = self._fold(self.events)
        return [e]

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
                self.rules.apply(self._state, e)

    def odds(self, side: str, command: dict[str, Any]) -> dict[str, Any]:
        """Exact odds of a command before giving it, if the ruleset offers them."""
        self._check_side(side)
        if side == UMPIRE or not hasattr(self.rules, "odds"):
            raise IllegalCommand("no odds preview for this side or ruleset", "side")
        if not isinstance(command, dict):
            raise IllegalCommand("a command is a JSON object", "type")
        return self.rules.odds(self._state, side, command)

    # ------------------------------------------------------------------ views
    def legal_commands(self, side: str) -> list[dict[str, Any]]:
        self._check_side(side)
        if self.outcome is not None or side == UMPIRE:
            return []
        return self.rules.legal_commands(self._state, side)

    def events_for(self, side: str) -> list[Event]:
        undone = undone_commands(self.events)
        return [
            e for e in self.events if e.visible(side) and e.type != UNDO and e.command not in undone
        ]

    def view(self, side: str) -> dict[str, Any]:
        """Everything `side` may know: the ruleset's view plus the log it may read. The
        scenario's parts of it (table, terrain, objectives, sides) may be shared between views:
        read them, do not change them."""
        if side not in self.sides and side not in (UMPIRE, SPECTATOR):
            raise IllegalCommand(f"unknown side {side!r}", "side")
        out = self.rules.view(self._state, side)
        out["game"] = {
            "id": self.id,
            "scenario": self.scenario.id,
            "ruleset": self.scenario.ruleset,
            "seed": self.seed if side == UMPIRE else None,
            "events": len(self.events),
        }
        out["log"] = [e.to_json() for e in self.events_for(side)]
        out["outcome"] = self.outcome
        return out


def undone_commands(events: list[Event]) -> set[int]:
    undone: set[int] = set()
    for e in events:
        if e.type == UNDO:
            undone.add(e.data["command"])
    return undone
