"""The FastAPI app: the HTTP API under /api, the WebSocket stream, the browser table at /."""

import asyncio
import contextlib
from collections.abc import AsyncIterator
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
    Response,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi import (
    Path as PathParam,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from sqlalchemy import create_engine, event

from ..ai.seat import run_ai_seats
from ..engine import registry
from ..engine.briefing import briefing
from ..engine.commands import IllegalCommand
from ..engine.events import SPECTATOR, UMPIRE
from ..engine.game import Game, rules_for
from ..engine.options import BadOption, documented
from ..engine.scenario import Scenario, all_scenarios
from ..engine.store import Store, default_url
from ..engine.verify import verify
from . import army_api, odds_api, seats, strict
from .fanout import Fanout
from .hub import GameHub, Refused
from .hub import Request as HubRequest
from .limits import Limits
from .schemas import Ack, Command, CreatedGame, NewGame, ScenarioInfo, Seat, StateHash

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
NAME = r"^[A-Za-z0-9_.-]{1,64}$"

KEY = r"^[\x21-\x7e]{1,128}$"  # printable ASCII, as HTTP headers carry it
# close codes of the stream: 1009 a message over the size limit, 4008 a reader too slow to
# keep up (reconnect: the first message is a fresh view), 4429 over a socket limit
TOO_BIG, TOO_SLOW, TOO_MANY = 1009, 4008, 4429

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
    except BadOption as e:
        field = "seed" if e.field == "seed" else f"options.{e.field}"
        raise HTTPException(422, {"field": field, "reason": str(e)}) from e
    ai = ai_seats(game, new.ai)
    tokens, digests = seats.issue([s for s in game.sides if s not in ai])
    hub.create(game, {"seats": digests, "ai": ai})
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


def ai_seats(game: Game, sides: list[str]) -> list[str]:
    """The sides the server plays, checked (422 naming `ai`); each plays its first moves now."""
    for side in sides:
        if side not in game.sides:
            raise HTTPException(
                422, {"field": "ai", "reason": f"no side {side!r}; sides: {', '.join(game.sides)}"}
            )
    if len(set(sides)) >= len(game.sides):
        raise HTTPException(422, {"field": "ai", "reason": "at least one side must be a player's"})
    try:
        run_ai_seats(game, sides)
    except NotImplementedError as e:
        raise HTTPException(422, {"field": "ai", "reason": str(e)}) from e
    return list(dict.fromkeys(sides))


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


def client_of(conn: Request | WebSocket, limits: Limits) -> str:
    """The client's address, for the per-client limits."""
    if limits.trust_forwarded_for and (fwd := conn.headers.get("x-forwarded-for")):
        return fwd.split(",")[0].strip()
    return conn.client.host if conn.client else "unknown"


def create_app(db_url: str | None = None, limits: Limits | None = None) -> FastAPI:
    """The web umpire over a store (SQLite file by default, PostgreSQL by URL). With
    PostgreSQL several processes may serve the same games (LISTEN/NOTIFY fan-out)."""
    limits = limits or Limits.from_env()
    hub = GameHub(open_store(db_url), limits)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        fanout = Fanout(hub, hub.store.url) if hub.store.notifies else None
        if fanout is not None:
            fanout.start()
            with contextlib.suppress(TimeoutError):  # serve anyway; it keeps trying
                await asyncio.wait_for(fanout.listening.wait(), 10)
        yield
        if fanout is not None:
            await fanout.stop()

    # the API docs' Swagger UI from files shipped in a package, not a CDN: /docs works offline
    app = FastAPIOffline(
        lifespan=lifespan,
        default_response_class=strict.StrictJSONResponse,
        title="Kriegsspiel web umpire",
        version="0.1.0",
        description="Games, seats with secret tokens, per-seat views (fog of war) and commands. "
        "Give a seat's token as `X-Token` header or `token` query parameter. A command may "
        "carry an `Idempotency-Key` (a repeat gets the first answer) and the `X-Step` it was "
        "given at (the view's `game.step`; an older one is refused with 409).",
    )
    app.state.hub = hub
    app.state.limits = limits
    app.add_middleware(strict.StrictBodies, max_bytes=limits.max_body_bytes)

    @app.exception_handler(Refused)
    async def _refused(_: Request, exc: Refused) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        """422 naming the field, without echoing the input (it may be NaN, or huge)."""
        detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", "")} for e in exc.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

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
        """Shipped scenarios a game can start from: those of every ruleset that plays games."""
        return [
            ScenarioInfo(
                id=s.id,
                name=s.name,
                ruleset=s.ruleset,
                description=s.description,
                sides=[{"id": side.id, "name": side.name} for side in s.sides],
            )
            for s in shipped_scenarios().values()
            if registry.playable(s.ruleset)
        ]

    @api.get("/rulesets")
    def rulesets() -> list[dict[str, Any]]:
        """Every ruleset that plays games, with what the browser table draws differently
        (its unit, status flags, piece footprints, template-only keys: registry `extra`)."""
        out = []
        for e in registry.entries():
            if not registry.playable(e.id):
                continue
            extra = e.extra
            out.append(
                {
                    "id": e.id,
                    "title": e.title,
                    "unit": e.unit,
                    "plugin": e.table_plugin,
                    "status_flags": [list(f) for f in extra.get("status_flags", ())],
                    "footprints": extra.get("footprints", {}),
                    "template_only": list(extra.get("template_only", ())),
                    "move_input": extra.get("move_input", {}),
                }
            )
        return out

    @api.get("/rulesets/{ruleset}/options")
    def ruleset_options(ruleset: Annotated[str, PathParam(pattern=NAME)]) -> list[dict[str, Any]]:
        """The options a game of this ruleset takes (`options` of POST /api/games)."""
        try:
            return documented(rules_for(ruleset))
        except (LookupError, NotImplementedError) as e:
            raise HTTPException(404, f"no games of ruleset {ruleset!r}") from e

    @api.post("/games", response_model=CreatedGame, status_code=201)
    async def new_game(body: NewGame, request: Request) -> CreatedGame:
        """Create a game; the answer holds each seat's secret token and join link (shown once).
        429 beyond the games a client may create per minute."""
        if not hub.creations.admit(client_of(request, limits)):
            raise Refused(
                429,
                "too many games",
                f"{limits.games_per_client_per_minute} games a minute per client (the limit)",
            )
        return create_game(hub, body, str(request.base_url))

    @api.get("/games/{game_id}/seats/{seat}/view", response_model=None)
    async def view(dep: SeatDep) -> dict[str, Any]:
        """Everything this seat may know, with its legal commands."""
        async with hub.lock(dep[0].id):
            return hub.view(*dep)

    @api.get("/games/{game_id}/seats/{seat}/log", response_model=None)
    async def log(dep: SeatDep) -> list[dict[str, Any]]:
        """The events this seat may read, each with its explanation lines."""
        game, seat = dep
        async with hub.lock(game.id):
            return hub.events_json(game, game.events_for(seat), seat)

    IdemKey = Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            pattern=KEY,
            description="a key unique per command of this seat: a repeat gets the first answer",
        ),
    ]
    StepHeader = Annotated[
        str | None,
        Header(
            alias="X-Step",
            max_length=256,
            description="the view's game.step when the command was given: 409 if the game "
            "has moved on",
        ),
    ]

    async def answer(seat: str, game_id: str, req: HubRequest, response: Response) -> Ack:
        events, replayed = await hub.command(game_id, req)
        if replayed:
            response.headers["Idempotent-Replayed"] = "true"
        return Ack(seat=seat, events=events)

    @api.post("/games/{game_id}/seats/{seat}/commands", response_model=Ack)
    async def command(
        dep: SeatDep,
        body: Command,
        response: Response,
        key: IdemKey = None,
        step: StepHeader = None,
    ) -> Ack:
        """Give a command; answered only once its events are committed."""
        game, seat = dep
        acting(game, seat)
        req = HubRequest(seat, "command", body.as_dict(), key, step)
        return await answer(seat, game.id, req, response)

    @api.post("/games/{game_id}/seats/{seat}/undo", response_model=Ack)
    async def undo(
        dep: SeatDep, response: Response, key: IdemKey = None, step: StepHeader = None
    ) -> Ack:
        """Undo the last command in force (its author or the umpire)."""
        game, seat = dep
        acting(game, seat)
        return await answer(seat, game.id, HubRequest(seat, "undo", None, key, step), response)

    @api.post("/games/{game_id}/seats/{seat}/odds", response_model=None)
    async def odds(dep: SeatDep, body: Command) -> dict[str, Any]:
        """Exact odds of a fire command before giving it (validated like the command)."""
        game, seat = dep
        acting(game, seat)
        async with hub.lock(game.id):
            return game.odds(seat, body.as_dict())

    @api.post("/games/{game_id}/seats/{seat}/preview", response_model=None)
    async def preview(dep: SeatDep, body: Command) -> dict[str, Any]:
        """An order's cost before giving it (a move's legs, lengths and terrain; whether a call
        for fire's aim point is accepted; a fire order's weapons and fire-group partners), by
        the rules' own check; nothing is rolled."""
        game, seat = dep
        acting(game, seat)
        async with hub.lock(game.id):
            return game.preview(seat, body.as_dict())

    @api.get("/games/{game_id}/seats/{seat}/reach/{unit}", response_model=None)
    async def reach(dep: SeatDep, unit: Annotated[str, PathParam(pattern=NAME)]) -> dict[str, Any]:
        """Where this seat's unit can move now: grid cells (centres, in table units)."""
        game, seat = dep
        acting(game, seat)
        async with hub.lock(game.id):
            return game.reach(seat, unit)

    @api.get("/games/{game_id}/seats/{seat}/briefing", response_model=None)
    async def seat_briefing(dep: SeatDep) -> dict[str, Any]:
        """The scenario's briefing for this seat: its own forces, objectives, victory
        conditions, turn limit, special rules and the ruleset's terms."""
        game, seat = dep
        return briefing(game.scenario, seat, game.rules)

    def side_hook(game: Game, seat: str, name: str) -> Any:
        if seat not in game.sides:
            raise HTTPException(403, "only a side's seat asks about its own units")
        hook = getattr(game.rules, name, None)
        if hook is None:
            raise HTTPException(501, f"not implemented for ruleset {game.scenario.ruleset!r}")
        return hook

    @api.get("/games/{game_id}/seats/{seat}/units/{unit}/card", response_model=None)
    async def unit_card(
        dep: SeatDep, unit: Annotated[str, PathParam(pattern=NAME)]
    ) -> dict[str, Any]:
        """A unit's data (gun, armour, speed, SA, special rules) and state with reminders:
        an own unit in full; an enemy only while this side observes it, and only what it
        sees. An unknown id and an unseen enemy get the same 400."""
        game, seat = dep
        async with hub.lock(game.id):
            return side_hook(game, seat, "unit_card")(game.state, seat, unit)

    @api.get("/games/{game_id}/seats/{seat}/sight", response_model=None)
    async def sight(
        dep: SeatDep,
        unit: Annotated[str, Query(pattern=NAME, description="an own unit")],
        x: Annotated[float, Query(allow_inf_nan=False)],
        y: Annotated[float, Query(allow_inf_nan=False)],
    ) -> dict[str, Any]:
        """Could this own unit see a piece at (x, y)? Answered from terrain and the unit
        alone: no enemy piece is consulted, so the answer reveals none."""
        game, seat = dep
        async with hub.lock(game.id):
            return side_hook(game, seat, "sight_check")(game.state, seat, unit, x, y)

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

    @api.get("/games/{game_id}/verify")
    async def verify_game(
        game_id: GameId,
        token: Annotated[str | None, Query(max_length=256)] = None,
        x_token: Annotated[str | None, Header(max_length=256)] = None,
    ) -> dict[str, Any]:
        """Check the whole log against the seed commitment published at the start (replay with
        the revealed seed: same events, same state hash). Anyone once the game is over; before
        that only the umpire (the answer holds the seed)."""
        game = game_of(game_id)
        if game.outcome is None:
            await seat_dep(game_id, UMPIRE, token, x_token)
        async with hub.lock(game_id):
            return verify(game).to_json()

    @api.websocket("/games/{game_id}/ws")
    async def stream(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        """Pushes this seat's fresh view after every change; accepts
        `{"type": "command"|"odds"|"undo", "id": key, "step": s, "command": {...}}` and
        answers with `ack`/`odds`/`error` carrying the same id. The id is the command's
        idempotency key (unique per seat and game: a repeat gets the first answer); `step`
        (optional) is the view's `game.step` it was given at. No token: the spectator."""
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
        try:
            sub = hub.subscribe(game_id, seat, client_of(websocket, limits))
        except Refused as exc:
            await websocket.close(code=TOO_MANY, reason=exc.reason[:120])
            return

        async def sender() -> None:
            while True:
                await websocket.send_text(await sub.next())

        task = asyncio.create_task(sender())
        close: tuple[int, str] | None = None
        try:
            while close is None:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text") or message.get("bytes") or b""
                size = len(data.encode() if isinstance(data, str) else data)
                if size > limits.max_frame_bytes:
                    close = (
                        TOO_BIG,
                        f"message of {size} bytes; the limit is {limits.max_frame_bytes}",
                    )
                    break
                sub.offer_reply(await socket_request(game_id, seat, data))
                if sub.too_slow:
                    close = TOO_SLOW, f"{sub.unread} replies unread: reconnect to resync"
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.unsubscribe(game_id, sub)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            if close is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(websocket.close(code=close[0], reason=close[1]), 5)

    async def socket_request(game_id: str, seat: str, data: str | bytes) -> str:
        """The answer to one socket message, as strict JSON text."""
        ident: Any = None
        try:
            try:
                msg = strict.loads(data)
            except strict.NotJson as e:
                raise IllegalCommand(e.reason, e.field or "type") from None
            if not isinstance(msg, dict) or msg.get("type") not in ("command", "odds", "undo"):
                raise IllegalCommand("a message is {type: command|odds|undo, id, command}", "type")
            ident = msg.get("id")
            if ident is not None and (
                isinstance(ident, bool) or not isinstance(ident, int | str) or len(str(ident)) > 128
            ):
                ident = None
                raise IllegalCommand("id is a string or an integer (at most 128 characters)", "id")
            step = msg.get("step")
            if step is not None and not isinstance(step, str):
                raise IllegalCommand("step is the view's game.step, a string", "step")
            if seat == SPECTATOR:
                raise IllegalCommand("spectators do not give commands", "seat")
            kind, cmd = msg["type"], msg.get("command")
            if kind == "odds":
                async with hub.lock(game_id):
                    odds = hub.game(game_id).odds(seat, cmd)
                return strict.dumps({"type": "odds", "id": ident, "odds": odds})
            key = None if ident is None else str(ident)
            events, _ = await hub.command(game_id, HubRequest(seat, kind, cmd, key, step))
            return strict.dumps({"type": "ack", "id": ident, "events": events})
        except (IllegalCommand, Refused) as exc:
            status = {"status": exc.status} if isinstance(exc, Refused) else {}
            return strict.dumps({"type": "error", "id": ident, **exc.to_json(), **status})

    app.include_router(api)
    app.include_router(odds_api.router())
    app.include_router(army_api.router())
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/odds", include_in_schema=False)
    def odds_page() -> FileResponse:
        """The odds calculator, for every ruleset with actions."""
        return FileResponse(STATIC / "odds.html")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app
