"""`kriegsspiel simulate`: seeded batches of bot battles on local processes or Dask."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from ..ai.registry import RANDOM, make_bot
from ..engine import Game
from ..engine.options import BadOption, parse_pairs
from ..engine.scenario import find_scenario
from .common import console, fail, guarded, print_json


def _scenario(sid: str):
    try:
        return find_scenario(sid)
    except (KeyError, ValueError) as exc:
        fail(str(exc))


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


def check_scheduler(address: str, timeout: float = 3.0) -> None:
    """Fail in seconds, not after Dask's 30 s, when the scheduler cannot be reached."""
    parsed = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parsed.hostname, parsed.port or 8786
    except ValueError as exc:
        fail(f"--scheduler {address!r}: {exc}")
    if not host:
        fail(f"--scheduler {address!r}: expected tcp://HOST:PORT")
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        fail(f"cannot reach the Dask scheduler at {host}:{port}: {exc.strerror or exc}")


def prepare_out_dir(out: Path) -> None:
    """Check the output folder before any battle runs: it must be (or become) a writable folder."""
    if out.exists() and not out.is_dir():
        fail(f"--out {out}: exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--out {out}: cannot create the folder: {exc.strerror or exc}")
    if not os.access(out, os.W_OK):
        fail(f"--out {out}: the folder is not writable")


def print_summary(summary: dict[str, Any]) -> None:
    """The batch in words: results with rounded intervals, why battles ended, objectives."""
    from ..sim.report import pct, profile_text, side_colour

    n = summary["battles"] or 1
    for side, w in summary["wins"].items():
        lo, hi = w["ci95"]
        colour = side_colour(summary, side)
        console.print(
            f"[{colour}]{escape(side)}[/]: {pct(w['rate'])} wins (95% CI {pct(lo)}–{pct(hi)}), "
            f"AI {escape(profile_text(summary['profiles'].get(side, '-')))}"
        )
    d = summary["draws"]
    console.print(f"draws: {pct(d['rate'])} (95% CI {pct(d['ci95'][0])}–{pct(d['ci95'][1])})")
    t = summary["turns"]
    console.print(f"turns: mean {t['mean']:.2f}, shortest {t['min']}, longest {t['max']}")
    reasons = ", ".join(f"{r} {pct(c / n)}" for r, c in summary.get("reasons", {}).items())
    console.print(f"how battles ended: {escape(reasons or '-')}")
    for o, holders in summary["objective_control"].items():
        held = ", ".join(f"{h} {pct(v)}" for h, v in holders.items())
        console.print(f"objective {escape(o)} at the end: {escape(held)}")
    for side, types in summary["losses_per_battle"].items():
        lost = ", ".join(f"{t} {v:.2f}" for t, v in types.items()) or "none"
        colour = side_colour(summary, side)
        console.print(f"[{colour}]{escape(side)}[/] losses per battle: {escape(lost)}")


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
    if scheduler:
        check_scheduler(scheduler)
    if out is not None:
        prepare_out_dir(out)
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
        print_summary(summary)
        for f in files:
            console.print(f"wrote {f}", markup=False)

    guarded(body)
