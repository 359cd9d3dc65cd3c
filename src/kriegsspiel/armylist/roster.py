"""The roster document: a versioned, ruleset-neutral tree of selections (docs/rosters.md).

A roster names its ruleset, nation, army list, theatre, date and points limit, and holds a tree
of selections. Each selection picks one catalogue entry (`kind:id`), may carry a count, a
custom name, notes, options and a troop rating, and holds the selections bought inside it.
`snapshot` keeps the price and availability of every entry as they were when the roster was
last saved, so `army migrate` can show what a data update changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

FORMAT = "kriegsspiel-roster"
VERSION = 1
_DATE = re.compile(r"^(19[3-4]\d)-(0[1-9]|1[0-2])$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


class RosterError(ValueError):
    """A roster file or an edit is invalid; the message names the file/field or the path."""


class Selection(BaseModel):
    """One bought entry. `id` is unique in the roster; a path is ids joined by '/'."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    id: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    entry: str = Field(min_length=3, max_length=200)
    count: int = Field(default=1, ge=1, le=100)
    name: str | None = Field(default=None, max_length=120)
    notes: str | None = Field(default=None, max_length=2000)
    rating: str | None = Field(default=None, max_length=60)
    options: list[str] = Field(default_factory=list, max_length=20)
    covers: list[str] = Field(default_factory=list, max_length=50)  # ids a fortification holds
    children: list[Selection] = Field(default_factory=list, max_length=200)

    @field_validator("name", "rating")
    @classmethod
    def _one_line(cls, v: str | None) -> str | None:
        if v is not None and _CONTROL.search(v):
            raise ValueError("must be one line of printable text (no control characters)")
        return v

    @field_validator("notes")
    @classmethod
    def _text(cls, v: str | None) -> str | None:
        if v is not None and _CONTROL.search(v.replace("\n", "").replace("\t", "")):
            raise ValueError("may hold line breaks and tabs but no other control characters")
        return v


class SnapshotItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    pv: int | None
    provenance: str | None
    available: str | None = None  # "1940-05..1945-12" or None when undated


class Roster(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    format: Literal["kriegsspiel-roster"] = FORMAT
    version: int = VERSION
    ruleset: str
    name: str = Field(default="Unnamed force", max_length=120)
    nation: str
    army_list: str | None = None
    theatre: str | None = None
    date: str
    points: int | None = Field(default=None, ge=1, le=100000)
    data_revision: str | None = None
    selections: list[Selection] = Field(default_factory=list, max_length=500)
    snapshot: dict[str, SnapshotItem] = Field(default_factory=dict)

    @field_validator("date")
    @classmethod
    def _date(cls, v: str) -> str:
        if not _DATE.match(v):
            raise ValueError(f"date must be YYYY-MM between 1930 and 1949, got {v!r}")
        return v

    @field_validator("version")
    @classmethod
    def _version(cls, v: int) -> int:
        if v > VERSION:
            raise ValueError(f"roster version {v} is newer than this program reads ({VERSION})")
        return v

    @property
    def year_month(self) -> tuple[int, int]:
        y, m = self.date.split("-")
        return int(y), int(m)

    # --- tree helpers ------------------------------------------------------------------------
    def walk(self) -> Iterator[tuple[str, Selection, Selection | None]]:
        """(path, selection, parent) for every selection, depth first."""

        def rec(sel: Selection, prefix: str, parent: Selection | None):
            path = f"{prefix}{sel.id}"
            yield path, sel, parent
            for child in sel.children:
                yield from rec(child, f"{path}/", sel)

        for top in self.selections:
            yield from rec(top, "", None)

    def find(self, path: str) -> Selection:
        """The selection at `path` (ids joined by '/'); a RosterError names the missing id."""
        ids = [p for p in path.strip("/").split("/") if p]
        level = self.selections
        found: Selection | None = None
        for i, ident in enumerate(ids):
            found = next((s for s in level if s.id == ident), None)
            if found is None:
                where = "/".join(ids[:i]) or "the roster root"
                known = ", ".join(s.id for s in level) or "none"
                raise RosterError(f"no selection {ident!r} under {where} (there: {known})")
            level = found.children
        if found is None:
            raise RosterError("path is empty: give a selection id such as s1 or s1/s2")
        return found

    def parent_list(self, path: str) -> list[Selection]:
        """The list a new selection under `path` goes into ('/' or '' is the roster root)."""
        return self.selections if path.strip("/") == "" else self.find(path).children

    def new_id(self) -> str:
        used = {s.id for _, s, _ in self.walk()}
        n = len(used) + 1
        while f"s{n}" in used:
            n += 1
        return f"s{n}"

    def duplicate(self, path: str) -> Selection:
        """Copy the selection at `path` and everything in it, with fresh ids, right after it."""
        ids = path.strip("/").split("/")
        sel = self.find(path)
        siblings = self.parent_list("/".join(ids[:-1]))
        used = {s.id for _, s, _ in self.walk()}

        def fresh(s: Selection) -> Selection:
            n = len(used) + 1
            while f"s{n}" in used:
                n += 1
            used.add(f"s{n}")
            return s.model_copy(update={"id": f"s{n}", "children": [fresh(c) for c in s.children]})

        copy = fresh(sel)
        siblings.insert(siblings.index(sel) + 1, copy)
        return copy

    def remove(self, path: str) -> Selection:
        ids = path.strip("/").split("/")
        sel = self.find(path)
        siblings = self.parent_list("/".join(ids[:-1]))
        siblings.remove(sel)
        return sel


def _error_lines(exc: ValidationError, where: str) -> str:
    lines = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"])
        lines.append(f"{where}: field {loc or '(root)'}: {err['msg']}")
    return "\n".join(lines)


def checked(fn, where: str = "roster"):
    """Run `fn()`; a pydantic error becomes a RosterError naming each field."""
    try:
        return fn()
    except ValidationError as exc:
        raise RosterError(_error_lines(exc, where)) from None


def parse_roster(data: object, where: str = "roster") -> Roster:
    if not isinstance(data, dict):
        raise RosterError(f"{where}: a roster must be a mapping with format: {FORMAT}")
    if data.get("format", FORMAT) != FORMAT:
        raise RosterError(f"{where}: format is {data.get('format')!r}, expected {FORMAT!r}")
    try:
        return Roster.model_validate(data)
    except ValidationError as exc:
        raise RosterError(_error_lines(exc, where)) from None


def load_roster(path: Path) -> Roster:
    """Read a roster from YAML or JSON; errors name the file (and line for YAML syntax)."""
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise RosterError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        data = json.loads(text) if str(path).endswith(".json") else yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else (f":{exc.lineno}" if hasattr(exc, "lineno") else "")
        raise RosterError(f"{path}{line}: not valid YAML/JSON: {exc}") from None
    return parse_roster(data, str(path))


def dump_roster(roster: Roster, fmt: str = "yaml") -> str:
    data = {"format": roster.format, "version": roster.version}
    data.update(roster.model_dump(mode="json", exclude_defaults=True))
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def save_roster(roster: Roster, path: Path) -> None:
    """Write atomically (a temporary file renamed over the target): nothing half-written."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(dump_roster(roster, "json" if path.suffix == ".json" else "yaml"))
    tmp.replace(path)
