"""Quickref's `forces` block of a scenario (docs/scenarios.md): stands and vehicles placed on the
table, with the sheet's own unit fields. Validated when a scenario is read (registry:
forces_model); the unit types are checked against the data when a game starts."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ...engine.scenario import Piece, SpecModel


class QuickrefUnit(Piece):
    """A platoon stand, squad or vehicle of the quick-reference sheet."""

    quality: str | None = None
    attachments: list[str] = Field(default_factory=list)  # e.g. an attached MG team, AT weapon
    hidden: bool = False  # starts unseen by the enemy even in the open (decision Q32)
    radio: bool = False  # may call for fire (the sheet's artillery block)


class QuickrefForces(SpecModel):
    units: list[QuickrefUnit] = Field(default_factory=list)

    def pieces(self) -> list[QuickrefUnit]:
        return list(self.units)


def validate_forces(raw: Any, side: str) -> QuickrefForces:
    return QuickrefForces.model_validate(raw)
