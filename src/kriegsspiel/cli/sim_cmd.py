"""`kriegsspiel play` (a human against the AI in the terminal) and `kriegsspiel simulate`
(seeded batches of bot battles on local processes or Dask)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from ..ai.bot import command_of, hints_for
from ..ai.registry import RANDOM, make_bot
from ..ai.seat import run_ai
from ..engine import Game, IllegalCommand
from ..engine.options import BadOption, parse_pairs
from ..engine.scenario import find_scenario
from .common import console, fail, guarded, print_json


def _scenario(sid: str):
    try:
        return find_scenario(sid)
    except (KeyError, ValueError) as exc:
        fail(str(exc))


def _show_events(events: list[Any], side: str) -> None:
    for e in events:
        if e.visible(side) and e.type not in ("phase", "end_phase"):
            text = "; ".join(e.explanation) if e.explanation else json.dumps(e.data, default=str)
            console.print(f"  [dim]{e.side or 'umpire'}[/] {e.type}: {text}", highlight=False)


def _read_command(
    legal: list[dict[str, Any]], line: str, readline, ruleset: str
) -> dict[str, Any] | None:
    """A command from a line: a number from the list, JSON, or empty for end_phase."""
    line = line.strip()
    if not line or line in ("e", "end"):
        return {"type": "end_phase"}
    if line.startswith("{"):
        return json.loads(line)
    t = legal[int(line) - 1]
    cmd = command_of(t, hints_for(ruleset))
    if cmd["type"] == "move" and "max" in t and "path" not in cmd:
        console.print(f'  destination "x y" (up to {t["max"]}"):')
        x, y = readline().split()[:2]
        cmd["path"] = [[float(x), float(y)]]
    return cmd


def play(
    scenario: Annotated[str, typer.Argument(help="scenario id, e.g. qr-crossroads-armour")],
    ai: Annotated[str, typer.Option("--ai", help="the side the computer plays")],
    profile: Annotated[str, typer.Option("--profile", help="AI profile")] = "balanced",
    seed: Annotated[
        int | None, typer.Option("--seed", help="a chosen seed (default: a secret one)")
    ] = None,
) -> None:
    """Play a scenario against the AI: enter a number from the legal list, a JSON command, or
    an empty line to end the phase ('q' quits)."""
    sc = _scenario(scenario)
    game = Game(sc, seed=seed)
    if ai not in game.sides:
        fail(f"unknown side {ai!r}; sides are {game.sides}")
    _check_profile(sc.ruleset, profile)
    human = next(s for s in game.sides if s != ai)
    readline = sys.stdin.readline
    console.print(f"{sc.name}: you are {human}, the AI ({profile}) plays {ai}")
    while game.outcome is None:
        active = game.rules.active_sides(game.state)
        if ai in active:
            _show_events(run_ai(game, ai, profile), human)
            continue
        legal = game.legal_commands(human)
        v = game.view(human)
        console.print(f"[bold]turn {v['turn']}, {v['phase']}[/] — your commands:")
        for i, t in enumerate(legal, 1):
            console.print(f"  {i:>3}. {json.dumps(t)}", highlight=False)
        line = readline()
        if not line or line.strip() == "q":
            console.print("input ended: game left unfinished")
            raise typer.Exit(0)
        try:
            cmd = _read_command(legal, line, readline, sc.ruleset)
            _show_events(game.submit(human, cmd), human)
        except (ValueError, IndexError) as exc:
            console.print(f"[red]not understood:[/] {exc}")
        except IllegalCommand as exc:
            console.print(f"[red]illegal:[/] {exc.reason}")
    console.print(f"[bold]game over:[/] {json.dumps(game.outcome)}")


def _check_profile(ruleset: str, profile: str) -> None:
    """Exit 2 naming the profile if the ruleset's bots do not know it."""
    if profile == RANDOM:
        return
    try:
        make_bot(ruleset, profile)
    except (ValueError, NotImplementedError) as exc:
        fail(str(exc))


def _parse_ai(pairs: list[str] | None, ruleset: str) -> dict[str, str]:
    out = {}
    for p in pairs or []:
        side, sep, prof = p.partition("=")
        if not sep:
            fail(f"--ai takes SIDE=PROFILE, got {p!r}")
        _check_profile(ruleset, prof)
        out[side] = prof
    return out


def simulate(
    scenario: Annotated[str, typer.Argument(help="scenario id")],
    battles: Annotated[int, typer.Option("--battles", min=1)] = 100,
    seed: Annotated[int, typer.Option("--seed", help="master seed")] = 0,
    workers: Annotated[int, typer.Option("--workers", min=1)] = 1,
    executor: Annotated[str, typer.Option("--executor", help="local or dask")] = "local",
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Dask scheduler, e.g. tcp://host:8786")
    ] = None,
    ai: Annotated[
        list[str] | None,
        typer.Option("--ai", help="SIDE=PROFILE (repeatable; PROFILE 'random' = random bot)"),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="name=value: a game option (repeatable)"),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="folder for JSON, CSV, HTML")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Run seeded bot-vs-bot battles and report win rates, losses, turns, objectives."""
    from ..sim import BattleSpec, battle_seed, run_battles, summarize
    from ..sim.report import write_report

    sc = _scenario(scenario)
    profiles = _parse_ai(ai, sc.ruleset)
    unknown = set(profiles) - set(sc.side_ids)
    if unknown:
        fail(f"unknown side(s) {sorted(unknown)}; sides are {sc.side_ids}")
    if executor not in ("local", "dask"):
        fail(f"unknown executor {executor!r}; use local or dask")
    if scheduler and executor != "dask":
        fail("--scheduler needs --executor dask")
    # a scenario file is run as that file (a designer's edited copy), not the shipped one
    # with the same id; Dask workers on other machines need the file at the same path
    ident = str(Path(scenario).resolve()) if Path(scenario).suffix in (".yaml", ".yml") else sc.id
    try:
        options = parse_pairs(option or [])
        Game(sc, 0, options)  # an unknown option or a bad value: exit 2 before any battle
    except BadOption as exc:
        fail(str(exc))
    specs = [BattleSpec(ident, i, battle_seed(seed, i), profiles, options) for i in range(battles)]

    def body():
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=as_json,
            disable=as_json,
        ) as bar:
            task = bar.add_task(f"{sc.id} ({executor})", total=battles)
            results = run_battles(
                specs, executor, workers, scheduler, progress=lambda _r: bar.advance(task)
            )
        summary = summarize(results)
        files = write_report(out, summary, results) if out else []
        if as_json:
            print_json(summary)
            return
        for side, w in summary["wins"].items():
            lo, hi = w["ci95"]
            console.print(f"{side}: {w['rate']:.1%} wins (95% CI {lo:.1%}–{hi:.1%})")
        d = summary["draws"]
        console.print(f"draws: {d['rate']:.1%} (95% CI {d['ci95'][0]:.1%}–{d['ci95'][1]:.1%})")
        console.print(f"mean turns: {summary['turns']['mean']:.2f}")
        for f in files:
            console.print(f"wrote {f}")

    guarded(body)
