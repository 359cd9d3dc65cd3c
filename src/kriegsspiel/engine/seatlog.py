"""Each seat's own numbering of the events it may read (DESIGN: fair play, counters).

A side must not learn from its log how many commands the other side gave in secret, so a side's
log entries carry the side's own sequence numbers: `index` counts the events this side may read,
`command` counts the commands it has seen events of, with no gaps for what it may not see. The
engine's events that name a command (undo, undo requests) name it by the seat's number, or null
if the seat never saw it (the seat learns that an undo happened, not what was undone). The
umpire reads the true numbers. Entries are appended as the log grows and never renumbered, so
they are cached as dicts and as JSON text (the server splices the texts into its pushes).
"""

from __future__ import annotations

import json
from typing import Any

from .events import UMPIRE, Event

REFERS_TO_COMMAND = frozenset({"undo", "undo_request", "undo_declined"})


class SeatLog:
    """One seat's projection of a game's events."""

    def __init__(self, seat: str):
        self.seat = seat
        self.scanned = 0  # events of the game looked at so far
        self.commands: dict[int, int] = {}  # true command number -> this seat's number
        self.entries: list[tuple[int, int, dict[str, Any], str]] = []  # (true idx, true cmd, ...)
        self.by_index: dict[int, int] = {}  # true event index -> position in entries

    def update(self, events: list[Event]) -> None:
        for e in events[self.scanned :]:
            if e.visible(self.seat):
                doc = self._entry(e)
                self.by_index[e.index] = len(self.entries)
                self.entries.append((e.index, e.command, doc, json.dumps(doc, allow_nan=False)))
        self.scanned = len(events)

    def _entry(self, e: Event) -> dict[str, Any]:
        doc = e.to_json()
        if self.seat == UMPIRE:
            return doc
        local = self.commands.setdefault(e.command, len(self.commands))
        doc["index"], doc["command"] = len(self.entries), local
        if e.type in REFERS_TO_COMMAND and "command" in e.data:
            doc["data"] = {**e.data, "command": self.commands.get(e.data["command"])}
        return doc

    def live(self, undone: set[int]) -> list[tuple[int, int, dict[str, Any], str]]:
        """The entries of commands still in force (the undo entries themselves stay)."""
        return [t for t in self.entries if t[1] not in undone]

    def of(self, events: list[Event]) -> list[dict[str, Any]]:
        """The entries of these events that the seat may read (an ack's events)."""
        return [self.entries[self.by_index[e.index]][2] for e in events if e.index in self.by_index]
