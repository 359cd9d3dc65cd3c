"""Army builders by ruleset: a builder package per ruleset with points, imported on demand."""

from __future__ import annotations

import importlib
from typing import Any

BUILDERS = {"panzerfaust": "kriegsspiel.armylist.panzerfaust"}


def builder(ruleset: str, overlays: Any = None) -> Any:
    """The ruleset's army builder (LookupError naming the rulesets that have one)."""
    package = BUILDERS.get(ruleset.casefold())
    if package is None:
        raise LookupError(
            f"no army builder for ruleset {ruleset!r}; available: {', '.join(sorted(BUILDERS))}"
        )
    return importlib.import_module(package).Builder(overlays)
