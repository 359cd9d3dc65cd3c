"""Game storage through SQLAlchemy: a SQLite file by default, PostgreSQL by URL.

A game row holds the scenario (as JSON, so a saved game does not depend on the shipped file),
the seed and options; event rows are the log. Appends are transactional: a command's events are
committed together or not at all.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
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
    insert,
    select,
)
from sqlalchemy.engine import Engine

from .events import Event
from .game import Game
from .scenario import Scenario

DEFAULT_DB_ENV = "KRIEGSSPIEL_DB"

metadata = MetaData()
games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("ruleset", String(32), nullable=False),
    Column("scenario_id", String(128), nullable=False),
    Column("scenario", Text, nullable=False),
    Column("seed", Integer, nullable=False),
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
        metadata.create_all(self.engine)

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
                    seed=game.seed,
                    options=game.options,
                    meta=meta or {},
                    created=datetime.now(UTC),
                )
            )
            if game.events:
                conn.execute(insert(events), self._rows(game.id, game.events))

    def append(self, game_id: str, evs: list[Event]) -> None:
        """Commit a command's events atomically."""
        if not evs:
            return
        with self.engine.begin() as conn:
            conn.execute(insert(events), self._rows(game_id, evs))

    def load(self, game_id: str) -> Game:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                raise LookupError(f"no game {game_id!r} in {self.url}")
            rows = (
                conn.execute(
                    select(events).where(events.c.game_id == game_id).order_by(events.c.idx)
                )
                .mappings()
                .all()
            )
        scenario = Scenario.model_validate(json.loads(row["scenario"]))
        evs = [
            Event(
                r["idx"],
                r["command"],
                r["type"],
                r["side"],
                r["data"],
                tuple(r["visible_to"]) if r["visible_to"] is not None else None,
                tuple(r["explanation"] or ()),
            )
            for r in rows
        ]
        return Game(scenario, row["seed"], row["options"], row["id"], evs)

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
                    select(games.c.id, games.c.scenario_id, games.c.seed, games.c.created).order_by(
                        games.c.created
                    )
                )
                .mappings()
                .all()
            )
        return [dict(r) for r in rows]
