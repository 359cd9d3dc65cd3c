"""Provenance: where every number came from (DESIGN: data).

A record carries a default provenance and optional per-field overrides keyed by dotted path
("armour.front", "to_hit"). Lookups walk up the path, so a whole block can share one entry.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

# per record object (kept alive while listed, so its id is not reused): paths -> labels
_PLACEHOLDERS: dict[int, tuple[Any, dict[tuple[str, ...], tuple[str, ...]]]] = {}


class Provenance(StrEnum):
    SEED = "seed"  # read directly from the seed text
    SEED_INFERRED = "seed-inferred"  # recovered from damaged text by a written-down judgement
    HISTORICAL = "historical"  # a public historical fact standing in for a lost seed value
    PLACEHOLDER = "placeholder"  # invented to keep the game playable; flagged wherever used
    OVERLAY = "overlay"  # supplied by the user's overlay file (e.g. from a printed copy)


class Source(BaseModel):
    """The seed file and page a record comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seed: str
    page: str | int | None = None

    def __str__(self) -> str:
        return f"{self.seed}" + (f" p.{self.page}" if self.page is not None else "")


class FieldProvenance(BaseModel):
    """Provenance of one field, with the reference or judgement behind it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    provenance: Provenance
    ref: str | None = None  # public reference for historical values, overlay file for overlays
    note: str | None = None  # the judgement, written down


class Record(BaseModel):
    """Base of every data record: identity, source and provenance."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    source: Source
    provenance: Provenance = Provenance.SEED
    field_provenance: dict[str, FieldProvenance] = Field(default_factory=dict)
    notes: str | None = None
    # common names a player may type (Tiger, Sherman): looked up like `name`, never data values
    aliases: tuple[str, ...] = ()

    # What a null field means to the audit: "missing" (a value the seed lost) or "n/a" (the
    # field does not apply to this record). NOT_APPLICABLE names fields (top-level, or the last
    # name of a nested path) that are "n/a" when null; a null with its own field_provenance
    # entry is always "missing".
    NULL_MEANS: ClassVar[str] = "missing"
    NOT_APPLICABLE: ClassVar[frozenset[str]] = frozenset()
    META_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"id", "name", "source", "provenance", "field_provenance", "notes", "aliases"}
    )

    def __hash__(self) -> int:  # records are keys of the exact-odds memo; equality stays by value
        return hash((type(self).__name__, self.id))

    def prov(self, path: str) -> Provenance:
        """The provenance of the field at dotted `path` (the exact-odds hot path: no entry is
        built for a field that has none of its own)."""
        table = self.field_provenance
        if table:
            parts = path.split(".")
            for i in range(len(parts), 0, -1):
                entry = table.get(".".join(parts[:i]))
                if entry is not None:
                    return entry.provenance
        return self.provenance

    def prov_entry(self, path: str) -> FieldProvenance:
        parts = path.split(".")
        for i in range(len(parts), 0, -1):
            entry = self.field_provenance.get(".".join(parts[:i]))
            if entry is not None:
                return entry
        return FieldProvenance(provenance=self.provenance)

    def placeholders(self, *paths: str) -> list[str]:
        """`kind:id.field` labels of those `paths` whose value is a placeholder (memoised per
        record object and paths: exact odds replay a resolution once per leaf)."""
        mine = _PLACEHOLDERS.get(id(self))
        if mine is None or mine[0] is not self:
            if len(_PLACEHOLDERS) >= 10_000:
                _PLACEHOLDERS.clear()
            mine = _PLACEHOLDERS[id(self)] = (self, {})
        labels = mine[1].get(paths)
        if labels is None:
            labels = mine[1][paths] = tuple(
                f"{self.id}.{p}" for p in paths if self.prov(p) is Provenance.PLACEHOLDER
            )
        return list(labels)

    def null_status(self, path: str) -> str:
        """ "missing" or "n/a" for a null field at `path` (see NULL_MEANS)."""
        if path in self.field_provenance:
            return "missing"
        names = [p for p in path.split(".") if not p.isdigit()]
        if names and (names[0] in self.NOT_APPLICABLE or names[-1] in self.NOT_APPLICABLE):
            return "n/a"
        return self.NULL_MEANS

    def leaf_fields(self) -> dict[str, Any]:
        """Data fields flattened to dotted paths (dicts, models and lists flattened: `to_hit.3`)."""
        out: dict[str, Any] = {}

        def walk(prefix: str, value: Any) -> None:
            if isinstance(value, dict) and value:
                for k, v in value.items():
                    walk(f"{prefix}.{k}" if prefix else str(k), v)
            elif isinstance(value, list) and value and not all(isinstance(v, str) for v in value):
                for i, v in enumerate(value):
                    walk(f"{prefix}.{i}", v)
            else:
                out[prefix] = value

        dumped = self.model_dump(exclude=set(self.META_FIELDS))
        for k, v in dumped.items():
            walk(k, v)
        return out


PROV_KEYS = {"value", "provenance", "ref", "note"}


def split_provenance(raw: Any, path: str = "") -> tuple[Any, dict[str, dict[str, Any]]]:
    """Strip inline `{value:, provenance:, ref:, note:}` wrappers from raw YAML data.

    Returns the plain data and the per-field provenance entries found, keyed by dotted path.
    """
    found: dict[str, dict[str, Any]] = {}
    if isinstance(raw, dict):
        if "value" in raw and "provenance" in raw and set(raw) <= PROV_KEYS:
            entry = {k: raw[k] for k in ("provenance", "ref", "note") if k in raw}
            found[path] = entry
            inner, sub = split_provenance(raw["value"], path)
            found.update(sub)
            return inner, found
        out = type(raw)() if isinstance(raw, dict) else {}
        if hasattr(raw, "key_lines"):
            out.key_lines = raw.key_lines  # type: ignore[attr-defined]
            out.line = raw.line  # type: ignore[attr-defined]
        for k, v in raw.items():
            inner, sub = split_provenance(v, f"{path}.{k}" if path else str(k))
            out[k] = inner
            found.update(sub)
        return out, found
    if isinstance(raw, list):
        items = []
        for i, v in enumerate(raw):
            inner, sub = split_provenance(v, f"{path}.{i}")
            items.append(inner)
            found.update(sub)
        out_list = type(raw)(items) if hasattr(raw, "item_lines") else items
        if hasattr(raw, "item_lines"):
            out_list.item_lines = raw.item_lines  # type: ignore[attr-defined]
            out_list.line = raw.line  # type: ignore[attr-defined]
        return out_list, found
    return raw, found
