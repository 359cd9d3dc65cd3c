"""Scenario files (format v2): a generic core (table, terrain, sides, objectives, victory,
reinforcements with entry edges, special rules, briefing) and per-side `forces` blocks that the
ruleset validates with its own model (registry entry `forces_model`).

A scenario is YAML validated by these models; the ruleset then checks that every unit type exists
in its data. Coordinates are in the table's unit; facing in degrees, 0 = towards +y (north),
clockwise. See docs/scenarios.md for the format.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from ..data.errors import DataError, DataIssue
from ..data.yamlio import line_of, load_yaml

Point = tuple[float, float]


class SpecModel(BaseModel):
    """The base of every scenario model (rulesets' forces models too): unknown fields are
    errors, and a scenario never changes once read."""

    model_config = ConfigDict(extra="forbid", frozen=True)


_M = SpecModel


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


class Piece(_M):
    """The generic part of a piece placed on the table: every ruleset's unit model extends it
    (a ruleset's `forces_model` adds its own fields: quickref's radio and attachments,
    Panzerfaust's teams in platoons, Battleground's figures with arms and morale)."""

    id: str
    type: str  # a record of the ruleset's data (vehicle, infantry type ...)
    name: str | None = None
    x: float
    y: float
    facing: float = 0.0
    transport: str | None = None  # id of the piece carrying it
    notes: str | None = None


class Forces(Protocol):
    """What the engine needs of one side's validated `forces` block: its placed pieces."""

    def pieces(self) -> list[Piece]: ...


class PlacedForces(_M):
    """The forces block of a ruleset that registers no `forces_model`: a list of pieces."""

    units: list[Piece] = Field(default_factory=list)

    def pieces(self) -> list[Piece]:
        return list(self.units)


Edge = Literal["north", "south", "east", "west"]


class SideSpec(_M):
    """A side: who it is and the table edge it comes from. Its pieces are in the scenario's
    `forces` block (v2), or in `units` here (the v1 form, still read: it means
    `forces: {<side>: {units: [...]}}`)."""

    id: str
    name: str
    nation: str
    edge: Edge | None = None
    units: list[Any] | None = None


class Objective(_M):
    """A place on the table. `radius` defaults to the ruleset's (registry: objective_radius)."""

    id: str
    name: str
    x: float
    y: float
    radius: float = Field(gt=0)
    points: int = 1


VICTORY_KINDS = ("hold", "destroy", "exit", "losses", "occupy")

# the fields each kind takes besides `kind` and `side` (another one is an error naming it)
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "hold": ("objectives",),
    "occupy": ("objectives", "distance"),
    "destroy": ("fraction",),
    "losses": ("points", "share"),
    "exit": ("edge", "count", "points", "share", "by_turn"),
}
EXIT_MEASURES = ("count", "points", "share")


class VictoryCondition(_M):
    """One way for `side` to win (engine/victory.py evaluates them; docs/scenarios.md):

    - `hold` (at the turn limit): it alone has pieces within each named objective's radius;
    - `occupy` (at the turn limit): it has a piece within each objective's radius and no enemy
      piece is within `distance` of it;
    - `destroy` (at once): the enemy has lost `fraction` of its pieces;
    - `losses` (at once): the enemy has lost `points` points, or `share` of its points;
    - `exit` (at once, up to `by_turn` if given): its pieces that left the table by `edge`
      number `count`, or are worth `points`, or are worth `share` of its whole force (a
      piece's worth is the ruleset's: registry entry `worth`; 1 each where it has none)."""

    kind: Literal["hold", "destroy", "exit", "losses", "occupy"]
    side: str
    objectives: list[str] = Field(default_factory=list)
    fraction: float | None = Field(default=None, gt=0, le=1)
    points: float | None = Field(default=None, gt=0)
    share: float | None = Field(default=None, gt=0, le=1)
    edge: Edge | None = None
    count: int | None = Field(default=None, ge=1)
    distance: float | None = Field(default=None, ge=0)
    by_turn: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _fields(self) -> VictoryCondition:
        takes = KIND_FIELDS[self.kind]
        a = "an" if self.kind[0] in "aeiou" else "a"
        for name in ("objectives", "fraction", "points", "share", "edge", "count", "distance",
                     "by_turn"):  # fmt: skip
            if name not in takes and getattr(self, name):
                raise ValueError(
                    f"{name!r} is not a field of {a} {self.kind} condition "
                    f"(it takes {', '.join(repr(t) for t in takes)})"
                )
        need = {
            "hold": ("objectives",),
            "occupy": ("objectives", "distance"),
            "destroy": ("fraction",),
            "exit": ("edge",),
        }.get(self.kind, ())
        for name in need:
            if not getattr(self, name):
                raise ValueError(f"{a} {self.kind} condition needs {name!r}")
        if self.kind == "losses" and (self.points is None) == (self.share is None):
            raise ValueError("a losses condition needs exactly one of 'points' or 'share'")
        if self.kind == "exit" and sum(getattr(self, m) is not None for m in EXIT_MEASURES) != 1:
            raise ValueError("an exit condition needs exactly one of 'count', 'points' or 'share'")
        return self

    @property
    def measure(self) -> str | None:
        """An exit condition's measure: `count`, `points` or `share` (None for other kinds)."""
        if self.kind != "exit":
            return None
        return next(m for m in EXIT_MEASURES if getattr(self, m) is not None)


class Victory(_M):
    turn_limit: int = Field(ge=1)
    conditions: list[VictoryCondition]
    default_winner: str | None = None  # who wins when no condition is met at the turn limit


class Reinforcement(_M):
    """Pieces that arrive on `turn`, by `edge` (the entry edge; default: the side's edge).
    `forces` is a forces block of the side's ruleset; `units` the v1 form of the same."""

    turn: int = Field(ge=1)
    side: str
    edge: Edge | None = None
    forces: Any = None
    units: list[Any] | None = None


class Artillery(_M):
    """Off-board batteries a side may call on (ruleset-specific class names)."""

    side: str
    battery: str
    missions: int | None = None


class Scenario(_M):
    """A scenario (format v2, docs/scenarios.md): a generic core the engine checks, and a
    `forces` block per side that the ruleset's own model (registry: forces_model) checks."""

    id: str
    name: str
    ruleset: str
    description: str = ""
    briefing: str = ""  # shown to both players before the game
    table: TableSpec
    terrain: list[FeatureSpec] = Field(default_factory=list)
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
    forces: dict[str, Any] = Field(default_factory=dict)
    objectives: list[Objective] = Field(default_factory=list)
    victory: Victory
    reinforcements: list[Reinforcement] = Field(default_factory=list)
    artillery: list[Artillery] = Field(default_factory=list)
    special_rules: list[str] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)

    _forces: dict[str, Any] = PrivateAttr(default_factory=dict)
    _arrivals: list[Any] = PrivateAttr(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _default_radius(cls, data: Any) -> Any:
        """Objectives without a radius take the ruleset's default (registry entry)."""
        if not isinstance(data, dict) or not isinstance(data.get("objectives"), list):
            return data
        if all(not isinstance(o, dict) or "radius" in o for o in data["objectives"]):
            return data
        radius = _ruleset_entry(data.get("ruleset")).objective_radius
        if radius is None:
            return data  # the field then reports the missing radius
        data = dict(data)
        data["objectives"] = [
            {**o, "radius": radius} if isinstance(o, dict) and "radius" not in o else o
            for o in data["objectives"]
        ]
        return data

    @model_validator(mode="after")
    def _refs(self) -> Scenario:
        sides = {s.id for s in self.sides}
        for key in self.forces:
            if key not in sides:
                raise ValueError(f"forces for unknown side {key!r}; sides are {sorted(sides)}")
        for s in self.sides:
            if s.units is not None and s.id in self.forces:
                raise ValueError(f"side {s.id!r} has both units and a forces block: give one")
        for r in self.reinforcements:
            if r.side not in sides:
                raise ValueError(f"reinforcement for unknown side {r.side!r}")
        validated, issues = validate_forces(self.ruleset, self.model_dump(include=_RAW_KEYS))
        if issues:
            raise ValueError("; ".join(f"{'.'.join(map(str, loc))}: {msg}" for loc, msg in issues))
        self._forces = {s.id: validated[("side", s.id)] for s in self.sides}
        self._arrivals = [validated[("reinforcement", i)] for i in range(len(self.reinforcements))]
        ids: set[str] = set()
        all_units = [u for s in self.sides for u in self.pieces(s.id)] + [
            u for r in range(len(self.reinforcements)) for u in self.arriving(r)
        ]
        for u in all_units:
            if u.id in ids:
                raise ValueError(f"duplicate unit id {u.id!r}")
            ids.add(u.id)
        for u in all_units:
            if u.transport and u.transport not in ids:
                raise ValueError(f"unit {u.id!r}: transport {u.transport!r} is not a unit")
        objs = {o.id for o in self.objectives}
        for i, c in enumerate(self.victory.conditions):
            at = f"victory.conditions.{i}"
            if c.side not in sides:
                raise ValueError(f"{at}.side: victory condition for unknown side {c.side!r}")
            for o in c.objectives:
                if o not in objs:
                    raise ValueError(
                        f"{at}.objectives: victory condition names unknown objective {o!r}"
                    )
            if c.by_turn is not None and c.by_turn > self.victory.turn_limit:
                raise ValueError(
                    f"{at}.by_turn: turn {c.by_turn} is after the turn limit "
                    f"{self.victory.turn_limit}"
                )
            if c.measure == "points" and _ruleset_entry(self.ruleset).worth is None:
                raise ValueError(
                    f"{at}.points: the {self.ruleset} ruleset gives its pieces no worth in "
                    "points; count them with 'count' (or 'share' of them)"
                )
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

    def forces_of(self, side_id: str) -> Any:
        """The side's forces as its ruleset's model validated them."""
        self.side(side_id)
        return self._forces[side_id]

    def pieces(self, side_id: str) -> list[Piece]:
        """The pieces a side sets up on the table at the start."""
        return self.forces_of(side_id).pieces()

    def setup_view(self) -> dict[str, Any]:
        """The table as set up, in the view envelope's shape (engine/envelope.py): what
        `scenario show` draws for a ruleset whose games cannot be played yet. Pieces still
        to deploy (no position) are left out; features a side's forces place (their optional
        `features()`, e.g. Panzerfaust's mine fields and entrenchments) are added to the
        terrain with the side named in their attributes."""
        units = [
            p.model_dump() | {"side": s.id}
            for s in self.sides
            for p in self.pieces(s.id)
            if p.x is not None and p.y is not None
        ]
        placed = [  # what a side's forces put on the ground (a ruleset's mine fields, works)
            f | {"attributes": {**f.get("attributes", {}), "side": s.id}}
            for s in self.sides
            for f in getattr(self.forces_of(s.id), "features", list)()
        ]
        return {
            "ruleset": self.ruleset,
            "table": self.table.model_dump(),
            "terrain": [f.model_dump() for f in self.terrain] + placed,
            "objectives": [o.model_dump() for o in self.objectives],
            "sides": [s.model_dump(exclude={"units"}) for s in self.sides],
            "units": units,
        }

    def arriving(self, index: int) -> list[Piece]:
        """The pieces of reinforcement `index` (scenario order)."""
        return self._arrivals[index].pieces()

    def arrival_forces(self, index: int) -> Any:
        """Reinforcement `index`'s forces as its ruleset's model validated them."""
        return self._arrivals[index]


_RAW_KEYS = {"sides", "forces", "reinforcements"}


def _ruleset_entry(ruleset: Any) -> Any:
    from .registry import entry

    if not isinstance(ruleset, str):
        raise ValueError("ruleset must be a ruleset id")
    try:
        return entry(ruleset)
    except LookupError as exc:
        raise ValueError(str(exc)) from None


def forces_blocks(raw: Any) -> list[tuple[tuple[str, Any], str, Any, tuple[Any, ...]]]:
    """Every forces block of a scenario's raw data: (key, side, block, where it is in the
    file). A v1 `units` list (of a side or a reinforcement) is the block `{units: [...]}`
    found at its parent, so that an error's location inside it still names the file's path."""
    out = []
    if not isinstance(raw, dict):
        return out
    forces = raw.get("forces") or {}
    for i, s in enumerate(raw.get("sides") or []):
        if not isinstance(s, dict) or not isinstance(s.get("id"), str):
            continue
        sid = s["id"]
        if s.get("units") is not None:
            out.append((("side", sid), sid, {"units": s["units"]}, ("sides", i)))
        else:
            block = forces.get(sid) if isinstance(forces, dict) else None
            out.append((("side", sid), sid, block, ("forces", sid)))
    for j, r in enumerate(raw.get("reinforcements") or []):
        if not isinstance(r, dict):
            continue
        side = r.get("side")
        if r.get("units") is not None:
            out.append((("reinforcement", j), side, {"units": r["units"]}, ("reinforcements", j)))
        else:
            out.append(
                (("reinforcement", j), side, r.get("forces"), ("reinforcements", j, "forces"))
            )
    return out


def validate_forces(
    ruleset: str, raw: Any
) -> tuple[dict[tuple[str, Any], Any], list[tuple[tuple[Any, ...], str]]]:
    """Validate every forces block of a scenario with its ruleset's `forces_model` (the
    generic `PlacedForces` if it has none): the validated blocks by key, and the problems as
    (location in the file, message)."""
    model = _ruleset_entry(ruleset).forces_model
    validated: dict[tuple[str, Any], Any] = {}
    issues: list[tuple[tuple[Any, ...], str]] = []
    for key, side, block, where in forces_blocks(raw):
        if block is None:
            block = {}
        try:
            if model is None:
                validated[key] = PlacedForces.model_validate(block)
            else:
                validated[key] = model(block, side)
        except ValidationError as exc:
            for err in exc.errors():
                issues.append(((*where, *err["loc"]), err["msg"]))
        except (ValueError, TypeError, LookupError) as exc:
            issues.append((where, str(exc)))
    return validated, issues


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
    if isinstance(raw, dict) and isinstance(raw.get("ruleset"), str):
        try:
            _, found = validate_forces(raw["ruleset"], raw)
        except ValueError:
            found = []  # an unknown ruleset: the model below reports it
        if found:
            raise DataError(
                [
                    DataIssue(str(path), line_of(raw, loc), ".".join(map(str, loc)), msg)
                    for loc, msg in found
                ]
            )
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


def _placed(block: Any) -> list[dict[str, Any]]:
    """Every piece placed in a raw forces block, whatever the ruleset's nesting: a mapping
    with an id and numeric x and y (a piece still to deploy has none)."""
    out: list[dict[str, Any]] = []
    if isinstance(block, dict):
        if isinstance(block.get("id"), str) and all(
            isinstance(block.get(k), int | float) for k in ("x", "y")
        ):
            out.append(block)
        for v in block.values():
            out += _placed(v)
    elif isinstance(block, list):
        for v in block:
            out += _placed(v)
    return out


def _path_to(block: Any, piece_id: str) -> tuple[Any, ...]:
    """Where the piece `piece_id` stands inside a raw forces block (for the error's line)."""
    if isinstance(block, dict):
        if block.get("id") == piece_id:
            return ()
        items = block.items()
    elif isinstance(block, list):
        items = enumerate(block)
    else:
        return ()
    for k, v in items:
        if not isinstance(v, dict | list):
            continue
        sub = _path_to(v, piece_id)
        if sub or (isinstance(v, dict) and v.get("id") == piece_id):
            return (k, *sub)
    return ()


def off_table(sc: Scenario, raw: Any, path: Path) -> list[DataIssue]:
    """Units and objectives must stand on the table (0..width, 0..depth), each named by line."""
    w, d, unit = sc.table.width, sc.table.depth, sc.table.unit
    places: list[tuple[tuple[Any, ...], str, float, float]] = []
    for _, _side, block, where in forces_blocks(raw):
        for u in _placed(block):
            loc = (*where, *_path_to(block, u["id"]))
            places.append((loc, f"unit {u['id']!r}", u["x"], u["y"]))
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
