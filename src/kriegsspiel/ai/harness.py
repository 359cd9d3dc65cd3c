"""Between a Game and a bot: what a bot is given (copies of JSON data and an odds callback
bound to its side, never the game) and how its decisions are played."""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable
from typing import Any

from ..data.errors import RuleError
from ..engine import Game, IllegalCommand
from .bot import Bot, Decision, NoLegalCommand, Odds, command_of, hints_for, where

MAX_RETRIES = 8  # rejected commands per decision before the bot's side ends the phase


_SCALARS = frozenset((str, int, float, bool, type(None)))
_STR = frozenset((str,))


def json_copy(data: Any) -> Any:
    """A deep copy that is only JSON data (no object of the engine can survive it): dicts with
    string keys, lists (tuples become lists), str, int, float, bool and None; anything else
    becomes its str(), as `json.dumps(default=str)` would make it (faster than that round
    trip, which the bots' hot path paid on every decision; plain scalars are taken as they
    are without a call)."""
    t = type(data)
    if t is dict:
        if _STR.issuperset(map(type, data)) and _SCALARS.issuperset(map(type, data.values())):
            return dict(data)  # flat, string keys (most dicts of a view): copied in C
        return {
            k if type(k) is str else str(k): v if type(v) in _SCALARS else json_copy(v)
            for k, v in data.items()
        }
    if t is list or t is tuple:
        return [v if type(v) in _SCALARS else json_copy(v) for v in data]
    if t in _SCALARS:
        return data
    if isinstance(data, bool):
        return bool(data)
    if isinstance(data, str):  # str enums: their value, as json writes them
        return str.__str__(data)
    if isinstance(data, int | float):
        return int(data) if isinstance(data, int) else float(data)
    return str(data)


class OddsTable:
    """The exact odds of a side's legal fire commands, computed before its bot is asked: plain
    JSON data, so that nothing the bot is given leads back to the game or its state."""

    __slots__ = ("table",)

    def __init__(self, table: dict[str, dict[str, Any] | str]):
        self.table = table

    def __call__(self, command: dict[str, Any]) -> dict[str, Any]:
        result = self.table.get(_key(command))
        if result is None:
            raise IllegalCommand("odds are offered for the legal fire commands", "type")
        if isinstance(result, str):
            raise IllegalCommand(result)
        return json_copy(result)  # the bot's own copy: the table is shared between games


_KEY = json.JSONEncoder(sort_keys=True, default=str)  # `json.dumps(sort_keys=True, default=str)`


def _key(command: dict[str, Any]) -> str:
    return _KEY.encode(command)


# odds already worked out, keyed by command and the ruleset's `odds_situation`: per rules and
# scenario (the games of a batch share them), held with both so that neither id is reused;
# per game where the ruleset gives no situation key
_MEMO: dict[tuple[int, int], tuple[Any, Any, dict[tuple, dict[str, Any] | str]]] = {}
_GAME_MEMO: weakref.WeakKeyDictionary[Game, dict[tuple, dict[str, Any] | str]] = (
    weakref.WeakKeyDictionary()
)
MEMO_SIZE = 20_000  # odds kept per rules and scenario
MEMOS_KEPT = 16  # rules and scenario pairs whose odds are kept


def _memo(game: Game) -> dict[tuple, dict[str, Any] | str]:
    if not hasattr(game.rules, "odds_situation"):
        return _GAME_MEMO.setdefault(game, {})
    key = (id(game.rules), id(game.scenario))
    hit = _MEMO.get(key)
    if hit is None or hit[0] is not game.rules or hit[1] is not game.scenario:
        if len(_MEMO) >= MEMOS_KEPT:
            _MEMO.clear()
        hit = _MEMO[key] = (game.rules, game.scenario, {})
    return hit[2]


def _odds_table(game: Game, side: str, legal: list[dict[str, Any]]) -> OddsTable:
    memo = _memo(game)
    situation = getattr(game.rules, "odds_situation", None)
    table: dict[str, dict[str, Any] | str] = {}
    hints = hints_for(game.scenario.ruleset)
    for t in legal:
        if t["type"] != "fire":
            continue
        cmd = command_of(t, hints)
        key = _key(cmd)
        # without the ruleset's situation key, odds are memoised for this state only
        at = situation(game.state, side, cmd) if situation else (len(game.events),)
        hit = memo.get((key, at))
        if hit is None:
            try:
                hit = json_copy(game.odds(side, cmd))
            except (IllegalCommand, RuleError) as exc:
                hit = str(exc)
            if len(memo) >= MEMO_SIZE:
                memo.clear()
            memo[(key, at)] = hit
        table[key] = hit
    return OddsTable(table)


STATIC = ("sides", "table", "terrain", "objectives")  # view parts no event changes
_STATIC_COPIES: weakref.WeakKeyDictionary[Game, dict[str, Any]] = weakref.WeakKeyDictionary()


def bot_inputs(game: Game, side: str) -> tuple[dict[str, Any], list[dict[str, Any]], Odds]:
    """The view, the legal templates and the odds callback that a bot of `side` is given.

    The view is the ruleset's fog-filtered view of `side` (what `Game.view` sends a player,
    without the event log, which bots do not read and which is costly to copy); its parts
    that no event changes (the table, terrain, objectives) are copied once per game, the rest
    on every call unless the ruleset builds its views afresh (`fresh_views`); the odds
    callback answers from a table of the legal fire commands' exact odds (`OddsTable`)."""
    full = game.rules.view(game.state, side)
    static = _STATIC_COPIES.get(game)
    if static is None:
        static = _STATIC_COPIES[game] = {k: json_copy(full[k]) for k in STATIC if k in full}
    if getattr(game.rules, "fresh_views", False):
        view = {k: static.get(k, v) for k, v in full.items()}
    else:
        view = {k: static[k] if k in static else json_copy(v) for k, v in full.items()}
    view["game"] = {"scenario": game.scenario.id, "ruleset": game.scenario.ruleset}
    legal = view.pop("legal")
    return view, legal, _odds_table(game, side, legal)


def act(
    game: Game, side: str, bot: Bot, on_decision: Callable[[Decision], None] | None = None
) -> list[Any]:
    """Let `bot` give one command for `side`. A rejected command is taken out of the legal list
    and the bot asked again; after MAX_RETRIES rejections the side ends the phase."""
    view, legal, odds = bot_inputs(game, side)
    if not legal:  # the rules made `side` act with nothing to do: a gap in the rules
        raise NoLegalCommand(f"{where(view, side)} (after {len(game.events)} events)")
    rejected: list[dict[str, Any]] = []
    for _ in range(MAX_RETRIES):
        decision = bot.decide(view, legal, odds)
        if rejected:
            decision.trace["rejected"] = rejected
        if on_decision:
            on_decision(decision)
        try:
            return game.submit(side, decision.command)
        except (IllegalCommand, RuleError) as exc:
            # RuleError: a few legal templates are refused by the rules themselves (e.g. a gun
            # that moved over half its move); treated like an illegal command
            rejected.append({"command": decision.command, "reason": str(exc)})
            cmd = decision.command
            legal = [t for t in legal if not _same_order(t, cmd)] or [{"type": "end_phase"}]
    return game.submit(side, {"type": "end_phase"})


def _same_order(template: dict[str, Any], cmd: dict[str, Any]) -> bool:
    keys = ("type", "unit", "target", "observer", "mission")
    if template["type"] == "move" == cmd["type"]:
        return False  # another path may be accepted: keep the template
    return all(template.get(k) == cmd.get(k) for k in keys)


def play(game: Game, bots: dict[str, Bot], max_commands: int = 5000) -> dict[str, Any] | None:
    """Play the game out with one bot per side; returns the outcome.

    Where both sides act in a phase (fire, close assault), their commands alternate one by one,
    so that neither side always shoots first."""
    last = None
    for _ in range(max_commands):
        if game.outcome is not None:
            break
        active = game.rules.active_sides(game.state)
        side = next((s for s in active if s != last), active[0])
        act(game, side, bots[side])
        last = side
    return game.outcome
