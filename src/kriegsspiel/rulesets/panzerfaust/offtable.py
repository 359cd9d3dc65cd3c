"""Off-table support in a Panzerfaust scenario's `forces` block: batteries of guns or mortars
(p35-37) with their map fire written before the game (p37), and aircraft (p42-43) with their
prepared strikes. Each names an army-list record (`type`) and what the record cannot tell:
how many guns, the calibre (most printed calibres are lost, p35/p58), the bomb row of the p42
table (its load weights are lost)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...engine.scenario import SpecModel

TroopClass = Literal["veteran", "regular", "conscript"]


class MapFire(SpecModel):
    """One target of a battery's map fire (p37): where, and the turns it fires there."""

    x: float
    y: float
    turns: list[int] = Field(min_length=1)


class Battery(SpecModel):
    """An off-table battery of 2-8 guns in pairs, or a platoon of mortars (p35-36)."""

    id: str
    type: str  # a `battery` record of the army lists
    guns: int = Field(ge=1, le=8)  # guns (in pairs) or mortar tubes
    calibre_mm: float = Field(gt=0, le=420)
    troop_class: TroopClass = "regular"
    map_fire: list[MapFire] = Field(default_factory=list)


class Strike(SpecModel):
    """A prepared strike written before the game (p42): target, approach, altitude, turn."""

    turn: int = Field(ge=1)
    x: float
    y: float
    heading: float = Field(ge=0, lt=360)  # the direction the aircraft flies, degrees from north
    altitude: Literal["low", "medium"] = "low"


class Plane(SpecModel):
    """One aircraft (p42-44): its record, its loads and its prepared strikes."""

    id: str
    type: str  # an `aircraft` record
    bomb_row: int | None = Field(default=None, ge=1, le=6)  # row of the p42 bomb table
    rockets: Literal[0, 4, 8] = 0
    armoured: bool = False
    prepared: list[Strike] = Field(default_factory=list)

    @model_validator(mode="after")
    def _loaded(self) -> Plane:
        if self.prepared and self.bomb_row is None and not self.rockets:
            raise ValueError("a prepared strike uses bombs or rockets only (p42)")
        return self
