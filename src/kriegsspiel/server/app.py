"""The FastAPI app: the HTTP API under /api, the WebSocket stream, the browser table at /."""

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Annotated, Any

from fastapi import (
    APIRouter,
    Depends,
    FastAPI,
    Header,
    HTTPException,
    Query,
    Request,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi import (
    Path as PathParam,
)
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from sqlalchemy import create_engine, event

from ..engine.commands import IllegalCommand
from ..engine.events import SPECTATOR, UMPIRE
from ..engine.game import Game
from ..engine.scenario import Scenario, all_scenarios
from ..engine.store import Store, default_url
from . import seats
from .hub import GameHub
from .schemas import Ack, Command, CreatedGame, NewGame, ScenarioInfo, Seat, StateHash

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
NAME = r"^[A-Za-z0-9_.-]{1,64}$"

GameId = Annotated[str, PathParam(pattern=NAME, description="game id")]
SeatName = Annotated[str, PathParam(pattern=NAME, description="a side id, umpire or spectator")]


def shipped_scenarios() -> dict[str, Scenario]:
    return {s.id: s for s in all_scenarios()}


def create_game(hub: GameHub, new: NewGame, base_url: str) -> CreatedGame:
    """A new game with a token per seat; only the tokens' digests are stored."""
    scenario = shipped_scenarios().get(new.scenario)
    if scenario is None:
        raise HTTPException(422, {"field": "scenario", "reason": f"no scenario {new.scenario!r}"})
    try:
        game = Game(scenario, new.seed, new.options)
    except NotImplementedError as e:
        raise HTTPException(422, {"field": "scenario", "reason": str(e)}) from e
    tokens, digests = seats.issue(game.sides)
    hub.create(game, {"seats": digests})
    base = base_url.rstrip("/")
    return CreatedGame(
        id=game.id,
        scenario=scenario.id,
        seats=[
            Seat(seat=s, token=t, link=f"{base}/?game={game.id}&seat={s}#token={t}")
            for s, t in tokens.items()
        ],
        spectator=f"{base}/?game={game.id}&seat={SPECTATOR}",
    )


def open_store(url: str | None) -> Store:
    """The store; a SQLite file runs in WAL mode with synchronous=NORMAL: a commit is in the
    file before the ack (so it survives SIGKILL of the server) without an fsync per command."""
    url = url or default_url()
    if not url.startswith("sqlite"):
        return Store(url)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(conn: Any, _: Any) -> None:
        cur = conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    return Store(url, engine=engine)


def create_app(db_url: str | None = None) -> FastAPI:
    """The web umpire over a store (SQLite file by default, PostgreSQL by URL)."""
    hub = GameHub(open_store(db_url))
    # the API docs' Swagger UI from files shipped in a package, not a CDN: /docs works offline
    app = FastAPIOffline(
        title="Kriegsspiel web umpire",
        version="0.1.0",
        description="Games, seats with secret tokens, per-seat views (fog of war) and commands. "
        "Give a seat's token as `X-Token` header or `token` query parameter.",
    )
    app.state.hub = hub

    @app.exception_handler(IllegalCommand)
    async def _illegal(_: Request, exc: IllegalCommand) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=400)

    def game_of(game_id: str) -> Game:
        try:
            return hub.game(game_id)
        except LookupError as e:
            raise HTTPException(404, f"no game {game_id!r}") from e

    async def seat_dep(
        game_id: GameId,
        seat: SeatName,
        token: Annotated[str | None, Query(max_length=256)] = None,
        x_token: Annotated[str | None, Header(max_length=256)] = None,
    ) -> tuple[Game, str]:
        """The game and the seat the caller may act for (404 unknown, 403 wrong token)."""
        game = game_of(game_id)
        if seat not in (*game.sides, UMPIRE, SPECTATOR):
            raise HTTPException(404, f"no seat {seat!r} in game {game_id!r}")
        if not seats.authorised(hub.meta(game_id)["seats"], seat, x_token or token):
            raise HTTPException(403, f"this token does not hold the seat {seat!r}")
        return game, seat

    SeatDep = Annotated[tuple[Game, str], Depends(seat_dep)]

    def acting(game: Game, seat: str) -> None:
        if seat == SPECTATOR:
            raise HTTPException(403, "spectators do not give commands")

    # Handlers touching games are `async def`: they run on the event loop, one at a time,
    # never in FastAPI's thread pool, so a game is only ever changed under its lock.
    api = APIRouter(prefix="/api")

    @api.get("/scenarios", response_model=list[ScenarioInfo])
    def scenarios() -> list[ScenarioInfo]:
        """Shipped scenarios a game can start from."""
        return [
            ScenarioInfo(
                id=s.id,
                name=s.name,
                ruleset=s.ruleset,
                description=s.description,
                sides=[{"id": side.id, "name": side.name} for side in s.sides],
            )
            for s in shipped_scenarios().values()
        ]

    @api.post("/games", response_model=CreatedGame, status_code=201)
    async def new_game(body: NewGame, request: Request) -> CreatedGame:
        """Create a game; the answer holds each seat's secret token and join link (shown once)."""
        return create_game(hub, body, str(request.base_url))

    @api.get("/games/{game_id}/seats/{seat}/view")
    async def view(dep: SeatDep) -> dict[str, Any]:
        """Everything this seat may know, with its legal commands."""
        async with hub.lock(dep[0].id):
            return hub.view(*dep)

    @api.get("/games/{game_id}/seats/{seat}/log")
    async def log(dep: SeatDep) -> list[dict[str, Any]]:
        """The events this seat may read, each with its explanation lines."""
        game, seat = dep
        async with hub.lock(game.id):
            return hub.events_json(game, game.events_for(seat), seat)

    @api.post("/games/{game_id}/seats/{seat}/commands", response_model=Ack)
    async def command(dep: SeatDep, body: Command) -> Ack:
        """Give a command; answered only once its events are committed."""
        game, seat = dep
        acting(game, seat)
        new = await hub.change(game.id, lambda g: g.submit(seat, body.as_dict()))
        return Ack(seat=seat, events=hub.events_json(game, new, seat))

    @api.post("/games/{game_id}/seats/{seat}/undo", response_model=Ack)
    async def undo(dep: SeatDep) -> Ack:
        """Undo the last command in force (its author or the umpire)."""
        game, seat = dep
        acting(game, seat)
        new = await hub.change(game.id, lambda g: g.undo(seat))
        return Ack(seat=seat, events=hub.events_json(game, new, seat))

    @api.post("/games/{game_id}/seats/{seat}/odds")
    async def odds(dep: SeatDep, body: Command) -> dict[str, Any]:
        """Exact odds of a fire command before giving it (validated like the command)."""
        game, seat = dep
        acting(game, seat)
        async with hub.lock(game.id):
            return game.odds(seat, body.as_dict())

    @api.get("/games/{game_id}/state-hash", response_model=StateHash)
    async def state_hash(
        game_id: GameId,
        token: Annotated[str | None, Query(max_length=256)] = None,
        x_token: Annotated[str | None, Header(max_length=256)] = None,
    ) -> StateHash:
        """The umpire's check of the full state (sha256 of the folded state)."""
        game, _ = await seat_dep(game_id, UMPIRE, token, x_token)
        async with hub.lock(game_id):
            return StateHash(hash=game.state_hash(), events=len(game.events))

    @api.websocket("/games/{game_id}/ws")
    async def stream(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        """Pushes this seat's fresh view after every change; accepts
        `{"type": "command"|"odds"|"undo", "id": n, "command": {...}}` and answers with
        `ack`/`odds`/`error` carrying the same id. No token: the spectator's view."""
        try:
            hub.game(game_id)
        except LookupError:
            await websocket.close(code=4404)
            return
        seat = seats.seat_of(hub.meta(game_id)["seats"], token) if token else SPECTATOR
        if seat is None:
            await websocket.close(code=4403)
            return
        await websocket.accept()
        sub = hub.subscribe(game_id, seat)

        async def sender() -> None:
            while True:
                msg = await sub.queue.get()
                await (
                    websocket.send_text(msg) if isinstance(msg, str) else websocket.send_json(msg)
                )

        task = asyncio.create_task(sender())
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    msg = json.loads(text)
                except ValueError:
                    msg = None
                sub.offer(await socket_request(game_id, seat, msg))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.unsubscribe(game_id, sub)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def socket_request(game_id: str, seat: str, msg: Any) -> dict[str, Any]:
        ident = msg.get("id") if isinstance(msg, dict) else None
        try:
            if not isinstance(msg, dict) or msg.get("type") not in ("command", "odds", "undo"):
                raise IllegalCommand("a message is {type: command|odds|undo, command}", "type")
            if seat == SPECTATOR:
                raise IllegalCommand("spectators do not give commands", "seat")
            kind, cmd = msg["type"], msg.get("command")
            if kind == "odds":
                async with hub.lock(game_id):
                    return {"type": "odds", "id": ident, "odds": hub.game(game_id).odds(seat, cmd)}
            act = (lambda g: g.undo(seat)) if kind == "undo" else (lambda g: g.submit(seat, cmd))
            new = await hub.change(game_id, act)
            events = hub.events_json(hub.game(game_id), new, seat)
            return {"type": "ack", "id": ident, "events": events}
        except IllegalCommand as exc:
            return {"type": "error", "id": ident, **exc.to_json()}

    app.include_router(api)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app
