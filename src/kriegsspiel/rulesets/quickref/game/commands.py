"""The quickref commands as data (engine hook `command_models`): what each command may carry,
checked by the engine before the rules see it (engine/command_schema.py). The rules then check
what only the state can tell (whose unit, in sight, in range, in this phase)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, ValidationInfo, model_validator

from ....engine.command_schema import (
    MAX_LISTED,
    Angle,
    CommandModel,
    Finite,
    Group,
    Ident,
    Path,
    on_table,
)


class EndPhase(CommandModel):
    type: Literal["end_phase"]


class Initiative(CommandModel):
    type: Literal["initiative"]
    side_a: Ident


class Hatches(CommandModel):
    type: Literal["hatches"]
    buttoned: Annotated[dict[Ident, bool], Field(min_length=1, max_length=MAX_LISTED)]


class _Group(CommandModel):
    """A single `unit` or a list `units` (fire group, assault)."""

    unit: Ident | None = None
    units: Group | None = None
    target: Ident

    @model_validator(mode="after")
    def _one_of(self):
        if self.unit is None and self.units is None:
            raise ValueError("unit: give 'unit' or a list 'units'")
        return self


class Fire(_Group):
    type: Literal["fire"]
    # main gun, HE, flamethrower or a vehicle's alternative gun by its data name (alt_guns)
    weapon: (
        Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")] | None
    ) = None
    suppressive: bool = False


class Assault(_Group):
    type: Literal["assault"]


class Move(CommandModel):
    type: Literal["move"]
    unit: Ident
    path: Path
    facing: Angle | None = None


class _Point(CommandModel):
    x: Finite
    y: Finite

    @model_validator(mode="after")
    def _on_table(self, info: ValidationInfo):
        on_table(self.x, self.y, info)
        return self


class Dismount(CommandModel):
    type: Literal["dismount"]
    unit: Ident
    x: Finite | None = None
    y: Finite | None = None

    @model_validator(mode="after")
    def _on_table(self, info: ValidationInfo):
        if (self.x is None) != (self.y is None):
            raise ValueError("x: give both x and y, or neither")
        if self.x is not None and self.y is not None:
            on_table(self.x, self.y, info)
        return self


class CallFire(_Point):
    type: Literal["call_fire"]
    observer: Ident
    battery: Ident


class Hold(CommandModel):
    type: Literal["hold"]
    mission: Ident


class Adjust(_Point):
    type: Literal["adjust"]
    mission: Ident


MODELS: dict[str, type[BaseModel]] = {
    "end_phase": EndPhase,
    "initiative": Initiative,
    "hatches": Hatches,
    "fire": Fire,
    "move": Move,
    "dismount": Dismount,
    "call_fire": CallFire,
    "hold": Hold,
    "adjust": Adjust,
    "assault": Assault,
}
