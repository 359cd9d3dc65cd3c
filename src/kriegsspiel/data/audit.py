"""Completeness and provenance report of a catalogue (`kriegsspiel data audit`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from .catalogue import Catalogue
from .provenance import Provenance

MISSING = "missing"
NOT_APPLICABLE = "n/a"


@dataclass
class TableAudit:
    """Rows of one kind (and one nation, where records have one) and their fields by provenance."""

    kind: str
    group: str | None
    rows: int = 0
    fields: Counter = field(default_factory=Counter)

    def shares(self) -> dict[str, float]:
        """Share of each status among the fields that apply (n/a fields are left out)."""
        total = sum(v for k, v in self.fields.items() if k != NOT_APPLICABLE) or 1
        return {k: self.fields[k] / total for k in [*map(str, Provenance), MISSING]}

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "group": self.group,
            "rows": self.rows,
            "fields": sum(v for k, v in self.fields.items() if k != NOT_APPLICABLE),
            "not_applicable": self.fields[NOT_APPLICABLE],
            "counts": {k: self.fields[k] for k in [*map(str, Provenance), MISSING]},
            "shares": self.shares(),
        }


def field_status(record: Any, path: str, value: Any) -> str:
    """`missing` (lost) or `n/a` for a null value or an empty list (a list whose every entry
    was lost is no more the seed's than a lost number), else the field's provenance."""
    if value is None or (isinstance(value, list) and not value):
        return record.null_status(path)
    return str(record.prov(path))


def audit(
    cat: Catalogue, group_by: str | None = "nation", only_group: str | None = None
) -> list[TableAudit]:
    tables: dict[tuple[str, str | None], TableAudit] = defaultdict(lambda: TableAudit("", None))
    for kind, entry in cat:
        rec = entry.record
        group = getattr(rec, group_by, None) if group_by else None
        if only_group is not None and (
            group is None or str(group).casefold() != only_group.casefold()
        ):
            continue
        key = (kind, group)
        t = tables[key]
        t.kind, t.group = kind, group
        t.rows += 1
        for path, value in rec.leaf_fields().items():
            t.fields[field_status(rec, path, value)] += 1
    return sorted(tables.values(), key=lambda t: (t.kind, str(t.group)))


def missing_fields(cat: Catalogue, group_by: str | None = "nation", only_group: str | None = None):
    """Every null or placeholder field: (kind, record, path, status)."""
    for kind, entry in cat:
        rec = entry.record
        group = getattr(rec, group_by, None) if group_by else None
        if only_group is not None and (
            group is None or str(group).casefold() != only_group.casefold()
        ):
            continue
        for path, value in rec.leaf_fields().items():
            status = field_status(rec, path, value)
            if status in (MISSING, str(Provenance.PLACEHOLDER)):
                yield kind, rec, path, status
