"""Rulesets register themselves here, so the engine never imports a ruleset (DESIGN: layering).

A ruleset package calls `register(RulesetEntry(...))` when it is imported. The engine looks a
ruleset up by id; on the first look-up it imports the plugin packages named in `PLUGINS` (the
shipped `kriegsspiel.rulesets`, which registers every shipped ruleset) and in the environment
variable `KRIEGSSPIEL_RULESETS` (comma-separated packages: out-of-tree rulesets). The engine
knows only those package names, never a ruleset's modules or names.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PLUGINS = ("kriegsspiel.rulesets",)
ENV = "KRIEGSSPIEL_RULESETS"


@dataclass(frozen=True)
class RulesetEntry:
    """What the engine and the faces need to know of a ruleset.

    `game_rules(options)` builds its `GameRules`; `scenarios` is the folder of its shipped
    scenarios; `forces_model(raw, side_id)` validates one side's `forces` block of a v2
    scenario (raising pydantic's ValidationError or ValueError); `unit` is the table's unit
    it plays in; `objective_radius` is the radius of an objective that gives none (None: every
    objective must give one); `table_plugin` names the browser table's plug-in
    (web/static/table-<plugin>.js); `worth` names what a piece is worth for victory (exit and
    losses by points, the ruleset filling `PieceStatus.points`), e.g. "army-list points", or
    None when every piece is worth 1 (an exit by `points` is then refused)."""

    id: str
    title: str
    game_rules: Callable[[dict[str, Any]], Any] | None = None
    scenarios: Path | None = None
    forces_model: Callable[[Any, str], Any] | None = None
    unit: str = "inch"
    objective_radius: float | None = None
    table_plugin: str = "generic"
    worth: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


_ENTRIES: dict[str, RulesetEntry] = {}
_LOADED = [False]


def register(entry: RulesetEntry) -> RulesetEntry:
    """Add (or replace, on a module reload) a ruleset's entry."""
    _ENTRIES[entry.id.casefold()] = entry
    return entry


def _load_plugins() -> None:
    if _LOADED[0]:
        return
    _LOADED[0] = True
    extra = [p.strip() for p in os.environ.get(ENV, "").split(",") if p.strip()]
    for name in (*PLUGINS, *extra):
        importlib.import_module(name)


def entries() -> list[RulesetEntry]:
    """Every registered ruleset, in registration order."""
    _load_plugins()
    return list(_ENTRIES.values())


def entry(ruleset: str) -> RulesetEntry:
    """The entry of a ruleset by id (LookupError naming the known ones)."""
    _load_plugins()
    hit = _ENTRIES.get(ruleset.casefold())
    if hit is None:
        raise LookupError(f"unknown ruleset {ruleset!r}; registered: {sorted(_ENTRIES)}")
    return hit


def game_rules(ruleset: str, options: dict[str, Any] | None = None) -> Any:
    """A fresh `GameRules` of the ruleset."""
    e = entry(ruleset)
    if e.game_rules is None:
        raise NotImplementedError(f"not implemented: games of the {ruleset} ruleset")
    return e.game_rules(dict(options or {}))


def playable(ruleset: str) -> bool:
    """Whether games of the ruleset can be played (it builds its `GameRules`)."""
    try:
        game_rules(ruleset)
    except (LookupError, NotImplementedError):
        return False
    return True
