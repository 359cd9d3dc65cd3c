"""`kriegsspiel serve`: the web umpire (HTTP API, WebSocket stream and browser table)."""

from __future__ import annotations

import socket
from typing import Annotated

import typer

from .common import fail

DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db", help="SQLAlchemy URL (default $KRIEGSSPIEL_DB or sqlite:///kriegsspiel.db)"
    ),
]
HostOpt = Annotated[str, typer.Option("--host", help="address to listen on")]
PortOpt = Annotated[int, typer.Option("--port", help="TCP port", min=1, max=65535)]


def check_port(host: str, port: int) -> None:
    """Refuse a busy port before anything is created (a game, links for another server)."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except OSError as exc:
        fail(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another port with "
            f"--port (make demo PORT=...)"
        )


def run(app: object, host: str, port: int) -> None:
    import uvicorn

    # views are small and frequent: compressing each costs more CPU than loopback or LAN saves;
    # a frame over the app's limit is refused by the protocol before it is buffered whole
    limits = getattr(getattr(app, "state", None), "limits", None)
    frame = limits.max_frame_bytes if limits is not None else 16 * 2**20
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_per_message_deflate=False,
        ws_max_size=frame + 1024,  # the app answers up to its limit itself, with the reason
    )


def serve(db: DbOpt = None, host: HostOpt = "127.0.0.1", port: PortOpt = 8000) -> None:
    """Serve the web umpire: API under /api (docs at /docs), the table at /."""
    from ..server import create_app
    from ..server.limits import Limits
    from .common import fail

    try:
        limits = Limits.from_env()  # KRIEGSSPIEL_* limits (README: limits)
    except ValueError as e:
        fail(str(e))
    check_port(host, port)
    typer.echo(f"Kriegsspiel web umpire on http://{host}:{port}/  (API docs: /docs)")
    run(create_app(db, limits), host, port)
