"""Panzerfaust's `forces` block of a scenario: companies of platoons of teams and AFVs (seed 000,
p.6: platoons are the unit of command and of alternate movement; troop class and morale pp.
4-5). Minimal: the army builder's rosters extend it. A team's position may be left out while it
is still to deploy (hidden deployment)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ...engine.scenario import Piece, SpecModel
from .models import Morale, TroopClass
from .offtable import Battery, Plane


class Team(Piece):
    """An infantry team, gun or vehicle: a record of the army lists (`type`)."""

    x: float | None = None  # type: ignore[assignment]
    y: float | None = None  # type: ignore[assignment]
    troop_class: TroopClass | None = None  # default: its platoon's
    morale: Morale | None = None

    @model_validator(mode="after")
    def _placed(self) -> Team:
        if (self.x is None) != (self.y is None):
            raise ValueError("a team is placed with both x and y, or neither (still to deploy)")
        return self


class Platoon(SpecModel):
    id: str
    name: str | None = None
    troop_class: TroopClass | None = None  # default: its company's
    morale: Morale | None = None
    teams: list[Team] = Field(min_length=1)


class Company(SpecModel):
    id: str
    name: str | None = None
    troop_class: TroopClass = "regular"
    morale: Morale = "reliable"
    platoons: list[Platoon] = Field(min_length=1)


class PanzerfaustForces(SpecModel):
    """One side's forces. A scenario written by the army builder (`scenario new --roster`)
    also carries the roster document itself (its legality is the builder's to check: the
    rules layer does not import it), the side's role in the battle type and its deployment
    zone (pp. 4-5)."""

    nation: str | None = None
    roster: str | dict[str, Any] | None = None  # a roster file's name, or the roster itself
    role: Literal["attacker", "defender", "encounter"] | None = None
    deployment: list[tuple[float, float]] | None = Field(default=None, min_length=3)
    enters_from_edge: bool = False
    companies: list[Company] = Field(default_factory=list)
    batteries: list[Battery] = Field(default_factory=list)  # off-table (p35-37)
    aircraft: list[Plane] = Field(default_factory=list)  # p42-44

    def pieces(self) -> list[Team]:
        return [t for c in self.companies for p in c.platoons for t in p.teams]


def validate_forces(raw: Any, side: str) -> PanzerfaustForces:
    return PanzerfaustForces.model_validate(raw)
