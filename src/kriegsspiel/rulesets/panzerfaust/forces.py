"""Panzerfaust's `forces` block of a scenario: everything one side needs at set-up (seed 000).

Companies of platoons of teams and AFVs (p6: platoons are the unit of command and of
alternate movement; troop class and morale pp. 4-5, p22), their HQs and radios (p7, p15),
transports and riders (pp. 25-26), dug-in / camouflaged / entrenched teams (p9, p38), hidden
deployment with dummy counters (p5: at most one dummy per real counter), platoons that arrive
later (pp. 4-5), off-table batteries with their observers (p35, p37) and aircraft (p42), and
the side's role and deployment zone (pp. 4-5). Every record id is checked against the army
lists and every reference inside the block is checked; an error names its field path.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from ...engine.scenario import Edge, Piece, SpecModel
from .models import Morale, TroopClass

Point = tuple[float, float]
TEAM_KINDS = (  # a piece on the table; `battery` rows are on-table mortars (p35)
    "afv",
    "softskin",
    "motorised_gun",
    "gun",
    "infantry_team",
    "infantry_weapon",
    "battery",
)
CARRIER_KINDS = ("afv", "softskin", "motorised_gun")


def _catalogue() -> Any:
    from .. import load

    return load("panzerfaust")


def resolve(ref: str, kinds: tuple[str, ...]) -> tuple[str, Any]:
    """(kind, record) of a reference `kind:id` (or a bare id tried against `kinds`); raises
    ValueError naming the reference when the army lists hold no such record."""
    cat = _catalogue()
    kind, sep, ident = ref.partition(":")
    if sep and kind in kinds:
        try:
            return kind, cat.get(kind, ident)
        except LookupError as exc:
            raise ValueError(f"unknown {kind} record {ident!r} ({exc})") from None
    if sep:
        raise ValueError(f"{ref!r}: kind {kind!r} is not one of {', '.join(kinds)}")
    for k in kinds:
        if ref in cat.entries.get(k, {}):
            return k, cat.get(k, ref)
    raise ValueError(f"unknown record {ref!r}: write kind:id, kind one of {', '.join(kinds)}")


def _record(kinds: tuple[str, ...]):
    def check(value: str) -> str:
        resolve(value, kinds)
        return value

    return check


class Team(Piece):
    """An infantry team, gun or vehicle: a record of the army lists (`type`, `kind:id`).
    Without x and y it is still to deploy (hidden map deployment, or an arriving platoon)."""

    x: float | None = None  # type: ignore[assignment]
    y: float | None = None  # type: ignore[assignment]
    troop_class: TroopClass | None = None  # default: its platoon's
    morale: Morale | None = None
    hq: Literal["company", "platoon"] | None = None  # p7: HQs roll pips / give command radius
    radio: bool | None = None  # None: as the record (or the organisation's radio slot) says
    fao: bool = False  # p35: a forward artillery observer
    turret_facing: float | None = None  # AFVs: default the hull's facing
    limbered: bool = False  # towed guns (p33): limbered to `tower` at the start
    tower: str | None = None  # a limbered gun's towing vehicle (a piece id of the same side)
    portee: bool = False  # a gun carried en portee on its `tower` (p34), with `limbered: true`
    crew_in: str | None = None  # a gun whose crew rides apart, in this vehicle (p34)
    dug_in: bool = False  # p38: dug-in counter
    floor: int = Field(0, ge=0)  # p19: the floor of the building it stands in (0: ground)
    camouflaged: bool = False  # p9: camouflage already made
    closed_down: bool = False  # p8-9, p17: an AFV placed with its hatches closed (P341)
    entrenched: str | None = None  # id of the side's work (entrenchment, pillbox) it occupies
    hidden: bool = False  # p5: placed on the map, not on the table, until observed
    squad: str | None = None  # p11: teams of one squad/section move and test morale as one

    _type = field_validator("type")(_record(TEAM_KINDS))

    @model_validator(mode="after")
    def _placed(self) -> Team:
        if (self.x is None) != (self.y is None):
            raise ValueError("a team is placed with both x and y, or neither (still to deploy)")
        return self

    @property
    def placed(self) -> bool:
        return self.x is not None


class Platoon(SpecModel):
    id: str
    name: str | None = None
    organisation: str | None = None  # organisation:<nation>/<id> of the army lists
    troop_class: TroopClass | None = None  # default: its company's
    morale: Morale | None = None
    teams: list[Team] = Field(min_length=1)

    _org = field_validator("organisation")(
        lambda v: v if v is None else _record(("organisation",))(v)
    )


class Company(SpecModel):
    id: str
    name: str | None = None
    organisation: str | None = None
    troop_class: TroopClass = "regular"
    morale: Morale = "reliable"
    platoons: list[Platoon] = Field(min_length=1)

    _org = field_validator("organisation")(
        lambda v: v if v is None else _record(("organisation",))(v)
    )


class Dummy(SpecModel):
    """A dummy counter of hidden deployment (p5), placed like a real one and marked with a
    size (A-D) as real counters are."""

    id: str
    x: float
    y: float
    size: Literal["A", "B", "C", "D"] | None = None


class Arrival(SpecModel):
    """Platoons that enter later (pp. 4-5: an attacker's platoons come on from its edge):
    on `turn`, by `edge` (default: the side's edge), at `point` when given."""

    turn: int = Field(ge=1)
    platoons: list[str] = Field(min_length=1)
    edge: Edge | None = None
    point: Point | None = None


class MapFire(SpecModel):
    """One target of a battery's map fire, written before the game (p37): the point and the
    turns it fires there."""

    x: float
    y: float
    turns: list[int] = Field(min_length=1)
    ammo: Literal["he", "smoke", "wp"] = "he"  # p37: smoke or WP laid by indirect fire


class Battery(SpecModel):
    """An off-table battery (p35, p37): `count` is in the record's basis (pairs, tubes),
    `observers` the teams that may call it down (FAOs, or any radio team for mortars).
    The game also needs its calibre (most printed calibres are lost, p35/p58), its class
    (call-down column, map-fire delay) and its map-fire plan (`plan`, p37)."""

    id: str
    type: str
    count: int = Field(default=1, ge=1)
    missions: int | None = Field(default=None, ge=1)
    observers: list[str] = Field(default_factory=list)
    map_fire: bool = True  # p37: pre-planned fire written before the game may be used
    calibre_mm: float = Field(default=75, gt=0, le=420)
    troop_class: Literal["veteran", "regular", "conscript"] = "regular"
    plan: list[MapFire] = Field(default_factory=list)  # p37 map fire (needs map_fire)
    # p37 indirect smoke: None = as the nation's army-list note says (game/indirect_smoke.py)
    smoke: bool | None = None
    wp: bool | None = None
    counter_battery: bool = False  # p37: assigned to counter-battery fire before the game
    # p36: the Battery Fire Control of an on-board mortar platoon (its id): the platoon fires
    # as this battery when an FAO directs it (game/onboard_fire.py, P325)
    on_board: str | None = None

    _type = field_validator("type")(_record(("battery",)))

    @model_validator(mode="after")
    def _planned(self) -> Battery:
        if self.plan and not self.map_fire:
            raise ValueError("a map-fire plan needs map_fire: true")
        return self


class Strike(SpecModel):
    """A prepared strike written before the game (p42): target, approach, altitude, turn."""

    turn: int = Field(ge=1)
    x: float
    y: float
    heading: float = Field(default=0.0, ge=0, lt=360)  # where it flies, degrees from north
    altitude: Literal["low", "medium"] = "low"


class Aircraft(SpecModel):
    """Aircraft a side may call in phase A (p42): `sorties` passes in all, none before `from_turn`.
    Its loads: a row of the p42 bomb table (the kg column is lost), 0/4/8 rockets (p43)."""

    id: str
    type: str
    count: int = Field(default=1, ge=1)
    sorties: int = Field(default=1, ge=1)
    from_turn: int = Field(default=1, ge=1)
    bomb_row: int | None = Field(default=None, ge=1, le=6)
    rockets: Literal[0, 4, 8] = 0
    armoured: bool = False
    prepared: list[Strike] = Field(default_factory=list)

    _type = field_validator("type")(_record(("aircraft",)))

    @model_validator(mode="after")
    def _loaded(self) -> Aircraft:
        if self.prepared and self.bomb_row is None and not self.rockets:
            raise ValueError("a prepared strike uses bombs or rockets only (p42)")
        if any(s.turn < self.from_turn for s in self.prepared):
            raise ValueError(f"a prepared strike before from_turn {self.from_turn}")
        return self


class Work(SpecModel):
    """A mine field, fortification or obstacle the side places (p38-39): an area (`polygon`)
    or a point (`x`, `y`, for a pillbox). Hidden works (mines) are the side's secret."""

    id: str
    type: str
    polygon: list[Point] | None = Field(default=None, min_length=3)
    x: float | None = None
    y: float | None = None
    facing: float = 0.0
    density: Literal["sparse", "medium", "dense"] | None = None  # mines (p38)
    hidden: bool = False

    _type = field_validator("type")(_record(("fieldwork",)))

    @model_validator(mode="after")
    def _shape(self) -> Work:
        if (self.polygon is None) == (self.x is None or self.y is None):
            raise ValueError("a work is an area (polygon) or a point (x and y): give one")
        return self


class PanzerfaustForces(SpecModel):
    """One side's forces. A scenario written by the army builder (`scenario new --roster`)
    also carries the roster document itself (its legality is the builder's to check), the
    side's role in the battle type and its deployment zone (pp. 4-5)."""

    nation: str | None = None
    roster: str | dict[str, Any] | None = None  # a roster file's name, or the roster itself
    role: Literal["attacker", "defender", "encounter"] | None = None
    deployment: list[Point] | None = Field(default=None, min_length=3)
    enters_from_edge: bool = False
    companies: list[Company] = Field(default_factory=list)
    dummies: list[Dummy] = Field(default_factory=list)
    arrivals: list[Arrival] = Field(default_factory=list)
    batteries: list[Battery] = Field(default_factory=list)
    aircraft: list[Aircraft] = Field(default_factory=list)
    works: list[Work] = Field(default_factory=list)
    listening_post: bool = False  # p37: an off-table listening post for counter-battery fire

    def pieces(self) -> list[Team]:
        return [t for c in self.companies for p in c.platoons for t in p.teams]

    def features(self) -> list[dict[str, Any]]:
        """The side's works as terrain features for the umpire's picture (a point work, e.g.
        a pillbox, as a 4 cm square); `attributes.hidden` marks the secret ones."""
        out = []
        for w in self.works:
            kind, rec = resolve(w.type, ("fieldwork",))
            shape = w.polygon or [
                (w.x + dx, w.y + dy)  # type: ignore[operator]
                for dx, dy in ((-2, -2), (2, -2), (2, 2), (-2, 2))
            ]
            name = {"mine": "minefield", "fortification": "entrenchment"}.get(rec.work_kind)
            out.append(
                {
                    "id": w.id,
                    "kind": name or rec.work_kind,
                    "polygon": [list(p) for p in shape],
                    "attributes": {"type": w.type, "hidden": w.hidden},
                }
            )
        return out

    def platoon(self, pid: str) -> Platoon:
        for c in self.companies:
            for p in c.platoons:
                if p.id == pid:
                    return p
        raise LookupError(f"no platoon {pid!r}")


def _references(f: PanzerfaustForces) -> list[tuple[tuple[Any, ...], str]]:
    """Every broken reference inside the block, as (field path, message)."""
    out: list[tuple[tuple[Any, ...], str]] = []
    teams: dict[str, Team] = {}
    ids: set[str] = set()
    for ci, c in enumerate(f.companies):
        heads = 0
        for pi, p in enumerate(c.platoons):
            at = ("companies", ci, "platoons", pi)
            if p.id in ids:
                out.append(((*at, "id"), f"duplicate id {p.id!r}"))
            ids.add(p.id)
            if sum(t.hq == "platoon" for t in p.teams) > 1:
                out.append(((*at, "teams"), f"platoon {p.id!r} has more than one platoon HQ"))
            for ti, t in enumerate(p.teams):
                heads += t.hq == "company"
                teams[t.id] = t
                if t.id in ids:
                    out.append(((*at, "teams", ti, "id"), f"duplicate id {t.id!r}"))
                ids.add(t.id)
        if heads > 1:
            out.append((("companies", ci), f"company {c.id!r} has more than one company HQ"))
    work_ids = {w.id for w in f.works}
    for ci, c in enumerate(f.companies):
        for pi, p in enumerate(c.platoons):
            for ti, t in enumerate(p.teams):
                at = ("companies", ci, "platoons", pi, "teams", ti)
                if t.transport is not None:
                    car = teams.get(t.transport)
                    if car is None:
                        out.append(((*at, "transport"), f"rides {t.transport!r}: no such vehicle"))
                    elif resolve(car.type, TEAM_KINDS)[0] not in CARRIER_KINDS:
                        out.append(((*at, "transport"), f"{t.transport!r} is not a vehicle"))
                    elif car.transport is not None:
                        out.append(((*at, "transport"), f"{t.transport!r} is itself a rider"))
                    elif t.placed and car.placed and (t.x, t.y) != (car.x, car.y):
                        out.append(((*at, "x"), f"a rider stands where {t.transport!r} stands"))
                if t.entrenched is not None and t.entrenched not in work_ids:
                    out.append(((*at, "entrenched"), f"no work {t.entrenched!r} in this side"))
    out += _loads(f, teams)
    hidden = sum(t.hidden and t.placed for t in teams.values())
    if len(f.dummies) > hidden:
        out.append(
            (
                ("dummies",),
                f"{len(f.dummies)} dummies for {hidden} hidden placed teams: at most one each (p5)",
            )
        )
    for di, d in enumerate(f.dummies):
        if d.id in ids:
            out.append((("dummies", di, "id"), f"duplicate id {d.id!r}"))
        ids.add(d.id)
    platoons = {p.id: p for c in f.companies for p in c.platoons}
    seen: set[str] = set()
    for ai, a in enumerate(f.arrivals):
        for k, pid in enumerate(a.platoons):
            at = ("arrivals", ai, "platoons", k)
            if pid not in platoons:
                out.append((at, f"no platoon {pid!r} in this side"))
            elif pid in seen:
                out.append((at, f"platoon {pid!r} arrives twice"))
            elif any(t.placed for t in platoons[pid].teams):
                out.append((at, f"platoon {pid!r} arrives later, so its teams are not placed"))
            seen.add(pid)
    arriving = {pid: ai for ai, a in enumerate(f.arrivals) for pid in a.platoons}
    platoon_of = {t.id: p.id for p in platoons.values() for t in p.teams}
    for tid, t in teams.items():
        car = t.transport
        if car in teams and arriving.get(platoon_of[tid]) != arriving.get(platoon_of[car]):
            out.append(
                (
                    (*where_of(f, tid), "transport"),
                    f"rides {car!r}, which does not arrive with its platoon",
                )
            )
    for bi, b in enumerate(f.batteries):
        for k, oid in enumerate(b.observers):
            if oid not in teams:
                out.append((("batteries", bi, "observers", k), f"no team {oid!r} observes"))
    return out


def where_of(f: PanzerfaustForces, team_id: str) -> tuple[Any, ...]:
    """The field path of a team inside the block."""
    for ci, c in enumerate(f.companies):
        for pi, p in enumerate(c.platoons):
            for ti, t in enumerate(p.teams):
                if t.id == team_id:
                    return ("companies", ci, "platoons", pi, "teams", ti)
    raise LookupError(team_id)


def _loads(f: PanzerfaustForces, teams: dict[str, Team]) -> list[tuple[tuple[Any, ...], str]]:
    """Riders per vehicle: a carrier's capacity (p26), tank riders on size C/D AFVs that are not
    open turretless SPs, one to four teams (p28)."""
    from ...data.errors import RuleError
    from .rules.vehicles import riders_allowed

    out: list[tuple[tuple[Any, ...], str]] = []
    riders: dict[str, list[str]] = {}
    for t in teams.values():
        if t.transport in teams:
            riders.setdefault(t.transport, []).append(t.id)
    for car, ids in riders.items():
        kind, rec = resolve(teams[car].type, TEAM_KINDS)
        if kind not in CARRIER_KINDS:
            continue
        capacity = getattr(rec, "capacity", None)
        try:
            if capacity is not None:
                if len(ids) > capacity:
                    raise RuleError(f"carries {capacity} teams, {len(ids)} ride it (p26)")
            elif kind == "afv" and rec.chart in ("tank", "spg"):
                turretless = rec.chart == "spg" and "top" in rec.open
                riders_allowed(rec.size or "C", turretless, len(ids))
        except RuleError as exc:
            out.append(((*where_of(f, car), "id"), f"{car!r}: {exc} ({', '.join(ids)})"))
    return out


def validate_forces(raw: Any, side: str) -> PanzerfaustForces:
    """The ruleset's `forces_model`: the block, its records and its internal references."""
    forces = PanzerfaustForces.model_validate(raw)
    problems = _references(forces)
    if problems:
        raise ValidationError.from_exception_data(
            "PanzerfaustForces",
            [
                {"type": "value_error", "loc": loc, "input": None, "ctx": {"error": ValueError(m)}}
                for loc, m in problems
            ],
        )
    return forces
