"""`kriegsspiel scenario ...` and `kriegsspiel game ...`: play from the command line.

Games live in the store (SQLite file `kriegsspiel.db` by default; `--db URL` or $KRIEGSSPIEL_DB).
Commands are JSON objects, e.g. '{"type": "fire", "unit": "g-panther", "target": "u-m4a"}';
see README "Game commands".
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from ..engine.briefing import briefing_lines
from ..engine.commands import IllegalCommand
from ..engine.game import Game
from ..engine.options import parse_pairs
from ..engine.scenario import all_scenarios, find_scenario
from ..engine.store import Store
from ..engine.verify import verify
from .common import console, fail, guarded, print_json

scenario_app = typer.Typer(help="Shipped scenarios.", no_args_is_help=True)
game_app = typer.Typer(
    help="Play a game: create, command, view, log, replay, undo, show.", no_args_is_help=True
)
DB = Annotated[
    str | None, typer.Option("--db", help="database URL (default sqlite:///kriegsspiel.db)")
]
JSON_OPT = Annotated[bool, typer.Option("--json", help="print JSON")]


@scenario_app.command("list")
def scenario_list(as_json: JSON_OPT = False) -> None:
    """Every shipped scenario."""

    def body():
        rows = [
            {
                "id": s.id,
                "name": s.name,
                "ruleset": s.ruleset,
                "turns": s.victory.turn_limit,
                "sides": [x.id for x in s.sides],
            }
            for s in all_scenarios()
        ]
        if as_json:
            print_json(rows)
        else:
            for r in rows:
                console.print(
                    f"{r['id']:28} {r['ruleset']:12} {r['turns']:>2} turns  {r['name']}",
                    markup=False,
                )

    guarded(body)


@scenario_app.command("show")
def scenario_show(
    ident: Annotated[str, typer.Argument(help="scenario id or file")],
    out: Annotated[
        Path | None, typer.Option(help="write a picture of the table (.png or .svg)")
    ] = None,
    as_json: JSON_OPT = False,
) -> None:
    """A scenario's forces and terrain, optionally with a picture of the table."""

    def body():
        sc = find_scenario(ident)
        if out:
            from ..render import render_view  # matplotlib: only when a picture is asked for

            try:  # the umpire's view at the start, where the ruleset plays games
                view = Game(sc, 0).view("umpire")
            except NotImplementedError:  # else the table as the scenario sets it up
                view = sc.setup_view()
            render_view(view, out, title=sc.name)
        if as_json:
            print_json(sc.model_dump())
            return
        console.print(sc.name, style="bold", markup=False)
        console.print(sc.description, markup=False)
        for s in sc.sides:
            kinds = Counter(u.name or u.type for u in sc.pieces(s.id))
            console.print(
                f"{s.name} ({s.id}, {s.nation}): "
                + ", ".join(f"{n} x {k}" if n > 1 else k for k, n in kinds.items()),
                markup=False,
            )
        if sc.briefing:
            console.print("briefing:", markup=False)
            for para in sc.briefing.strip().splitlines():
                console.print(f"  {para}", markup=False)
        for line in briefing_lines(sc):
            console.print(line, markup=False)
        if out:
            console.print(f"picture: {out}", markup=False)

    guarded(body)


def _load(store: Store, game_id: str) -> Game:
    return store.load(game_id)


@game_app.command("new")
def game_new(
    scenario: Annotated[str, typer.Argument(help="scenario id or file")],
    seed: Annotated[
        int | None,
        typer.Option(
            help="a chosen seed (same seed and commands, same dice; not secret); leave out for "
            "a secret 256-bit seed revealed when the game ends"
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="name=value, repeatable: undo=consent|free|off and the ruleset's options "
            "(README: Fair play; docs/decisions/)",
        ),
    ] = None,
    no_undo: Annotated[bool, typer.Option("--no-undo", help="same as --option undo=off")] = False,
    db: DB = None,
    as_json: JSON_OPT = False,
) -> None:
    """Create a game; prints its id (and, with --json, its seed commitment)."""

    def body():
        sc = find_scenario(scenario)
        options = parse_pairs(option or [])
        if no_undo:
            options.setdefault("undo", "off")
        game = Game(sc, seed, options)
        Store(db).create(game)
        if as_json:
            print_json(
                {
                    "id": game.id,
                    "scenario": sc.id,
                    "commitment": game.commitment,
                    "seed": str(seed) if seed is not None else None,
                    "options": game.options,
                    "sides": game.sides,
                }
            )
        else:
            print(game.id)

    guarded(body)


@game_app.command("verify")
def game_verify(
    game_id: Annotated[str, typer.Argument(help="game id")],
    db: DB = None,
    as_json: JSON_OPT = False,
) -> None:
    """Check a finished game's whole log against the seed commitment published at its start:
    the seed must match, and playing every recorded command again must write the same events
    and state hash. Exit 1 if not. (Run by the umpire, it also checks a game still running.)"""

    def body():
        game = _load(Store(db), game_id)
        verdict = verify(game)
        if as_json:
            print_json(verdict.to_json())
        else:
            console.print(
                f"{'verified' if verdict.ok else 'NOT VERIFIED'}: {verdict.commands} commands, "
                f"{verdict.events} events; commitment {verdict.commitment[:16]}…"
                f"{'' if game.outcome else ' (game still running)'}",
                markup=False,
            )
            for p in verdict.problems:
                console.print(f"  {p}", markup=False)
        if not verdict.ok:
            raise typer.Exit(1)

    guarded(body)


@game_app.command("command")
def game_command(
    game_id: Annotated[str, typer.Argument(help="game id")],
    side: Annotated[str, typer.Argument(help="side giving the command")],
    command: Annotated[str, typer.Argument(help="the command as JSON")],
    db: DB = None,
    as_json: JSON_OPT = False,
) -> None:
    """Give one command; prints the events it caused (as that side sees them)."""

    def body():
        try:
            cmd = json.loads(command)
        except json.JSONDecodeError as exc:
            raise ValueError(f"command is not JSON: {exc.msg} at column {exc.colno}") from None
        store = Store(db)
        game = _load(store, game_id)
        try:
            new = game.submit(side, cmd)
        except IllegalCommand as exc:
            if as_json:
                print_json(exc.to_json())
                raise SystemExit(2) from None
            fail(f"illegal command: {exc.reason}")
        store.append(game.id, new)
        shown = game.entries_for(side, new)  # as that side sees them, in its own numbers
        if as_json:
            print_json({"events": shown, "outcome": game.outcome})
            return
        for e in shown:
            console.print(f"[{e['index']}] {e['type']} {json.dumps(e['data'])}", markup=False)
            for line in e["explanation"]:
                console.print(f"      {line}", markup=False)
        if game.outcome:
            console.print(f"game over: {game.outcome}", markup=False)

    guarded(body)


@game_app.command("view")
def game_view(
    game_id: Annotated[str, typer.Argument(help="game id")],
    side: Annotated[str, typer.Argument(help="a side, umpire or spectator")],
    db: DB = None,
    as_json: JSON_OPT = False,
) -> None:
    """What that side may see now, and the commands it may give."""

    def body():
        game = _load(Store(db), game_id)
        v = game.view(side)
        if as_json:
            print_json(v)
            return
        console.print(
            f"turn {v['turn']}/{v.get('turn_limit')} — {v['phase_title']} — "
            f"to act: {', '.join(v['active']) or '-'}",
            markup=False,
        )
        # the ruleset's own section (envelope): its plain values, one a line
        for key, val in (v.get(v["ruleset"]) or {}).items():
            if val is None or isinstance(val, str | int | float | bool):
                console.print(f"  {key.replace('_', ' ')}: {val}", markup=False)
        if v.get("prompt"):
            console.print(f"  prompt: {json.dumps(v['prompt'])}", markup=False)
        for u in v["units"]:
            if not u.get("removed"):
                console.print(
                    f"  own   {u['id']:14} {u['name']:24} ({u['x']:.1f}, {u['y']:.1f})",
                    markup=False,
                )
        for u in v["enemies"]:
            console.print(
                f"  enemy {u['id']:14} {u['name']:24} ({u['x']:.1f}, {u['y']:.1f})", markup=False
            )
        for u in v["last_known"]:
            when = f" turn {u['turn']}" if "turn" in u else ""
            console.print(
                f"  last seen {u['id']:10} ({u['x']:.1f}, {u['y']:.1f}){when}", markup=False
            )
        for c in v["legal"][:30]:
            console.print(f"  may: {json.dumps(c)}", markup=False)
        if v["outcome"]:
            console.print(f"game over: {v['outcome']}", markup=False)

    guarded(body)


@game_app.command("log")
def game_log(
    game_id: Annotated[str, typer.Argument(help="game id")],
    side: Annotated[str, typer.Option(help="show the log as this side sees it")] = "umpire",
    db: DB = None,
    as_json: JSON_OPT = False,
) -> None:
    """The log with every roll's explanation."""

    def body():
        game = _load(Store(db), game_id)
        if side not in (*game.sides, "umpire", "spectator"):
            raise LookupError(f"unknown side {side!r}; sides are {', '.join(game.sides)}")
        evs = game.log_for(side)  # the side's own numbering (the umpire's: the true one)
        if as_json:
            print_json(evs)
            return
        for e in evs:
            console.print(
                f"[{e['index']}] {e['side'] or '-'} {e['type']} {json.dumps(e['data'])}",
                markup=False,
            )
            if e["data"].get("reason"):  # why the umpire changed the step by itself
                console.print(f"      why: {e['data']['reason']}", markup=False)
            for line in e["explanation"]:
                console.print(f"      {line}", markup=False)

    guarded(body)


@game_app.command("replay")
def game_replay(game_id: Annotated[str, typer.Argument(help="game id")], db: DB = None) -> None:
    """Fold the saved log afresh and check it reproduces the state exactly."""

    def body():
        game = _load(Store(db), game_id)
        again = game.replay()
        same = again.state_hash() == game.state_hash()
        console.print(
            f"{len(game.events)} events; state hash {game.state_hash()[:16]} "
            f"{'reproduced' if same else 'DIFFERS'}",
            markup=False,
        )
        if not same:
            raise typer.Exit(1)

    guarded(body)


@game_app.command("undo")
def game_undo(
    game_id: Annotated[str, typer.Argument(help="game id")],
    side: Annotated[str, typer.Option(help="who asks (default the umpire)")] = "umpire",
    db: DB = None,
) -> None:
    """Undo the last command still in force (if the game allows undo)."""

    def body():
        store = Store(db)
        game = _load(store, game_id)
        try:
            new = game.undo(side)
        except IllegalCommand as exc:
            fail(f"cannot undo: {exc.reason}")
        store.append(game.id, new)
        what = {"undo": "undone", "undo_request": "asked the other side to undo"}
        console.print(f"{what[new[0].type]} command {new[0].data['command']}", markup=False)

    guarded(body)


@game_app.command("show")
def game_show(
    game_id: Annotated[str, typer.Argument(help="game id")],
    out: Annotated[Path, typer.Option(help="picture file (.png or .svg)")],
    side: Annotated[str, typer.Option(help="draw the table as this side sees it")] = "umpire",
    db: DB = None,
) -> None:
    """A picture of the table as one side sees it."""

    def body():
        from ..render import render_view  # matplotlib: only when a picture is asked for

        game = _load(Store(db), game_id)
        render_view(game.view(side), out)
        console.print(f"wrote {out}", markup=False)

    guarded(body)
