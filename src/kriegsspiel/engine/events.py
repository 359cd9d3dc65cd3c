"""Events: the append-only record of a game. Each names who may see it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

EVERYONE = None  # visible_to=None: a public event
UMPIRE = "umpire"
SPECTATOR = "spectator"


@dataclass(frozen=True)
class Draft:
    """An event as a ruleset's resolution produces it, before it gets its place in the log."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: tuple[str, ...] | None = EVERYONE
    explanation: tuple[str, ...] = ()


@dataclass(frozen=True)
class Event:
    index: int
    command: int  # index of the command (in submission order) that produced it
    type: str
    side: str | None  # who caused it; None for the umpire/system
    data: dict[str, Any]
    visible_to: tuple[str, ...] | None = EVERYONE
    explanation: tuple[str, ...] = ()

    def visible(self, side: str) -> bool:
        return side == UMPIRE or self.visible_to is None or side in self.visible_to

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["visible_to"] = list(self.visible_to) if self.visible_to is not None else None
        out["explanation"] = list(self.explanation)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        vis = d.get("visible_to")
        return cls(
            d["index"],
            d["command"],
            d["type"],
            d.get("side"),
            d.get("data") or {},
            tuple(vis) if vis is not None else None,
            tuple(d.get("explanation") or ()),
        )
