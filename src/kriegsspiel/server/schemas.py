"""Request and response bodies of the HTTP API (OpenAPI documented)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scenario: str = Field(
        description="id of a shipped scenario (GET /api/scenarios)", max_length=128
    )
    seed: int | None = Field(
        None,
        ge=0,
        le=2**256 - 1,
        description="leave out for a secret 256-bit seed (fair play); a chosen seed makes the "
        "game reproducible but is not secret to whoever chose it",
    )
    options: dict[str, bool | int | float | str] = Field(
        default_factory=dict,
        max_length=64,
        description="per-game options: the engine's (undo: consent|free|off) and the "
        "ruleset's documented ones (GET /api/rulesets/{id}/options)",
    )
    ai: list[str] = Field(
        default_factory=list,
        max_length=8,
        description="sides the server plays (AI seats): it gives their commands after every "
        "command of the game; no token is issued for them",
    )


class Command(BaseModel):
    """A command as the ruleset reads it: a `type` and its fields, e.g.
    `{"type": "fire", "unit": "g-panther", "target": "u-m4a"}`."""

    model_config = ConfigDict(extra="allow")
    type: str = Field(min_length=1, max_length=64)

    def as_dict(self) -> dict[str, Any]:
        return self.model_dump()


class Seat(BaseModel):
    seat: str
    token: str | None
    link: str


class CreatedGame(BaseModel):
    id: str
    scenario: str
    seats: list[Seat]
    spectator: str


class ScenarioInfo(BaseModel):
    id: str
    name: str
    ruleset: str
    description: str
    sides: list[dict[str, str]]


class Ack(BaseModel):
    """A committed command: the events it wrote, as the seat sees them."""

    seat: str
    events: list[dict[str, Any]]


class StateHash(BaseModel):
    hash: str
    events: int
