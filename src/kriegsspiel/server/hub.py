"""The game hub: games in memory over the store, one asyncio lock per game, WebSocket fan-out.

Every change goes through `GameHub.command`: under the game's lock it answers a repeated
idempotency key with the first answer, refuses a command given against an older step (409) or
one more repeat than the step allows (429), runs the engine, commits the new events with the
keyed answer (Store.append, one transaction) and only then acknowledges. If the commit fails
the in-memory game is dropped and reloaded from the store, so memory never runs ahead of disk;
if it failed because another process (a second server, the CLI) appended first, the command
is tried again on the reloaded game. After each change every subscribed seat is sent its own
fresh view; `refresh` does the same for changes other processes made (see fanout.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Any

from ..ai.seat import run_ai_seats
from ..engine.commands import IllegalCommand
from ..engine.events import SPECTATOR, Event
from ..engine.game import Game, undone_commands
from ..engine.spectate import spectator_log, spectator_view
from ..engine.store import Answer, Conflict, Store
from . import strict
from .limits import Limits, Window

log = logging.getLogger(__name__)
RETRIES = 5  # reload-and-retry rounds when other writers keep winning the race


def step_of(view: dict[str, Any]) -> str:
    """The step key of any seat's view: the envelope's turn, phase and active sides."""
    return f"{view.get('turn')}/{view.get('phase')}/{','.join(view.get('active') or ())}"


class Refused(Exception):
    """A request refused by the server before the rules see it: a stale step or a reused key
    (409), a limit (429). Nothing changed."""

    def __init__(self, status: int, error: str, reason: str, field: str | None = None):
        super().__init__(reason)
        self.status, self.error, self.reason, self.field = status, error, reason, field

    def to_json(self) -> dict[str, Any]:
        return {"error": self.error, "reason": self.reason, "field": self.field}


@dataclass(frozen=True)
class Request:
    """A command for the hub: `kind` is "command" or "undo"; `key` the idempotency key;
    `step` the step the seat saw when it gave the command (None: do not check)."""

    seat: str
    kind: str
    command: Any = None
    key: str | None = None
    step: str | None = None

    def fingerprint(self) -> str:
        blob = json.dumps([self.kind, self.command], sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def run(self, game: Game) -> list[Event]:
        return game.undo(self.seat) if self.kind == "undo" else game.submit(self.seat, self.command)


class Subscriber:
    """One open socket: the seat it watches and what is waiting to be sent to it.

    Replies (acks, errors, odds) are never dropped and keep their order. Views are coalesced:
    a new view replaces the one still waiting, so a slow reader gets the latest state, not a
    backlog. A client that leaves more than `max_unread` replies unread is too slow: the
    socket handler closes it (4008) and the client resyncs with a fresh view on reconnect."""

    def __init__(self, seat: str, client: str = "", max_unread: int = 256):
        self.seat = seat
        self.client = client
        self.max_unread = max_unread
        self._out: deque[str] = deque()
        self._view: str | None = None  # the view waiting in _out, if any
        self._replies = 0
        self._ready = asyncio.Event()

    def offer_view(self, text: str) -> None:
        if self._view is not None:
            self._out.remove(self._view)
        self._view = text
        self._out.append(text)
        self._ready.set()

    def offer_reply(self, text: str) -> None:
        self._out.append(text)
        self._replies += 1
        self._ready.set()

    @property
    def unread(self) -> int:
        """Replies waiting to be sent."""
        return self._replies

    @property
    def too_slow(self) -> bool:
        return self._replies > self.max_unread

    async def next(self) -> str:
        """The next message to send, in order (waits for one)."""
        while not self._out:
            self._ready.clear()
            await self._ready.wait()
        msg = self._out.popleft()
        if msg is self._view:
            self._view = None
        else:
            self._replies -= 1
        return msg


class GameHub:
    def __init__(self, store: Store, limits: Limits | None = None):
        self.store = store
        self.limits = limits or Limits()
        self._games: dict[str, Game] = {}
        self._meta: dict[str, dict[str, Any]] = {}
        self._answers: dict[str, dict[tuple[str, str], Answer]] = {}
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._subs: dict[str, set[Subscriber]] = defaultdict(set)
        self._repeats: dict[tuple[str, str], tuple[str, int]] = {}  # (game, seat) -> step, n
        self._published: dict[str, int] = {}  # game -> events in the views last pushed
        self.creations = Window(self.limits.games_per_client_per_minute)

    # ----------------------------------------------------------------- games
    def create(self, game: Game, meta: dict[str, Any]) -> None:
        self.store.create(game, meta)
        self._games[game.id] = game
        self._meta[game.id] = meta
        self._answers[game.id] = {}

    def _load(self, game_id: str) -> tuple[Game, dict[tuple[str, str], Answer]]:
        game = self.store.load(game_id)
        return game, {(a.seat, a.key): a for a in self.store.answers(game_id)}

    def _install(self, game: Game, answers: dict[tuple[str, str], Answer]) -> Game:
        self._games[game.id] = game
        self._answers[game.id] = answers
        return game

    def _drop(self, game_id: str) -> None:
        """Forget the in-memory game: the next use reloads what the store holds."""
        self._games.pop(game_id, None)

    def game(self, game_id: str) -> Game:
        """The game (loaded from the store on first use); LookupError if there is none."""
        if game_id not in self._games:
            return self._install(*self._load(game_id))
        return self._games[game_id]

    def events_json(self, game: Game, events: list[Event], seat: str) -> list[dict[str, Any]]:
        """`events` that `seat` may see, as JSON in the seat's own numbering (engine/seatlog.py)."""
        return game.entries_for(seat, events)

    @staticmethod
    def step(game: Game) -> str:
        """The public step key: turn, phase and the sides to act, as every seat's view shows
        them (engine/envelope.py). It changes when the step does and says nothing about hidden
        commands (unlike a count of events)."""
        return step_of(game.rules.view(game.state, SPECTATOR))

    def view(self, game: Game, seat: str) -> dict[str, Any]:
        """The seat's view and legal commands; equal to `game.view(seat)` plus the step key
        (tested)."""
        out = self._view_without_log(game, seat)
        out["log"] = [t[2] for t in self._log_entries(game, seat)]
        return out

    @staticmethod
    def _log_entries(game: Game, seat: str) -> list[tuple[int, int, dict[str, Any], str]]:
        undone = undone_commands(game.events)
        if seat == SPECTATOR:
            return spectator_log(game, undone)
        return game.seat_log(seat).live(undone)

    def _view_without_log(self, game: Game, seat: str) -> dict[str, Any]:
        if seat == SPECTATOR:  # public during play; full once over or N turns behind
            out = spectator_view(game, undone_commands(game.events))
        else:
            out = game.rules.view(game.state, seat)
        out["game"] = {**game.header(seat), "step": step_of(out)}
        out["outcome"] = game.outcome
        out["legal"] = game.legal_commands(seat) if seat in game.sides else []
        return out

    def message(self, game: Game, seat: str) -> str:
        """The socket message `{"type": "view", "seat", "view"}` as text, the log spliced in
        from the seat's cached entry texts (re-encoding the whole log per push is the cost).
        Strict JSON: a NaN in the view raises ValueError rather than reach the wire."""
        log = ",".join(t[3] for t in self._log_entries(game, seat))
        body = strict.dumps(self._view_without_log(game, seat))
        view = f'{body[:-1]}, "log": [{log}]}}'
        return f'{{"type": "view", "seat": {json.dumps(seat)}, "view": {view}}}'

    def meta(self, game_id: str) -> dict[str, Any]:
        if game_id not in self._meta:
            self._meta[game_id] = self.store.meta(game_id)
        return self._meta[game_id]

    def lock(self, game_id: str) -> asyncio.Lock:
        """Held while a command is resolved and committed; readers take it too, so nobody sees
        a state that is not yet in the store."""
        return self._locks[game_id]

    # ----------------------------------------------------------------- commands
    async def command(self, game_id: str, req: Request) -> tuple[list[dict[str, Any]], bool]:
        """Run a command; answer (the events the seat may see, replayed?). Raises
        IllegalCommand (the rules refuse) or Refused (stale, reused key, limit)."""
        for _ in range(RETRIES):
            async with self._locks[game_id]:
                game = self.game(game_id)
                self._publish_if_behind(game)  # a reload after a lost race brought news
                try:
                    return await self._command(game, req)
                except Conflict:
                    self._drop(game_id)  # another writer was first: reload and try again
        raise Refused(409, "conflict", "the game kept changing under this command; try again")

    async def _command(self, game: Game, req: Request) -> tuple[list[dict[str, Any]], bool]:
        answers = self._answers.setdefault(game.id, {})
        fingerprint = req.fingerprint()
        first = answers.get((req.seat, req.key)) if req.key is not None else None
        if first is not None:
            if first.fingerprint != fingerprint:
                raise Refused(
                    409, "key reused", "this idempotency key was used for another command", "id"
                )
            if isinstance(first.answer, dict):  # the first answer was a refusal
                raise IllegalCommand(first.answer["reason"], first.answer.get("field"))
            return first.answer, True
        step = self.step(game)
        if req.step is not None and req.step != step:
            if await asyncio.to_thread(self._behind, game, req):
                raise Conflict("a stale copy of the game")  # reload and compare again
            raise Refused(
                409,
                "stale",
                f"the command was given at step {req.step}; the game is now at step {step}",
                "step",
            )
        seen_step, repeats = self._repeats.get((game.id, req.seat), (step, 0))
        repeats = repeats if seen_step == step else 0
        try:
            new = req.run(game)  # IllegalCommand leaves the game untouched
        except IllegalCommand as exc:
            if await asyncio.to_thread(self._behind, game, req):
                raise Conflict("refused by a stale copy of the game") from exc  # reload, retry
            if req.key is not None:
                answers[(req.seat, req.key)] = Answer(req.seat, req.key, fingerprint, exc.to_json())
            raise
        after = self.step(game)
        ai = self.meta(game.id).get("ai", [])
        if ai:  # the AI seats answer in a worker thread, under this game's lock: a slow bot
            try:  # holds up this game only, never the server's other games
                new = new + await asyncio.to_thread(run_ai_seats, game, ai)
            except BaseException:
                self._drop(game.id)  # nothing of this command was committed: reload
                raise
        if repeats >= self.limits.commands_per_step and after == step:
            self._drop(game.id)  # uncommitted events: reload the game as the store has it
            raise Refused(
                429,
                "too many commands",
                f"{req.seat} gave {repeats} commands in this step (the limit); end the step",
                "type",
            )
        answer = self.events_json(game, new, req.seat)
        record = Answer(req.seat, req.key, fingerprint, answer) if req.key is not None else None
        try:  # in a worker thread: a slow commit of one game does not stall the others
            await asyncio.to_thread(self.store.append, game.id, new, record)
        except BaseException:
            self._drop(game.id)  # reload what the store holds
            raise
        if record is not None:
            answers[(req.seat, record.key)] = record
        self._repeats[(game.id, req.seat)] = (after, repeats + 1 if after == step else 0)
        self.publish(game)
        return answer, False

    def _behind(self, game: Game, req: Request) -> bool:
        """Is this copy older than the store (another writer appended, or answered this key)?"""
        if self.store.length(game.id) != len(game.events):
            return True
        return req.key is not None and self.store.answered(game.id, req.seat, req.key)

    async def refresh(self, game_id: str, events: int) -> None:
        """Another process appended to the game and it now has `events` events: bring this
        process's copy up to date and push the seats their new views."""
        if game_id not in self._games and not self._subs.get(game_id):
            return  # neither held nor watched here: the next use loads it fresh
        async with self._locks[game_id]:
            held = self._games.get(game_id)
            if held is None:
                held = self._install(*await asyncio.to_thread(self._load, game_id))
            elif len(held.events) < events:
                new = await asyncio.to_thread(self.store.events_since, game_id, len(held.events))
                try:
                    held.extend(new)
                except Exception:  # not a continuation of this copy: load the whole game again
                    held = self._install(*await asyncio.to_thread(self._load, game_id))
            self._publish_if_behind(held)

    def _publish_if_behind(self, game: Game) -> None:
        """Push views if the sockets were last sent an older state (after a reload)."""
        if self._subs.get(game.id) and self._published.get(game.id) != len(game.events):
            self.publish(game)

    async def resync(self) -> None:
        """Check every game held here against the store (after missing notifications)."""
        for game_id in list(self._games):
            n = await asyncio.to_thread(self.store.length, game_id)
            await self.refresh(game_id, n)

    # ----------------------------------------------------------------- sockets
    def subscribe(self, game_id: str, seat: str, client: str = "") -> Subscriber:
        """A new socket's subscriber (sent the seat's view first); Refused (429) over the
        limits of sockets per game or per client."""
        if len(self._subs[game_id]) >= self.limits.sockets_per_game:
            raise Refused(
                429,
                "too many sockets",
                f"this game has {self.limits.sockets_per_game} open sockets (the limit)",
            )
        mine = sum(s.client == client for subs in self._subs.values() for s in subs)
        if mine >= self.limits.sockets_per_client:
            raise Refused(
                429,
                "too many sockets",
                f"this client has {self.limits.sockets_per_client} open sockets (the limit)",
            )
        sub = Subscriber(seat, client, self.limits.unread_replies)
        self._subs[game_id].add(sub)
        game = self.game(game_id)
        self._published.setdefault(game_id, len(game.events))
        sub.offer_view(self.message(game, seat))
        return sub

    def unsubscribe(self, game_id: str, sub: Subscriber) -> None:
        self._subs[game_id].discard(sub)

    def publish(self, game: Game) -> None:
        """Every subscriber gets its seat's view, computed once per seat."""
        self._published[game.id] = len(game.events)
        views: dict[str, str] = {}
        for sub in list(self._subs.get(game.id, ())):
            if sub.seat not in views:
                views[sub.seat] = self._message_or_error(game, sub.seat)
            sub.offer_view(views[sub.seat])

    def _message_or_error(self, game: Game, seat: str) -> str:
        try:
            return self.message(game, seat)
        except ValueError:  # a non-finite number in the view: a bug, never invalid JSON
            log.exception("the view of %s in game %s is not strict JSON", seat, game.id)
            return strict.dumps(
                {"type": "error", "id": None, "error": "server", "reason": "view not encodable"}
            )
