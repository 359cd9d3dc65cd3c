"""Battleground's `forces` block of a scenario: figures (one per man) with their arms, morale and
leadership, grouped in squads, teams and vehicle crews (research/battleground.md §3: morale 1-20,
"ML 12-1" = morale 12, leadership modifier -1; a squad's break point). Minimal: enough to
validate a scenario; the game's rules will read it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ...engine.scenario import Piece, SpecModel


class Figure(Piece):
    """One soldier: `type` is his troop type (rifleman, MG gunner ...)."""

    arms: list[str] = Field(default_factory=list)
    morale: int = Field(ge=1, le=20)
    leadership: int | None = Field(default=None, ge=-5, le=5)  # leaders only


class Group(SpecModel):
    """A squad, a team (MG crew, bazooka team ...) or the crew of a vehicle."""

    id: str
    name: str | None = None
    kind: Literal["squad", "team", "crew"] = "squad"
    vehicle: str | None = None  # a crew's vehicle (a model of this side)
    break_point: float | None = Field(default=None, gt=0, le=1)
    figures: list[Figure] = Field(min_length=1)

    @model_validator(mode="after")
    def _crew(self) -> Group:
        if (self.kind == "crew") != (self.vehicle is not None):
            raise ValueError("a crew names its vehicle, and only a crew does")
        return self


class Vehicle(Piece):
    """A model (vehicle or gun) of a vehicle sheet."""


class BattlegroundForces(SpecModel):
    groups: list[Group] = Field(default_factory=list)
    vehicles: list[Vehicle] = Field(default_factory=list)

    @model_validator(mode="after")
    def _crews(self) -> BattlegroundForces:
        ids = {v.id for v in self.vehicles}
        for g in self.groups:
            if g.vehicle is not None and g.vehicle not in ids:
                raise ValueError(f"crew {g.id!r}: vehicle {g.vehicle!r} is not one of this side's")
        return self

    def pieces(self) -> list[Piece]:
        return [*self.vehicles, *(f for g in self.groups for f in g.figures)]


def validate_forces(raw: Any, side: str) -> BattlegroundForces:
    return BattlegroundForces.model_validate(raw)
