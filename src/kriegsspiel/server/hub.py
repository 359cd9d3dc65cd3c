"""The game hub: games in memory over the store, one asyncio lock per game, WebSocket fan-out.

Every change goes through `GameHub.change`: under the game's lock it runs the engine, commits
the new events (Store.append, one transaction) and only then acknowledges; if the commit fails
the in-memory game is dropped and reloaded from the store, so memory never runs ahead of disk.
After each change every subscribed seat is sent its own fresh view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine.events import Event
from ..engine.game import Game, undone_commands
from ..engine.store import Store

QUEUE_LIMIT = 64


@dataclass(eq=False)
class Subscriber:
    """One open socket: the seat it watches and a queue drained by its own sender task
    (messages as dicts, or as JSON text already encoded)."""

    seat: str
    queue: asyncio.Queue[dict[str, Any] | str] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT)
    )

    def offer(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a client too slow to keep up loses its oldest view, not the server."""
        if self.queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
        self.queue.put_nowait(message)


class GameHub:
    def __init__(self, store: Store):
        self.store = store
        self._games: dict[str, Game] = {}
        self._meta: dict[str, dict[str, Any]] = {}
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._subs: dict[str, set[Subscriber]] = defaultdict(set)

    # ----------------------------------------------------------------- games
    def create(self, game: Game, meta: dict[str, Any]) -> None:
        self.store.create(game, meta)
        self._games[game.id] = game
        self._meta[game.id] = meta

    def game(self, game_id: str) -> Game:
        """The game (loaded from the store on first use); LookupError if there is none."""
        if game_id not in self._games:
            self._games[game_id] = self.store.load(game_id)
        return self._games[game_id]

    def events_json(self, game: Game, events: list[Event], seat: str) -> list[dict[str, Any]]:
        """`events` that `seat` may see, as JSON in the seat's own numbering (engine/seatlog.py)."""
        return game.entries_for(seat, events)

    def view(self, game: Game, seat: str) -> dict[str, Any]:
        """The seat's view and legal commands; equal to `game.view(seat)` (tested)."""
        out = self._view_without_log(game, seat)
        out["log"] = game.log_for(seat)
        return out

    def _view_without_log(self, game: Game, seat: str) -> dict[str, Any]:
        out = game.rules.view(game.state, seat)
        out["game"] = game.header(seat)
        out["outcome"] = game.outcome
        out["legal"] = game.legal_commands(seat) if seat in game.sides else []
        return out

    def message(self, game: Game, seat: str) -> str:
        """The socket message `{"type": "view", "seat", "view"}` as text, the log spliced in
        from the seat's cached entry texts (re-encoding the whole log per push is the cost)."""
        undone = undone_commands(game.events)
        log = ",".join(t[3] for t in game.seat_log(seat).live(undone))
        body = json.dumps(self._view_without_log(game, seat), allow_nan=False)
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

    async def change(self, game_id: str, action: Callable[[Game], list[Event]]) -> list[Event]:
        """Run `action` on the game under its lock, commit its events, then notify."""
        async with self._locks[game_id]:
            game = self.game(game_id)
            new = action(game)  # IllegalCommand leaves the game untouched
            try:  # in a worker thread: a slow commit of one game does not stall the others
                await asyncio.to_thread(self.store.append, game_id, new)
            except Exception:
                self._games.pop(game_id, None)  # reload what the store holds
                raise
            self.publish(game)
        return new

    # ----------------------------------------------------------------- sockets
    def subscribe(self, game_id: str, seat: str) -> Subscriber:
        sub = Subscriber(seat)
        self._subs[game_id].add(sub)
        sub.offer(self.message(self.game(game_id), seat))
        return sub

    def unsubscribe(self, game_id: str, sub: Subscriber) -> None:
        self._subs[game_id].discard(sub)

    def publish(self, game: Game) -> None:
        """Every subscriber gets its seat's view, computed once per seat."""
        views: dict[str, str] = {}
        for sub in list(self._subs.get(game.id, ())):
            if sub.seat not in views:
                views[sub.seat] = self.message(game, sub.seat)
            sub.offer(views[sub.seat])
