"""Scenario files: table, terrain, sides and forces, objectives, victory, reinforcements.

A scenario is YAML validated by these models; the ruleset then checks that every unit type exists
in its data. Coordinates are in the table's unit; facing in degrees, 0 = towards +y (north),
clockwise. See docs/scenarios.md for the format.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..data.errors import DataError, DataIssue
from ..data.yamlio import line_of, load_yaml

Point = tuple[float, float]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSpec(_M):
    width: float = Field(gt=0)
    depth: float = Field(gt=0)
    unit: Literal["inch", "cm"]


class FeatureSpec(_M):
    """A terrain feature: an area (`polygon`) or a linear feature (`line`, e.g. wall, road)."""

    id: str
    kind: str
    polygon: list[Point] | None = None
    line: list[Point] | None = None
    width: float | None = None  # roads and streams: their width on the table
    height: float = 0.0  # hills: ground height; woods/buildings/walls: top height
    attributes: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _shape(self) -> FeatureSpec:
        if (self.polygon is None) == (self.line is None):
            raise ValueError("a feature needs exactly one of polygon or line")
        if self.polygon is not None and len(self.polygon) < 3:
            raise ValueError("a polygon needs at least 3 points")
        if self.line is not None and len(self.line) < 2:
            raise ValueError("a line needs at least 2 points")
        return self


class UnitSpec(_M):
    id: str
    type: str  # a record of the ruleset's data (vehicle, infantry type ...)
    name: str | None = None
    x: float
    y: float
    facing: float = 0.0
    quality: str | None = None
    attachments: list[str] = Field(default_factory=list)  # e.g. an attached MG type
    transport: str | None = None  # id of the unit carrying it
    hidden: bool = False  # starts unseen by the enemy even in the open
    radio: bool = False  # may call for fire (quickref platoon radio)
    notes: str | None = None


class SideSpec(_M):
    id: str
    name: str
    nation: str
    edge: Literal["north", "south", "east", "west"] | None = None
    units: list[UnitSpec]


class Objective(_M):
    id: str
    name: str
    x: float
    y: float
    radius: float = 3.0
    points: int = 1


class VictoryCondition(_M):
    """`hold`: the side wins if at the end it alone has units within the objectives' radius;
    `destroy`: the side wins as soon as the enemy has lost `fraction` of its units."""

    kind: Literal["hold", "destroy"]
    side: str
    objectives: list[str] = Field(default_factory=list)
    fraction: float | None = None


class Victory(_M):
    turn_limit: int = Field(ge=1)
    conditions: list[VictoryCondition]
    default_winner: str | None = None  # who wins when no condition is met at the turn limit


class Reinforcement(_M):
    turn: int = Field(ge=1)
    side: str
    units: list[UnitSpec]


class Artillery(_M):
    """Off-board batteries a side may call on (ruleset-specific class names)."""

    side: str
    battery: str
    missions: int | None = None


class Scenario(_M):
    id: str
    name: str
    ruleset: str
    description: str = ""
    table: TableSpec
    terrain: list[FeatureSpec] = Field(default_factory=list)
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
    objectives: list[Objective] = Field(default_factory=list)
    victory: Victory
    reinforcements: list[Reinforcement] = Field(default_factory=list)
    artillery: list[Artillery] = Field(default_factory=list)
    special_rules: list[str] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _refs(self) -> Scenario:
        sides = {s.id for s in self.sides}
        ids: set[str] = set()
        all_units = [u for s in self.sides for u in s.units] + [
            u for r in self.reinforcements for u in r.units
        ]
        for u in all_units:
            if u.id in ids:
                raise ValueError(f"duplicate unit id {u.id!r}")
            ids.add(u.id)
        for u in all_units:
            if u.transport and u.transport not in ids:
                raise ValueError(f"unit {u.id!r}: transport {u.transport!r} is not a unit")
        objs = {o.id for o in self.objectives}
        for c in self.victory.conditions:
            if c.side not in sides:
                raise ValueError(f"victory condition for unknown side {c.side!r}")
            for o in c.objectives:
                if o not in objs:
                    raise ValueError(f"victory condition names unknown objective {o!r}")
        for r in self.reinforcements:
            if r.side not in sides:
                raise ValueError(f"reinforcement for unknown side {r.side!r}")
        for a in self.artillery:
            if a.side not in sides:
                raise ValueError(f"artillery for unknown side {a.side!r}")
        if self.victory.default_winner and self.victory.default_winner not in sides:
            raise ValueError(f"default_winner {self.victory.default_winner!r} is not a side")
        feature_ids = [f.id for f in self.terrain]
        if len(set(feature_ids)) != len(feature_ids):
            raise ValueError("terrain feature ids must be unique")
        return self

    def side(self, side_id: str) -> SideSpec:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise LookupError(f"no side {side_id!r}; sides are {[s.id for s in self.sides]}")

    @property
    def side_ids(self) -> list[str]:
        return [s.id for s in self.sides]


_LOADED: dict[tuple[str, int, int], Scenario] = {}


def load_scenario(path: Path) -> Scenario:
    """Parse and validate a scenario file; errors name file, line and field. Scenarios are
    frozen, so a file unchanged since it was last read (same size and mtime) is not parsed
    again (a batch of battles looks its scenario up once per battle)."""
    path = Path(path)
    try:
        st = path.stat()
    except OSError:
        return _parse_scenario(path)  # reports the missing or unreadable file
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    hit = _LOADED.get(key)
    if hit is None:
        hit = _LOADED[key] = _parse_scenario(path)
    return hit


def _parse_scenario(path: Path) -> Scenario:
    raw = load_yaml(path)
    try:
        sc = Scenario.model_validate(raw)
        off = off_table(sc, raw, path)
        if off:
            raise DataError(off)
        return sc
    except ValidationError as exc:
        issues = []
        for err in exc.errors():
            loc = tuple(err["loc"])
            issues.append(
                DataIssue(str(path), line_of(raw, loc), ".".join(map(str, loc)) or None, err["msg"])
            )
        raise DataError(issues) from None


def off_table(sc: Scenario, raw: Any, path: Path) -> list[DataIssue]:
    """Units and objectives must stand on the table (0..width, 0..depth), each named by line."""
    w, d, unit = sc.table.width, sc.table.depth, sc.table.unit
    places: list[tuple[tuple[Any, ...], str, float, float]] = []
    for i, side in enumerate(sc.sides):
        places += [
            (("sides", i, "units", j), f"unit {u.id!r}", u.x, u.y) for j, u in enumerate(side.units)
        ]
    for i, r in enumerate(sc.reinforcements):
        places += [
            (("reinforcements", i, "units", j), f"unit {u.id!r}", u.x, u.y)
            for j, u in enumerate(r.units)
        ]
    places += [
        (("objectives", i), f"objective {o.id!r}", o.x, o.y) for i, o in enumerate(sc.objectives)
    ]
    issues = []
    for loc, what, x, y in places:
        for axis, value, limit in (("x", x, w), ("y", y, d)):
            if not 0 <= value <= limit:
                issues.append(
                    DataIssue(
                        str(path),
                        line_of(raw, (*loc, axis)),
                        ".".join(map(str, (*loc, axis))),
                        f"{what}: {axis} = {value:g} is off the {w:g} x {d:g} {unit} table "
                        f"({axis} runs from 0 to {limit:g})",
                    )
                )
    return issues


def scenario_dirs() -> list[tuple[str, Path]]:
    """(ruleset, folder) for every ruleset's shipped scenarios."""
    from .registry import entries

    return [(e.id, e.scenarios) for e in entries() if e.scenarios and e.scenarios.is_dir()]


_FOUND: dict[str, Path] = {}  # shipped scenario id -> its file, as last found


def find_scenario(ident: str) -> Scenario:
    """A shipped scenario by id, or a path to a scenario file. The file of an id found
    before is read again (`load_scenario` parses it only if it changed) without searching
    every shipped file (a batch of battles looks its scenario up once per battle)."""
    p = Path(ident)
    if p.suffix in (".yaml", ".yml") and p.exists():
        return load_scenario(p)
    found = _FOUND.get(ident)
    if found is not None and found.exists():
        sc = load_scenario(found)
        if sc.id == ident:
            return sc
    known = []
    for _, folder in scenario_dirs():
        for f in sorted(folder.glob("*.yaml")):
            sc = load_scenario(f)
            if sc.id == ident:
                _FOUND[ident] = f
                return sc
            known.append(sc.id)
    raise LookupError(f"unknown scenario {ident!r}; shipped: {', '.join(known) or 'none'}")


def all_scenarios() -> list[Scenario]:
    return [
        load_scenario(f) for _, folder in scenario_dirs() for f in sorted(folder.glob("*.yaml"))
    ]
