"""The rulesets Kriegsspiel implements, each a package with the same face to the engine."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from types import ModuleType

from ..data.catalogue import Catalogue, load_catalogue, overlay_paths_from_env
from ..engine.registry import RulesetEntry, register

RULESETS = {
    "quickref": "kriegsspiel.rulesets.quickref",
    "panzerfaust": "kriegsspiel.rulesets.panzerfaust",
    "battleground": "kriegsspiel.rulesets.battleground",
}


HERE = Path(__file__).parent


def _game_rules(package: str):
    """The factory of a ruleset's `GameRules`: imports the package only when a game needs it."""

    def make(options: dict) -> object:
        mod = importlib.import_module(package)
        if not hasattr(mod, "game_rules"):
            raise NotImplementedError(f"not implemented: games of the {package} ruleset")
        return mod.game_rules()

    return make


def _demo_forces(raw: object, side: str) -> object:
    from .demo.forces import validate_forces

    return validate_forces(raw, side)


register(
    RulesetEntry(
        "quickref",
        "Quick-reference d10 rules",
        _game_rules(RULESETS["quickref"]),
        HERE / "quickref" / "scenarios",
        unit="inch",
        table_plugin="quickref",
    )
)
for _rid, _title, _unit in (
    ("panzerfaust", "Panzerfaust Revised", "cm"),
    ("battleground", "Battleground World War II", "inch"),
):
    register(
        RulesetEntry(
            _rid, _title, _game_rules(RULESETS[_rid]), HERE / _rid / "scenarios", unit=_unit
        )
    )
register(
    RulesetEntry(
        "demo",
        "Demo patrol (a small shipped ruleset proving the engine generic)",
        _game_rules("kriegsspiel.rulesets.demo"),
        HERE / "demo" / "scenarios",
        forces_model=_demo_forces,
        unit="cm",
        table_plugin="demo",
    )
)


def ruleset_module(ruleset_id: str) -> ModuleType:
    key = ruleset_id.casefold()
    if key not in RULESETS:
        raise LookupError(f"unknown ruleset {ruleset_id!r}; expected one of {sorted(RULESETS)}")
    return importlib.import_module(RULESETS[key])


def ruleset_actions(ruleset_id: str) -> dict:
    """The actions `odds` and `resolve` offer for a ruleset (its `actions.ACTIONS`), if any."""
    name = RULESETS[ruleset_id.casefold()] + ".actions"
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return {}
    return mod.ACTIONS


def ruleset_coverage(ruleset_id: str, cat: Catalogue) -> dict:
    """The ruleset's own completeness counts (`coverage.coverage(cat)`: `{name: {kind: [have,
    of]}}`), or {} for a ruleset without a coverage module."""
    name = RULESETS[ruleset_id.casefold()] + ".coverage"
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return {}
    return mod.coverage(cat)


def load(ruleset_id: str, overlays: tuple[Path, ...] | None = None) -> Catalogue:
    """The ruleset's catalogue; overlays default to $KRIEGSSPIEL_DATA_OVERLAY."""
    if overlays is None:
        overlays = tuple(overlay_paths_from_env())
    return _load_cached(ruleset_id.casefold(), tuple(Path(p) for p in overlays))


@cache
def _load_cached(ruleset_id: str, overlays: tuple[Path, ...] | None) -> Catalogue:
    mod = ruleset_module(ruleset_id)
    data_dir = Path(mod.__file__).parent / "data"
    return load_catalogue(
        ruleset_id, data_dir, mod.KINDS, list(overlays) if overlays is not None else None
    )
