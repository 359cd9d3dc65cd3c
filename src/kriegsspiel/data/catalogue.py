"""Loading a ruleset's data files into a validated catalogue, with overlays laid on top.

A data file is YAML:

    kind: vehicle                      # a record kind the ruleset registers
    source: {seed: 002_....txt, page: "L1"}
    provenance: seed                   # default for every field of every record below
    records:
      - id: pzkw-iv-h
        name: PzKw IV H
        armour: {value: {front: 9, side: 5}, provenance: seed-inferred, note: "..."}

Any field may be wrapped as `{value: ..., provenance: ..., ref: ..., note: ...}`.
"""

from __future__ import annotations

import contextlib
import difflib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import DataError, DataIssue
from .provenance import Record, split_provenance
from .yamlio import LineDict, LineList, line_of, load_yaml

OVERLAY_ENV = "KRIEGSSPIEL_DATA_OVERLAY"


@dataclass
class Entry:
    """A validated record with the raw data it came from (kept so overlays can re-validate)."""

    record: Record
    raw: dict[str, Any]
    file: str
    line: int | None


@dataclass
class Catalogue:
    """All records of one ruleset, by kind and id."""

    ruleset: str
    kinds: Mapping[str, type[Record]]
    entries: dict[str, dict[str, Entry]] = field(default_factory=dict)
    overlays: list[str] = field(default_factory=list)

    def get(self, kind: str, key: str) -> Record:
        """Find a record by id, name or alias, case-insensitively; an ambiguous name lists the
        records it could mean, an unknown one the closest names."""
        table = self.entries.get(kind, {})
        found = self._matches(table, key)
        if len(found) == 1:
            return found[0]
        folded = " ".join(key.casefold().split())
        if found:
            ids = ", ".join(f"{r.id} ({r.name})" for r in found)
            raise LookupError(f"{kind} {key!r} is ambiguous in {self.ruleset}; use one of: {ids}")
        names = sorted(
            {n for e in table.values() for n in (e.record.name, *e.record.aliases)} | set(table)
        )
        names = list({n.casefold(): n for n in names}.values())
        by_fold = {n.casefold(): n for n in names}
        close = difflib.get_close_matches(folded, list(by_fold), n=5, cutoff=0.6)
        close = [by_fold[c] for c in close] or [n for n in names if folded in n.casefold()][:5]
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise LookupError(f"unknown {kind} {key!r} in {self.ruleset}{hint}")

    def find(self, kind: str, key: str) -> Record | None:
        """The record `get` would return, or None where `get` would raise (no message is
        worded: callers that try several kinds in turn pay nothing for the misses)."""
        found = self._matches(self.entries.get(kind, {}), key)
        return found[0] if len(found) == 1 else None

    @staticmethod
    def _matches(table: dict[str, Entry], key: str) -> list[Record]:
        if key in table:
            return [table[key].record]
        folded = " ".join(key.casefold().split())
        return [e.record for e in table.values() if folded in _names(e.record)]

    def resolve(self, ref: str) -> Record:
        """A record by a `"kind:id"` reference (as data files cross-reference each other)."""
        kind, sep, ident = ref.partition(":")
        if not sep or kind not in self.kinds:
            raise LookupError(
                f"bad reference {ref!r}: expected 'kind:id' with kind in {sorted(self.kinds)}"
            )
        entry = self.entries.get(kind, {}).get(ident)
        if entry is None:
            raise LookupError(f"reference {ref!r}: no {kind} with id {ident!r} in {self.ruleset}")
        return entry.record

    def all(self, kind: str) -> list[Record]:
        return [e.record for e in self.entries.get(kind, {}).values()]

    def __iter__(self) -> Iterator[tuple[str, Entry]]:
        for kind, table in self.entries.items():
            for entry in table.values():
                yield kind, entry


def _names(rec: Record) -> set[str]:
    """The folded id, name and aliases a lookup matches."""
    return {" ".join(n.casefold().split()) for n in (rec.id, rec.name, *rec.aliases)}


def _issues_from_validation(
    exc: ValidationError, node: Any, file: str, prefix: str
) -> list[DataIssue]:
    issues = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        dotted = ".".join(str(p) for p in loc)
        issues.append(
            DataIssue(
                file,
                line_of(node, loc),
                f"{prefix}{dotted}" if dotted else prefix or None,
                err["msg"],
            )
        )
    return issues


def _build(model: type[Record], raw: Any, file: str) -> tuple[Record | None, dict, list[DataIssue]]:
    if not isinstance(raw, dict):
        return (
            None,
            {},
            [DataIssue(file, getattr(raw, "line", None), None, "record must be a mapping")],
        )
    plain, found = split_provenance(raw)
    explicit = dict(plain.get("field_provenance", {}) or {})
    explicit.update(found)
    plain["field_provenance"] = explicit
    ident = plain.get("id", "?")
    try:
        return model.model_validate(plain), plain, []
    except ValidationError as exc:
        return None, plain, _issues_from_validation(exc, raw, file, f"{ident}: ")


def load_catalogue(
    ruleset: str,
    data_dir: Path,
    kinds: Mapping[str, type[Record]],
    overlays: list[Path] | None = None,
) -> Catalogue:
    """Load every `*.yaml` under `data_dir`, then each overlay; all issues are reported together."""
    cat = Catalogue(ruleset, kinds)
    issues: list[DataIssue] = []
    for path in sorted(data_dir.rglob("*.yaml")):
        issues += _load_file(cat, path, kinds)
    issues += _alias_clashes(cat)
    if issues:
        raise DataError(issues)
    for ov in overlays if overlays is not None else overlay_paths_from_env():
        apply_overlay(cat, Path(ov))
    return cat


def _close_ids(cat: Catalogue, kind: str, ident: Any) -> str:
    """'; closest: ...' with the ids (or the ids of names) nearest an unknown id."""
    table = cat.entries.get(kind, {})
    key = str(ident).casefold()
    close = difflib.get_close_matches(key, list(table), n=5, cutoff=0.5)
    with contextlib.suppress(LookupError):
        close = close or [cat.get(kind, str(ident)).id]
    return f"; closest: {', '.join(close)}" if close else ""


def _alias_clashes(cat: Catalogue) -> list[DataIssue]:
    """An alias must not be another record's id or name (it would hide that record); records
    may share an alias (T-34 for every model), which makes the lookup list them."""
    issues = []
    for kind, table in cat.entries.items():
        owner = {}
        for e in table.values():
            for n in (e.record.id, e.record.name):
                owner.setdefault(" ".join(n.casefold().split()), e.record.id)
        for e in table.values():
            for alias in e.record.aliases:
                other = owner.get(" ".join(alias.casefold().split()), e.record.id)
                if other != e.record.id:
                    msg = f"alias {alias!r} is the id or name of {kind} {other!r}"
                    issues.append(DataIssue(e.file, e.line, f"{e.record.id}: aliases", msg))
    return issues


def _load_file(cat: Catalogue, path: Path, kinds: Mapping[str, type[Record]]) -> list[DataIssue]:
    doc = load_yaml(path)
    file = str(path)
    if not isinstance(doc, LineDict):
        return [DataIssue(file, 1, None, "a data file must be a mapping with kind and records")]
    issues = []
    kind = doc.get("kind")
    if kind not in kinds:
        return [
            DataIssue(
                file,
                doc.key_lines.get("kind", 1),
                "kind",
                f"unknown kind {kind!r}; expected one of {sorted(kinds)}",
            )
        ]
    records = doc.get("records")
    if not isinstance(records, LineList):
        return [DataIssue(file, doc.key_lines.get("records", 1), "records", "must be a list")]
    defaults = {k: doc[k] for k in ("source", "provenance") if k in doc}
    table = cat.entries.setdefault(kind, {})
    for i, raw in enumerate(records):
        line = records.item_lines[i]
        if isinstance(raw, dict):
            for k, v in defaults.items():
                raw.setdefault(k, v)
        rec, plain, errs = _build(kinds[kind], raw, file)
        issues += errs
        if rec is None:
            continue
        if rec.id in table:
            other = table[rec.id]
            issues.append(
                DataIssue(
                    file,
                    line,
                    "id",
                    f"duplicate {kind} id {rec.id!r} (first at {other.file}:{other.line})",
                )
            )
            continue
        table[rec.id] = Entry(rec, plain, file, line)
    return issues


def overlay_paths_from_env() -> list[Path]:
    value = os.environ.get(OVERLAY_ENV, "")
    return [Path(p) for p in value.split(os.pathsep) if p]


def _set_path(data: dict, path: str, value: Any) -> None:
    parts = path.split(".")
    node: Any = data
    for part in parts[:-1]:
        if isinstance(node, list):
            node = node[int(part)]
            continue
        if node.get(part) is None:
            node[part] = {}
        node = node[part]
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def apply_overlay(cat: Catalogue, path: Path) -> None:
    """Lay one overlay file over the catalogue. Every change is validated; on any error nothing
    of this overlay is applied.

        ruleset: panzerfaust
        changes:
          - kind: afv
            id: pzkw-iv-h
            set: {armour.hf: 8, speed_road: 38}
            note: "my printed copy, p. 62"
            provenance: overlay        # optional; the default
          - kind: afv
            add: {id: ..., name: ..., ...}   # a whole new record
    """
    file = str(path)
    doc = load_yaml(path)
    if not isinstance(doc, LineDict):
        raise DataError(
            [DataIssue(file, 1, None, "an overlay must be a mapping with ruleset and changes")]
        )
    if doc.get("ruleset") != cat.ruleset:
        raise DataError(
            [
                DataIssue(
                    file,
                    doc.key_lines.get("ruleset", 1),
                    "ruleset",
                    f"overlay is for {doc.get('ruleset')!r}, not {cat.ruleset!r}",
                )
            ]
        )
    changes = doc.get("changes")
    if not isinstance(changes, LineList):
        raise DataError(
            [DataIssue(file, doc.key_lines.get("changes", 1), "changes", "must be a list")]
        )
    issues: list[DataIssue] = []
    staged: list[tuple[str, Entry]] = []
    for i, change in enumerate(changes):
        line = changes.item_lines[i]
        if not isinstance(change, LineDict):
            issues.append(DataIssue(file, line, None, "each change must be a mapping"))
            continue
        kind = change.get("kind")
        if kind not in cat.kinds:
            issues.append(
                DataIssue(
                    file,
                    change.key_lines.get("kind", line),
                    "kind",
                    f"unknown kind {kind!r}; expected one of {sorted(cat.kinds)}",
                )
            )
            continue
        prov = change.get("provenance", "overlay")
        note = change.get("note")
        if "add" in change:
            raw = change["add"]
            if isinstance(raw, dict):
                raw.setdefault("source", {"seed": f"overlay:{path.name}"})
                raw.setdefault("provenance", prov)
            rec, plain, errs = _build(cat.kinds[kind], raw, file)
            issues += errs
            if rec is not None:
                staged.append((kind, Entry(rec, plain, file, line)))
            continue
        ident = change.get("id")
        existing = cat.entries.get(kind, {}).get(ident)
        if existing is None:
            issues.append(
                DataIssue(
                    file,
                    change.key_lines.get("id", line),
                    "id",
                    f"no {kind} with id {ident!r} to change" + _close_ids(cat, kind, ident),
                )
            )
            continue
        sets = change.get("set")
        if not isinstance(sets, dict) or not sets:
            issues.append(
                DataIssue(
                    file, change.key_lines.get("set", line), "set", "must map field paths to values"
                )
            )
            continue
        import copy

        plain = copy.deepcopy(existing.raw)
        fp = dict(plain.get("field_provenance", {}))
        for fpath, value in sets.items():
            if value is None:  # a template line not filled in yet (data missing): no change
                continue
            _set_path(plain, str(fpath), value)
            fp[str(fpath)] = {"provenance": prov, "ref": file, "note": note}
        plain["field_provenance"] = fp
        try:
            rec = cat.kinds[kind].model_validate(plain)
        except ValidationError as exc:
            for err in exc.errors():
                dotted = ".".join(str(p) for p in err["loc"])
                issues.append(
                    DataIssue(
                        file,
                        sets.key_lines.get(dotted, line) if hasattr(sets, "key_lines") else line,
                        f"{ident}: {dotted}",
                        err["msg"],
                    )
                )
            continue
        staged.append((kind, Entry(rec, plain, file, line)))
    if issues:
        raise DataError(issues)
    for kind, entry in staged:
        cat.entries.setdefault(kind, {})[entry.record.id] = entry
    cat.overlays.append(file)
