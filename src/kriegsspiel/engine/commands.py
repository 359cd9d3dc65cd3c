"""Commands and their rejection."""

from __future__ import annotations


class IllegalCommand(ValueError):
    """A command the rules do not allow now. `reason` says what is wrong; nothing changed."""

    def __init__(self, reason: str, field: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.field = field

    def to_json(self) -> dict:
        return {"error": "illegal command", "reason": self.reason, "field": self.field}
