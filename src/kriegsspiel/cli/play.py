"""`kriegsspiel play`: a human against the AI in the terminal.

Each step lists the human's legal commands in words (unit names and positions, fire with its
exact odds); the AI's actions and every loss are told in words, as the human's side sees
them. The game is stored like any other (`game view`, `game log` work on it): `q` leaves it
and `play --resume GAME` goes on.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..ai.bot import hints_for
from ..ai.registry import RANDOM, make_bot
from ..engine import Game, IllegalCommand
from ..engine.scenario import find_scenario
from ..engine.store import Store
from .common import console, fail

HELP = """commands:
  N            give command N of the list (a move then asks for the destination "x y")
  odds N       the exact odds of fire command N
  map          a text map of the table as you see it;  map FILE.png  a picture of it
  units        your units and the enemies you see, with their state
  end          end this step (an empty line asks first when you still have actions)
  {...}        a command as JSON (see the README, "Game commands")
  q            leave; the game is saved: kriegsspiel play --resume GAME
  help         this text"""

STATE_WORDS = {
    "removed": ("is knocked out", "is back"),
    "suppressed": ("is suppressed", "is no longer suppressed"),
    "damaged": ("is damaged", "is repaired"),
    "tracked": ("is tracked (cannot move)", "can move again"),
    "retreating": ("retreats", "stops retreating"),
    "buttoned": ("buttons up", "opens its hatches"),
}
QUIET_EVENTS = {"phase", "end_phase", "results_applied", "start", "pending_now"}


class Names:
    """Unit names as the human's side knows them (own units, enemies seen): never more."""

    def __init__(self, view: dict[str, Any]):
        self.units = {u["id"]: u for u in [*view["units"], *view["enemies"]]}
        self.sides = {s["id"]: s.get("name", s["id"]) for s in view.get("sides", [])}

    def __call__(self, ident: Any) -> str:
        u = self.units.get(ident)
        return f"{u['name']}" if u else str(ident)

    def where(self, ident: Any) -> str:
        u = self.units.get(ident)
        return f"{u['name']} at ({u['x']:.1f}, {u['y']:.1f})" if u else str(ident)

    def distance(self, a: Any, b: Any) -> float | None:
        ua, ub = self.units.get(a), self.units.get(b)
        if not ua or not ub:
            return None
        return math.dist((ua["x"], ua["y"]), (ub["x"], ub["y"]))


def describe_command(t: dict[str, Any], names: Names) -> str:
    """A legal command template in words."""
    kind = t["type"]
    if kind == "end_phase":
        return "end this step"
    if kind == "initiative":
        return f"initiative: {t['side_a']} is side A (acts first) this turn"
    if kind == "hatches":
        return "hatches: " + ", ".join(
            f"{'button up' if b else 'open'} {names(u)}" for u, b in t["buttoned"].items()
        )
    if kind == "move":
        text = f'move {names.where(t["unit"])}, up to {t.get("max", "?")}"'
        return text + (" (suppressed: withdraw only)" if t.get("withdraw_only") else "")
    if kind == "fire":
        firers = t.get("units") or [t["unit"]]
        d = names.distance(firers[0], t["target"])
        rng = f' at {d:.1f}"' if d is not None else ""
        how = " (suppressive)" if t.get("suppressive") else ""
        weapon = f" with {t['weapon']}" if t.get("weapon") else ""
        shooters = " + ".join(names(u) for u in firers)
        return f"fire{how}: {shooters}{weapon} at {names(t['target'])}{rng}"
    if kind == "assault":
        attackers = " + ".join(names(u) for u in (t.get("units") or [t["unit"]]))
        return f"close assault: {attackers} against {names(t['target'])}"
    if kind == "call_fire":
        at = names(t["target_hint"]) if t.get("target_hint") else f"({t['x']:.1f}, {t['y']:.1f})"
        return f"call fire: {names(t['observer'])} calls {t['battery']} on {at}"
    if kind in ("hold", "adjust"):
        return f"{kind} fire mission {t['mission']}"
    if kind == "dismount":
        return f"dismount {names.where(t['unit'])}"
    rest = {k: names(v) if isinstance(v, str) else v for k, v in t.items() if k != "type"}
    return f"{kind}: " + ", ".join(f"{k} {v}" for k, v in rest.items())


def describe_event(e: Any, names: Names) -> str | None:
    """One event in words (None for bookkeeping the player need not read)."""
    d, who = e.data, names.sides.get(e.side, e.side or "umpire")
    if e.type == "end_phase" and d.get("auto"):  # a step change the player did not ask for
        side = names.sides.get(d.get("side"), d.get("side"))
        return f"{side}'s step ended by itself: {d.get('reason') or 'nothing left to do'}"
    if e.type in QUIET_EVENTS:
        return None
    if e.type == "fire":
        shooters = " + ".join(names(u) for u in d.get("firers", []))
        return f"{who}: {shooters} fires at {names(d.get('target'))}: {d.get('outcome')}"
    if e.type == "move":
        end = d["path"][-1]
        return f'{who}: {names(d["unit"])} moves {d.get("distance", 0):.1f}" to ({end[0]:.1f}, {end[1]:.1f})'
    if e.type == "update":
        parts = []
        for key, value in d.get("set", {}).items():
            words = STATE_WORDS.get(key)
            if words and isinstance(value, bool):
                parts.append(words[0] if value else words[1])
            elif key == "stands":
                parts.append(f"is down to {value} stands")
        if not parts:
            return None
        return f"{names(d['unit'])} " + " and ".join(parts)
    if e.type == "assault":
        attackers = " + ".join(names(u) for u in d.get("units", []))
        return f"{who}: {attackers} assault {names(d.get('target'))}: {d.get('outcome')}"
    if e.type == "assault_declared":
        return f"{who}: {' + '.join(names(u) for u in d.get('units', []))} go in against {names(d.get('target'))}"
    if e.type == "initiative":
        return f"initiative won by {names.sides.get(d.get('winner'), d.get('winner'))}"
    if e.type == "hatches":
        return f"{who}: " + ", ".join(
            f"{names(u)} {'buttons up' if b else 'opens its hatches'}"
            for u, b in d.get("buttoned", {}).items()
        )
    if e.type == "side_a":
        return f"{names.sides.get(d['side'], d['side'])} is side A this turn"
    if e.type == "note":
        return f"note: {d.get('text')}"
    if e.type == "game_over":
        return None  # told by the ending
    if e.explanation:
        return f"{who}: {e.type}: " + "; ".join(e.explanation)
    return f"{who}: {e.type} " + json.dumps(d, default=str)


def outcome_text(outcome: dict[str, Any], names: Names) -> str:
    winner = outcome.get("winner")
    head = f"{names.sides.get(winner, winner)} wins" if winner else "a draw"
    return f"game over after turn {outcome.get('turn', '?')}: {head} ({outcome.get('reason', '')})"


def text_map(view: dict[str, Any], cols: int = 64) -> list[str]:
    """The table as characters: your units as letters A.., enemies seen as a.., last-seen
    enemies as ?, objectives as *; a legend follows."""
    width, depth = float(view["table"]["width"]), float(view["table"]["depth"])
    rows = max(8, round(cols * depth / width / 2))  # a character is about twice as tall
    grid = [["." for _ in range(cols)] for _ in range(rows)]

    def put(x: float, y: float, ch: str) -> None:
        c = min(cols - 1, max(0, int(x / width * cols)))
        r = min(rows - 1, max(0, int((depth - y) / depth * rows)))  # north (+y) at the top
        grid[r][c] = ch

    legend = []
    for o in view.get("objectives", []):
        put(o["x"], o["y"], "*")
        legend.append(f"* {o['name']} ({o['x']:g}, {o['y']:g})")
    for u in view.get("last_known", []):
        put(u["x"], u["y"], "?")
    own = [u for u in view["units"] if not u.get("removed")]
    for i, u in enumerate(own):
        ch = chr(ord("A") + i % 26)
        put(u["x"], u["y"], ch)
        legend.append(f"{ch} {u['name']} ({u['x']:.1f}, {u['y']:.1f})")
    for i, u in enumerate(view["enemies"]):
        ch = chr(ord("a") + i % 26)
        put(u["x"], u["y"], ch)
        legend.append(f"{ch} enemy {u['name']} ({u['x']:.1f}, {u['y']:.1f})")
    scale = f'  one column = {width / cols:.2g}", north up'
    return ["".join(r) for r in grid] + [scale, *legend]


def unit_lines(view: dict[str, Any]) -> list[str]:
    flags = ("suppressed", "damaged", "tracked", "buttoned", "hidden")
    out = []
    for label, units in (("yours", view["units"]), ("enemy", view["enemies"])):
        for u in units:
            if u.get("removed"):
                continue
            state = ", ".join(f for f in flags if u.get(f)) or "ready"
            out.append(f"{label:5} {u['name']:24} ({u['x']:.1f}, {u['y']:.1f})  {state}")
    return out


class Session:
    """One human seat against one AI seat over a stored game."""

    def __init__(self, game: Game, store: Store, human: str, ai: str, profile: str, readline):
        self.game, self.store, self.human, self.ai, self.profile = game, store, human, ai, profile
        self.readline: Callable[[], str] = readline

    def say(self, text: str, style: str | None = None) -> None:
        console.print(escape(text) if style is None else f"[{style}]{escape(text)}[/]")

    def names(self) -> Names:
        return Names(self.game.view(self.human))

    def tell(self, events: list[Any]) -> None:
        names = self.names()
        for e in events:
            if not e.visible(self.human):
                continue
            text = describe_event(e, names)
            if text:
                self.say("  " + text, "red" if e.side == self.ai else None)

    def commit(self, new: list[Any]) -> None:
        self.store.append(self.game.id, new)
        self.tell(new)

    def ask(self, prompt: str) -> str | None:
        console.print(prompt, end="", markup=False)
        line = self.readline()
        return None if line == "" else line.strip()

    def odds_text(self, cmd: dict[str, Any]) -> str:
        try:
            odds = self.game.odds(self.human, cmd)
        except IllegalCommand:
            return ""
        shown = [f"{k} {v:.0%}" for k, v in odds["outcomes"].items() if v > 0]
        return "  odds: " + ", ".join(shown)

    def show_step(self, legal: list[dict[str, Any]]) -> None:
        v = self.game.view(self.human)
        names = Names(v)
        self.say(
            f"turn {v['turn']}/{v.get('turn_limit')}: {v['phase_title']} "
            f"(side A: {names.sides.get(v['side_a'], v['side_a']) or 'not yet'})",
            "bold",
        )
        for i, t in enumerate(legal, 1):
            line = f"  {i:>2}. {describe_command(t, names)}"
            if t["type"] == "fire":
                line += self.odds_text(self.strip(t))
            self.say(line)

    def strip(self, t: dict[str, Any]) -> dict[str, Any]:
        hints = hints_for(self.game.scenario.ruleset)  # template-only keys (registry entry)
        return {k: v for k, v in t.items() if k not in hints}

    def point(self, what: str) -> list[float] | None:
        while True:
            line = self.ask(f'  {what} as "x y" (empty cancels): ')
            if not line:
                return None
            try:
                x, y = (float(p) for p in line.replace(",", " ").split()[:2])
                return [x, y]
            except ValueError:
                self.say(f"  not a position: {line!r}; two numbers, e.g. 20 24", "yellow")

    def command_from(self, t: dict[str, Any]) -> dict[str, Any] | None:
        cmd = self.strip(t)
        if cmd["type"] == "move":
            dest = self.point(f'destination (up to {t.get("max", "?")}")')
            if dest is None:
                return None
            cmd["path"] = [dest]
        return cmd

    def read(self, legal: list[dict[str, Any]]) -> dict[str, Any] | str | None:
        """The player's next command; 'quit' to leave; None to list the step again."""
        line = self.ask("> ")
        if line is None or line.lower() in ("q", "quit", "exit"):
            return "quit"
        word, _, arg = line.partition(" ")
        word = word.lower()
        if word in ("help", "h", "?"):
            self.say(HELP)
        elif word == "map":
            view = self.game.view(self.human)
            if arg:
                from ..render import render_view  # matplotlib: only when a picture is asked for

                render_view(view, Path(arg.strip()))
                self.say(f"  wrote {arg.strip()}")
            else:
                for row in text_map(view):
                    self.say("  " + row)
        elif word == "units":
            for row in unit_lines(self.game.view(self.human)):
                self.say("  " + row)
        elif word in ("end", "e"):
            return {"type": "end_phase"}
        elif line == "":
            left = [t for t in legal if t["type"] != "end_phase"]
            if not left:
                return {"type": "end_phase"}
            sure = self.ask(f"  end this step with {len(left)} actions left? [y/N] ")
            if sure and sure.lower() in ("y", "yes"):
                return {"type": "end_phase"}
        elif word == "odds" and arg.strip().isdigit():
            n = int(arg)
            if 1 <= n <= len(legal) and legal[n - 1]["type"] == "fire":
                self.say(self.odds_text(self.strip(legal[n - 1])).strip() or "  no odds")
            else:
                self.say(f"  {n} is not a fire command of the list", "yellow")
        elif line.startswith("{"):
            try:
                cmd = json.loads(line)
            except json.JSONDecodeError as exc:
                self.say(f"  not JSON: {exc.msg} at column {exc.colno}", "yellow")
                return None
            return cmd if isinstance(cmd, dict) else None
        elif line.isdigit():
            n = int(line)
            if 1 <= n <= len(legal):
                return self.command_from(legal[n - 1])
            self.say(f"  choose 1 to {len(legal)}", "yellow")
        else:
            self.say(f"  not understood: {line!r} (type help)", "yellow")
        return None

    def run(self) -> int:
        self.say(
            f"game {self.game.id}: you play {self.human}; the AI ({self.profile}) plays {self.ai}"
        )
        self.say("type help for the commands; q leaves (the game is saved)")
        listed = None
        while self.game.outcome is None:
            active = self.game.rules.active_sides(self.game.state)
            if self.ai in active:
                from ..ai.seat import run_ai

                self.commit(run_ai(self.game, self.ai, self.profile))
                listed = None
                continue
            legal = self.game.legal_commands(self.human)
            key = (len(self.game.events), len(legal))
            if listed != key:
                self.show_step(legal)
                listed = key
            cmd = self.read(legal)
            if cmd == "quit":
                self.say(f"game saved: kriegsspiel play --resume {self.game.id}")
                return 0
            if cmd is None:
                continue
            try:
                self.commit(self.game.submit(self.human, cmd))
            except IllegalCommand as exc:
                self.say(f"  refused: {exc.reason}", "yellow")
        self.say(outcome_text(self.game.outcome, self.names()), "bold")
        return 0


def play(
    scenario: Annotated[
        str | None, typer.Argument(help="scenario id or file (not with --resume)")
    ] = None,
    ai: Annotated[str | None, typer.Option("--ai", help="the side the computer plays")] = None,
    profile: Annotated[str, typer.Option("--profile", help="AI profile")] = "balanced",
    seed: Annotated[
        int | None, typer.Option("--seed", help="a chosen seed (default: a secret one)")
    ] = None,
    resume: Annotated[
        str | None, typer.Option("--resume", help="go on with a game left with q")
    ] = None,
    db: Annotated[
        str | None, typer.Option("--db", help="database URL (default sqlite:///kriegsspiel.db)")
    ] = None,
) -> None:
    """Play a scenario against the AI in the terminal (type help at the prompt)."""
    store = Store(db)
    if resume:
        if scenario:
            fail("give a scenario or --resume GAME, not both")
        game = store.load(resume)
        meta = store.meta(resume).get("play")
        if not meta:
            fail(f"game {resume} was not started with play; use kriegsspiel game ...")
        ai, profile = meta["ai"], meta["profile"]
    else:
        if not scenario or not ai:
            fail("give a scenario and --ai SIDE (or --resume GAME)")
        game = Game(find_scenario(scenario), seed=seed)
        if ai not in game.sides:
            fail(f"unknown side {ai!r}; sides are {', '.join(game.sides)}")
        if profile != RANDOM:
            try:
                make_bot(game.scenario.ruleset, profile)  # exit 2 naming an unknown profile
            except (ValueError, NotImplementedError) as exc:
                fail(str(exc))
        store.create(game, {"play": {"ai": ai, "profile": profile}})
    human = next(s for s in game.sides if s != ai)
    raise typer.Exit(Session(game, store, human, ai, profile, sys.stdin.readline).run())
