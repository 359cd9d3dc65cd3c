"""Migration after a data update: compare a roster's snapshot with what the data says now.

Nothing is dropped: an entry that no longer exists stays in the roster and is reported as
`removed` (validation then flags it); price and availability changes are listed one by one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .roster import Roster


@dataclass
class Change:
    entry: str
    name: str
    field: str  # pv | provenance | available | removed
    old: Any
    new: Any

    def __str__(self) -> str:
        if self.field == "removed":
            return f"{self.name} ({self.entry}): no longer in the data (kept in the roster)"
        return f"{self.name}: {self.field} {self.old} -> {self.new}"


def diff(roster: Roster, builder: Any) -> list[Change]:
    now = builder.snapshot(roster)
    changes: list[Change] = []
    for entry, old in roster.snapshot.items():
        if not builder.exists(entry):
            changes.append(Change(entry, old.name, "removed", old.pv, None))
            continue
        new = now.get(entry)
        if new is None:
            continue
        for f in ("pv", "provenance", "available"):
            if getattr(old, f) != getattr(new, f):
                changes.append(Change(entry, old.name, f, getattr(old, f), getattr(new, f)))
    return changes


def migrate(roster: Roster, builder: Any) -> tuple[Roster, list[Change]]:
    """The roster re-pinned to the current data revision, and what changed."""
    changes = diff(roster, builder)
    out = roster.model_copy(deep=True)
    out.snapshot = {**roster.snapshot, **builder.snapshot(roster)}
    for c in changes:
        if c.field == "removed":
            out.snapshot[c.entry] = roster.snapshot[c.entry]
    out.data_revision = builder.ac.revision
    return out, changes


def changes_as_dicts(changes: list[Change]) -> list[dict]:
    return [asdict(c) for c in changes]
