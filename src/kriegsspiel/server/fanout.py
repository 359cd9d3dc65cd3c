"""Fan-out across server processes: PostgreSQL LISTEN/NOTIFY.

Every append on PostgreSQL notifies `kriegsspiel_events` with "<game> <events>" on commit
(engine/store.py). Each server process listens on its own connection and, for a game it holds
in memory, reloads it and pushes its sockets the new views (GameHub.refresh). After a lost
connection it listens again and checks every game it holds against the store, so nothing
missed meanwhile stays stale. With SQLite there is no fan-out: run one server process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy.engine import make_url

from ..engine.store import CHANNEL
from .hub import GameHub

log = logging.getLogger(__name__)


def libpq_url(sqlalchemy_url: str) -> str:
    """postgresql+psycopg://... as libpq reads it (postgresql://...)."""
    url = make_url(sqlalchemy_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class Fanout:
    def __init__(self, hub: GameHub, url: str):
        self.hub = hub
        self.url = libpq_url(url)
        self.listening = asyncio.Event()
        self._pending: dict[str, int] = {}  # game -> newest event count not yet refreshed
        self._task: asyncio.Task[None] | None = None
        self._refreshing: set[asyncio.Task[None]] = set()  # referenced until done

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        await self.hub.resync()
                    first = False
                    async for note in conn.notifies():
                        game_id, _, count = note.payload.partition(" ")
                        if count.isdigit():
                            self._notice(game_id, int(count))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN %s failed; listening again in 1 s", CHANNEL)
                self.listening.clear()
                await asyncio.sleep(1)

    def _notice(self, game_id: str, count: int) -> None:
        """One refresh task per game at a time; later notices raise its target."""
        running = game_id in self._pending
        self._pending[game_id] = max(count, self._pending.get(game_id, 0))
        if not running:
            task = asyncio.create_task(self._refresh(game_id))
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    async def _refresh(self, game_id: str) -> None:
        try:
            while True:
                target = self._pending[game_id]
                await self.hub.refresh(game_id, target)
                if self._pending[game_id] == target:
                    break
        except Exception:
            log.exception("refreshing game %s failed", game_id)
        finally:
            self._pending.pop(game_id, None)
