"""`kriegsspiel demo`: the web umpire with a fresh quickref game; prints the seats' links."""

from __future__ import annotations

import typer

from .serve_cmd import DbOpt, HostOpt, PortOpt, check_port, run

DEMO_SCENARIO = "qr-crossroads-armour"


def demo(db: DbOpt = None, host: HostOpt = "127.0.0.1", port: PortOpt = 8000) -> None:
    """Start the web umpire with a demo quickref game and print the seat and umpire links."""
    from ..server import create_app
    from ..server.app import create_game
    from ..server.schemas import NewGame

    check_port(host, port)
    app = create_app(db)
    game = create_game(
        app.state.hub, NewGame(scenario=DEMO_SCENARIO, seed=1), f"http://{host}:{port}"
    )
    typer.echo(f"Demo game {game.id} ({DEMO_SCENARIO}); open one link per player:")
    for seat in game.seats:
        typer.echo(f"  {seat.seat:>8}: {seat.link}")
    typer.echo(f"  spectator: {game.spectator}")
    typer.echo(f"API docs: http://{host}:{port}/docs   (Ctrl-C stops the server)")
    run(app, host, port)
