"""What every ruleset's `Rules` shares: the loaded catalogue and the options, hashed by the
catalogue's identity so exact odds are memoised per rules and query (DESIGN: chance)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..data.catalogue import Catalogue


@dataclass(frozen=True, eq=False)
class CatalogueRules:
    """Subclass as a frozen dataclass that gives `opts` its ruleset's Options default."""

    cat: Catalogue
    opts: Any

    def __hash__(self) -> int:
        return hash((type(self), id(self.cat), self.opts))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.cat is self.cat and other.opts == self.opts  # type: ignore[attr-defined]
