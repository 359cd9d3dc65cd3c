"""The rulesets Kriegsspiel implements, each a package with the same face to the engine."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from types import ModuleType

from ..data.catalogue import Catalogue, load_catalogue, overlay_paths_from_env

RULESETS = {
    "quickref": "kriegsspiel.rulesets.quickref",
    "panzerfaust": "kriegsspiel.rulesets.panzerfaust",
    "battleground": "kriegsspiel.rulesets.battleground",
}


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
