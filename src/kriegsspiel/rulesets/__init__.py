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
        # a ruleset without options takes none: game_rules() raises TypeError if given some
        return mod.game_rules(options) if options else mod.game_rules()

    return make


def _forces_model(package: str):
    """A ruleset's `forces_model`: its `forces.validate_forces`, imported when first used."""

    def validate(raw: object, side: str) -> object:
        return importlib.import_module(package + ".forces").validate_forces(raw, side)

    return validate


register(
    RulesetEntry(
        "quickref",
        "Quick-reference d10 rules",
        _game_rules(RULESETS["quickref"]),
        HERE / "quickref" / "scenarios",
        forces_model=_forces_model(RULESETS["quickref"]),
        unit="inch",
        objective_radius=3.0,  # an objective's reach when a scenario gives none (inches)
        table_plugin="quickref",
        extra={  # the picture's plug-in (render/table.py)
            "status_flags": (("S", "suppressed"), ("D", "damaged"), ("T", "tracked")),
            "marker_sizes": {"vehicle": 1.6},
            # the browser table's plug-in: piece footprints (w, h) by kind, "*" for the rest
            "footprints": {"vehicle": [1.3, 2.1], "*": [2.0, 1.0]},
            # keys of a legal template that describe it and are not part of the command
            "template_only": ("max", "withdraw_only", "infantry", "target_hint"),
            # move input (issue 14 item 7): a reach area and a priced preview from the server,
            # waypoints, an end facing; pivots cost nothing in these rules (decision Q45)
            "move_input": {"reach": True, "preview": True, "waypoints": True, "pivots": "free"},
        },
    )
)
register(
    RulesetEntry(
        "panzerfaust",
        "Panzerfaust Revised",
        _game_rules(RULESETS["panzerfaust"]),
        HERE / "panzerfaust" / "scenarios",
        forces_model=_forces_model(RULESETS["panzerfaust"]),
        unit="cm",
        table_plugin="panzerfaust",  # web/static/table-panzerfaust.js
        worth="army-list points (base PV, p44)",  # game/worth.py, decision P256
        extra={
            "status_flags": (
                ("P", "pinned"), ("S", "shaken"), ("R", "retreat"), ("T", "stunned"),
                ("H", "hull_damaged"), ("G", "gun_damaged"), ("B", "brewed_up"),
                ("C", "camouflaged"), ("D", "dug_in"),
            ),
            # the picture: 40 mm infantry bases, models about 1:76 (cm), by piece kind
            "marker_sizes": {"afv": 5.0, "softskin": 4.0, "motorised_gun": 4.0, "gun": 3.0,
                             "battery": 3.0, "infantry_team": 3.0, "infantry_weapon": 3.0,
                             "infantry": 3.0},
            "label_only": "hq",  # a company's worth of teams: name only the HQs on the picture
            "inner_lines": "sections",  # a building's section lines (p19, P328), drawn dashed
            "footprints": {"afv": [3.0, 6.0], "motorised_gun": [2.5, 5.0],
                           "softskin": [2.5, 5.0], "gun": [3.0, 3.0], "*": [4.0, 4.0]},
        },
    )
)  # fmt: skip
for _rid, _title, _unit in (("battleground", "Battleground World War II", "inch"),):
    register(
        RulesetEntry(
            _rid,
            _title,
            _game_rules(RULESETS[_rid]),
            HERE / _rid / "scenarios",
            forces_model=_forces_model(RULESETS[_rid]),
            unit=_unit,
        )
    )
register(
    RulesetEntry(
        "demo",
        "Demo patrol (a small shipped ruleset proving the engine generic)",
        _game_rules("kriegsspiel.rulesets.demo"),
        HERE / "demo" / "scenarios",
        forces_model=_forces_model("kriegsspiel.rulesets.demo"),
        unit="cm",
        table_plugin="demo",
        extra={
            "status_flags": (("H", "hidden"), ("A", "activated")),
            "marker_sizes": {"rifles": 2.5, "scouts": 2.0},  # cm
            "footprints": {"*": [3.0, 1.5]},
        },
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
