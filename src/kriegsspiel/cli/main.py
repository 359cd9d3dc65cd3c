"""The `kriegsspiel` command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import click
import typer

from . import army_cmd, data_cmd, demo, game_cmd, play, serve_cmd, sim_cmd
from .common import STATE
from .errors import handle
from .odds import odds_group, resolve_group

app = typer.Typer(
    help="Kriegsspiel: a digital umpire for WWII tactical miniatures wargames.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(data_cmd.app, name="data")
app.add_typer(army_cmd.app, name="army")
app.add_typer(game_cmd.scenario_app, name="scenario")
app.add_typer(game_cmd.game_app, name="game")
app.command("play")(play.play)
app.command("simulate")(sim_cmd.simulate)


@app.callback()
def _root(
    data_overlay: Annotated[
        list[Path] | None,
        typer.Option(
            "--data-overlay",
            help="overlay file laid over the shipped data (repeatable); "
            "also $KRIEGSSPIEL_DATA_OVERLAY",
        ),
    ] = None,
) -> None:
    STATE.overlays = tuple(data_overlay) if data_overlay else None


app.command("serve")(serve_cmd.serve)
app.command("demo")(demo.demo)


def cli() -> click.Group:
    group = typer.main.get_group(app)
    group.add_command(odds_group())
    group.add_command(resolve_group())
    return group


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; every user error is one line and exit 2, a bug exit 1 (cli/errors.py)."""
    return handle(
        lambda: cli().main(
            args=argv if argv is not None else sys.argv[1:],
            prog_name="kriegsspiel",
            standalone_mode=False,
        )
    )


if __name__ == "__main__":
    raise SystemExit(main())
