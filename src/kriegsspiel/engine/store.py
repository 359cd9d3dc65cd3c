"""Game storage through SQLAlchemy: a SQLite file by default, PostgreSQL by URL.

A game row holds the scenario (as JSON, so a saved game does not depend on the shipped file),
the seed (secret, up to 256 bits: stored as hex text, never shown to a side before the end) and
options; event rows are the log. Appends are transactional: a command's events are
committed together or not at all.

Several processes may write one game (servers behind a load balancer, the CLI): appends use
optimistic concurrency on the event index. (game, index) is the events' primary key, so of two
writers that folded the same log only the first commits; the other gets `Conflict` and reloads.
A keyed command's answer is committed in the same transaction as its events (table `answers`),
so a repeat of the key, in any process, finds the first answer. On PostgreSQL each append also
sends `NOTIFY kriegsspiel_events, '<game> <events>'` (delivered on commit) for other processes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    func,
    insert,
    select,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .events import Event
from .game import Game
from .scenario import Scenario

DEFAULT_DB_ENV = "KRIEGSSPIEL_DB"
CHANNEL = "kriegsspiel_events"

metadata = MetaData()
games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("ruleset", String(32), nullable=False),
    Column("scenario_id", String(128), nullable=False),
    Column("scenario", Text, nullable=False),
    Column("seed", String(80), nullable=False),  # "0x..." (older files: an integer)
    Column("options", JSON, nullable=False),
    Column("meta", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)
events = Table(
    "events",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("command", Integer, nullable=False),
    Column("type", String(64), nullable=False),
    Column("side", String(64)),
    Column("data", JSON, nullable=False),
    Column("visible_to", JSON),
    Column("explanation", JSON, nullable=False),
)

answers = Table(
    "answers",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(64), primary_key=True),
    Column("key", String(128), primary_key=True),
    Column("fingerprint", String(64), nullable=False),
    Column("answer", JSON, nullable=False),
)


class Conflict(ValueError):
    """Another writer appended to the game first: reload it and try again."""


@dataclass(frozen=True)
class Answer:
    """The first answer to a keyed command: who gave it, the key, a digest of the command
    (to tell a repeat from a reuse of the key) and the answer as JSON."""

    seat: str
    key: str
    fingerprint: str
    answer: Any


def default_url() -> str:
    return os.environ.get(DEFAULT_DB_ENV) or "sqlite:///kriegsspiel.db"


class Store:
    def __init__(self, url: str | None = None, engine: Engine | None = None):
        self.url = url or default_url()
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        elif self.url.startswith("postgresql"):  # an unreachable host fails in seconds
            kwargs["connect_args"] = {"connect_timeout": 10}
        self.engine = engine or create_engine(self.url, future=True, **kwargs)
        with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":  # servers starting at once: one creates
                conn.execute(text("SELECT pg_advisory_xact_lock(7411)"))
            metadata.create_all(conn)

    def _rows(self, game_id: str, evs: Iterable[Event]) -> list[dict[str, Any]]:
        return [
            {
                "game_id": game_id,
                "idx": e.index,
                "command": e.command,
                "type": e.type,
                "side": e.side,
                "data": e.data,
                "visible_to": list(e.visible_to) if e.visible_to is not None else None,
                "explanation": list(e.explanation),
            }
            for e in evs
        ]

    def create(self, game: Game, meta: dict[str, Any] | None = None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(games).values(
                    id=game.id,
                    ruleset=game.scenario.ruleset,
                    scenario_id=game.scenario.id,
                    scenario=game.scenario.model_dump_json(),
                    seed=hex(game.seed),
                    options=game.options,
                    meta=meta or {},
                    created=datetime.now(UTC),
                )
            )
            if game.events:
                conn.execute(insert(events), self._rows(game.id, game.events))

    @property
    def notifies(self) -> bool:
        """Does this database tell other processes of appends (PostgreSQL LISTEN/NOTIFY)?"""
        return self.engine.dialect.name == "postgresql"

    def append(self, game_id: str, evs: list[Event], answer: Answer | None = None) -> None:
        """Commit a command's events (and its keyed answer) atomically; `Conflict` if another
        writer took one of these event indices (or this answer's key) first."""
        if not evs and answer is None:
            return
        try:
            with self.engine.begin() as conn:
                if evs:
                    conn.execute(insert(events), self._rows(game_id, evs))
                if answer is not None:
                    conn.execute(
                        insert(answers).values(
                            game_id=game_id,
                            seat=answer.seat,
                            key=answer.key,
                            fingerprint=answer.fingerprint,
                            answer=answer.answer,
                        )
                    )
                if evs and self.notifies:
                    payload = f"{game_id} {evs[-1].index + 1}"
                    conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": payload})
        except IntegrityError as e:
            raise Conflict(
                f"game {game_id!r} was changed meanwhile by another writer; load it again"
            ) from e

    def length(self, game_id: str) -> int:
        """How many events the game has in the store."""
        with self.engine.connect() as conn:
            q = select(func.count()).select_from(events).where(events.c.game_id == game_id)
            return int(conn.execute(q).scalar_one())

    def answered(self, game_id: str, seat: str, key: str) -> bool:
        """Has this seat's key an answer in the store (committed by any process)?"""
        with self.engine.connect() as conn:
            q = select(answers.c.key).where(
                answers.c.game_id == game_id, answers.c.seat == seat, answers.c.key == key
            )
            return conn.execute(q).first() is not None

    def answers(self, game_id: str) -> list[Answer]:
        """Every keyed command's first answer in this game."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(answers).where(answers.c.game_id == game_id)).mappings()
            return [Answer(r["seat"], r["key"], r["fingerprint"], r["answer"]) for r in rows]

    def load(self, game_id: str) -> Game:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                raise LookupError(f"no game {game_id!r} in {self.url}")
            evs = self._events(conn, game_id, 0)
        scenario = Scenario.model_validate(json.loads(row["scenario"]))
        return Game(scenario, _seed(row["seed"]), row["options"], row["id"], evs)

    def events_since(self, game_id: str, index: int) -> list[Event]:
        """The game's events from `index` on (what other writers appended)."""
        with self.engine.connect() as conn:
            return self._events(conn, game_id, index)

    @staticmethod
    def _events(conn: Any, game_id: str, since: int) -> list[Event]:
        q = (
            select(events)
            .where(events.c.game_id == game_id, events.c.idx >= since)
            .order_by(events.c.idx)
        )
        return [
            Event(
                r["idx"],
                r["command"],
                r["type"],
                r["side"],
                r["data"],
                tuple(r["visible_to"]) if r["visible_to"] is not None else None,
                tuple(r["explanation"] or ()),
            )
            for r in conn.execute(q).mappings()
        ]

    def meta(self, game_id: str) -> dict[str, Any]:
        with self.engine.connect() as conn:
            row = conn.execute(select(games.c.meta).where(games.c.id == game_id)).first()
        if row is None:
            raise LookupError(f"no game {game_id!r} in {self.url}")
        return dict(row[0] or {})

    def list_games(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = (
                conn.execute(
                    select(games.c.id, games.c.scenario_id, games.c.created).order_by(
                        games.c.created
                    )
                )
                .mappings()
                .all()
            )
        return [dict(r) for r in rows]


def _seed(value: Any) -> int:
    """A stored seed: hex text, or an integer written by an older version."""
    if isinstance(value, str):
        return int(value, 16) if value.startswith("0x") else int(value)
    return int(value)
