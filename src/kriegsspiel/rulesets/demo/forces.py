"""The demo's `forces` block: `{units: [...]}` of rifles and scouts, which may start hidden."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ...engine.scenario import Piece, SpecModel


class DemoUnit(Piece):
    type: Literal["rifles", "scouts"]
    hidden: bool = False  # unseen until it fires or an enemy comes within SPOT_CLOSE


class DemoForces(SpecModel):
    units: list[DemoUnit] = Field(default_factory=list)

    def pieces(self) -> list[DemoUnit]:
        return list(self.units)


def validate_forces(raw: Any, side: str) -> DemoForces:
    return DemoForces.model_validate(raw)
