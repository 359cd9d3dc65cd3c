"""Panzerfaust pre-game set-up (seed 000 pp. 4-5, weather pp. 9-11): a pure function from
(scenario, rng, options) to the record the game core stores at the start.

It settles the battle type (chosen, or the 2D6 table p4), each side's role and deployment zone,
the objectives (the scenario's, or the 1D6 table p5) and the 10 cm holding radius, who deploys
first (lowest class, else 1D6) and how many platoons at a time, who picks a breakthrough's exit
area (1D6 p5), whether map fire and dummy counters are allowed, the arrival schedule, and the
season, weather (with the 2D6 duration of passing conditions), wind and time of day (chosen by
the scenario, or rolled with the tables of rules/weather.py). Every die is drawn from `rng` and
kept in the record (`rolls`), so one seed gives one record.

The scenario's choices live in `options: {pregame: {...}}` of the scenario file
(`PreGameChoices`); anything left out is rolled or follows from the forces.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ....chance import Roll
from ....chance.drivers import DiceSource, Explained, drive
from ....data.errors import RuleError
from ....engine.scenario import Edge, Scenario
from ..forces import PanzerfaustForces
from ..options import Options
from ..rules import weather as wx
from ..rules.tables import rules

BattleType = Literal["encounter", "attack-defence", "counter-attack", "breakthrough"]
Point = tuple[float, float]
BATTLE_TABLE = {  # 2D6 (p4)
    2: "breakthrough",
    3: "counter-attack",
    4: "encounter",
    5: "encounter",
    6: "attack-defence",
    7: "attack-defence",
    8: "attack-defence",
    9: "encounter",
    10: "encounter",
    11: "counter-attack",
    12: "breakthrough",
}
OBJECTIVE_TABLE = {1: "two-locations", 6: "destroy-share"}  # 1D6 (p5); 2-5 one location
HOLD_RADIUS_CM = 10.0  # p5: no enemy unit or undamaged AFV within 10 cm of the centre
CLASS_ORDER = {"conscript": 0, "regular": 1, "veteran": 2, "as_unit": 1}
PASSING = ("mist", "fog", "rain", "snow_falling")  # p10: each lasts 2D6 turns


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PreGameChoices(_Model):
    """What a scenario fixes before play (`options.pregame`); None = roll or derive it."""

    battle_type: BattleType | None = None
    objectives: Literal["scenario", "roll"] = "scenario"
    sphere: Literal["ne", "med", "nr", "tropical", "desert"] = "ne"
    season: Literal["spring", "summer", "autumn", "winter"] | None = None
    weather: list[str] | None = None  # conditions of rules/weather.py CODES, e.g. [rain, overcast]
    wind: Literal["none", "light", "moderate", "gale"] | None = None
    wind_direction: Literal["N", "E", "S", "W"] | None = None
    exposed: bool = False  # coast or steppe: +1 wind strength (p10; winter and desert add it too)
    time_of_day: Literal["day", "night"] = "day"
    exit_area: Point | None = None  # breakthrough: the centre of the 20 cm exit on the edge


class RollEntry(_Model):
    label: str
    dice: str
    value: int
    page: str | None = None


class Zone(_Model):
    side: str
    role: Literal["attacker", "defender", "encounter"]
    edge: Edge | None
    polygon: list[Point] | None  # None: it enters from its edge (p4)
    enters_from_edge: bool


class ObjectiveMark(_Model):
    id: str
    x: float
    y: float
    radius: float
    points: int = 1


class ExitArea(_Model):
    chooser: str  # the side that picks the 20 cm area (p5 1D6: 1-4 attacker, 5-6 defender)
    secret: bool  # the attacker picks in secret; the defender declares it
    edge: Edge | None
    centre: Point | None = None  # None until the chooser picks it
    width: float = 20.0


class ArrivalEntry(_Model):
    side: str
    turn: int
    edge: Edge | None
    point: Point | None = None
    platoons: list[str] = Field(default_factory=list)
    reinforcement: int | None = None  # index into the scenario's reinforcements


class Weather(_Model):
    sphere: str
    season: str
    conditions: list[str]
    lasts_turns: dict[str, int] = Field(default_factory=dict)  # passing conditions (p10)
    wind: str
    wind_direction: str | None  # None when there is no wind
    time_of_day: Literal["day", "night"]
    night_visibility: Literal["tenth", "twentieth"] | None = None


class PreGame(_Model):
    """The pre-game record: JSON-serialisable, stored by the game core at the start."""

    battle_type: BattleType
    zones: list[Zone]
    objective_kind: Literal["locations", "two-locations", "one-location", "destroy-share"]
    objectives: list[ObjectiveMark]
    hold_radius: float = HOLD_RADIUS_CM
    map_first: str | None  # who writes its positions on a map before the other deploys (p5)
    deploy_order: list[str]  # who puts its forces down first
    platoons_at_a_time: dict[str, int]  # encounter: the side with more platoons puts down more
    map_fire: bool  # p5: no programmed map fire in an encounter
    counters: bool  # p5: counters and dummies only in attack/defence and breakthrough
    exit_area: ExitArea | None = None
    arrivals: list[ArrivalEntry] = Field(default_factory=list)
    weather: Weather
    rolls: list[RollEntry] = Field(default_factory=list)


def choices_of(scenario: Scenario) -> PreGameChoices:
    """The scenario's `options.pregame` (every field optional); a bad one names its field."""
    raw = scenario.options.get("pregame", {}) if isinstance(scenario.options, dict) else {}
    try:
        return PreGameChoices.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(map(str, ("options", "pregame", *err["loc"])))
        raise RuleError(f"{where}: {err['msg']}") from None


def _one(dice: str, label: str, page: str):
    value = yield Roll(dice, label, page)
    return value


def pregame(scenario: Scenario, rng: random.Random, options: Options | None = None) -> PreGame:
    """The pre-game record of a Panzerfaust scenario (pp. 4-5, 9-11)."""
    if scenario.table.unit != "cm":
        raise RuleError(f"Panzerfaust tables are in cm, this one is in {scenario.table.unit}")
    ch = choices_of(scenario)
    src = DiceSource(rng)
    log = Explained(None)

    def roll(dice: str, label: str, page: str) -> int:
        return drive(_one(dice, label, page), src, log)

    def run(gen: Any) -> Any:
        return drive(gen, src, log).name

    forces: dict[str, PanzerfaustForces] = {s: scenario.forces_of(s) for s in scenario.side_ids}
    battle = ch.battle_type or _battle_from_roles(forces)
    if battle is None:
        battle = BATTLE_TABLE[roll("2d6", "battle type", "p4")]
    roles = _roles(scenario, forces, battle)
    zones = [_zone(scenario, forces[s], s, roles[s], battle) for s in scenario.side_ids]
    _check_setup(forces, roles, battle)
    _check_zones(forces, zones)
    attacker = next((s for s, r in roles.items() if r == "attacker"), None)
    defender = next((s for s, r in roles.items() if r == "defender"), None)

    kind, objectives = _objectives(scenario, ch, battle, roles, roll)
    exit_area = None
    if battle == "breakthrough":
        assert attacker and defender
        face = roll("1d6", "breakthrough exit chooser", "p5")
        chooser = attacker if face <= 4 else defender
        exit_area = ExitArea(
            chooser=chooser,
            secret=chooser == attacker,
            edge=scenario.side(defender).edge,
            centre=ch.exit_area,
        )

    map_first = {"attack-defence": defender, "breakthrough": defender}.get(battle)
    if battle == "counter-attack":
        map_first = attacker
    order, batch = _deployment_order(scenario, forces, battle, map_first, roll)

    rules_ = rules(opts=options or Options())
    season = ch.season or run(wx.season(rules_))
    if ch.weather is not None:
        bad = [c for c in ch.weather if c not in wx.CODES.values()]
        if bad:
            known = ", ".join(sorted(wx.CODES.values()))
            raise RuleError(f"options.pregame.weather: unknown {bad}; known: {known}")
        conditions = list(ch.weather)
    else:
        conditions = run(wx.weather(rules_, ch.sphere, season)).split("+")
    lasts = {c: roll("2d6", f"{c} lasts (turns)", "p10") for c in conditions if c in PASSING}
    exposed = ch.exposed or season == "winter" or ch.sphere == "desert"
    wind = ch.wind or run(wx.wind(rules_, exposed))
    direction = None
    if wind != "none":
        direction = ch.wind_direction or run(wx.wind_direction(rules_))
    night = None
    if ch.time_of_day == "night":
        night = run(wx.night(rules_, season, ch.sphere == "desert"))

    return PreGame(
        battle_type=battle,
        zones=zones,
        objective_kind=kind,
        objectives=objectives,
        map_first=map_first,
        deploy_order=order,
        platoons_at_a_time=batch,
        map_fire=battle != "encounter",
        counters=battle in ("attack-defence", "breakthrough"),
        exit_area=exit_area,
        arrivals=_arrivals(scenario, forces),
        weather=Weather(
            sphere=ch.sphere,
            season=season,
            conditions=conditions,
            lasts_turns=lasts,
            wind=wind,
            wind_direction=direction,
            time_of_day=ch.time_of_day,
            night_visibility=night,
        ),
        rolls=[
            RollEntry(label=s.label, dice=s.dice, value=int(s.value), page=s.page)
            for s in log.steps
            if hasattr(s, "attempts")
        ],
    )


def _battle_from_roles(forces: dict[str, PanzerfaustForces]) -> BattleType | None:
    roles = {f.role for f in forces.values()}
    if roles == {"encounter"}:
        return "encounter"
    if roles == {"attacker", "defender"}:
        return "attack-defence"
    return None


def _roles(scenario: Scenario, forces: dict[str, PanzerfaustForces], battle: str) -> dict:
    """Each side's role: the forces' own, else (decision P120) the first side attacks."""
    a, b = scenario.side_ids
    if battle == "encounter":
        want = {a: "encounter", b: "encounter"}
    else:
        given = {s: f.role for s, f in forces.items() if f.role}
        if len(given) == 1:
            (s, r), other = next(iter(given.items())), (b if a in given else a)
            given[other] = "defender" if r == "attacker" else "attacker"
        want = given if len(given) == 2 else {a: "attacker", b: "defender"}
    for s, f in forces.items():
        if f.role and f.role != want[s]:
            raise RuleError(
                f"forces.{s}.role: {f.role!r} does not fit a {battle} battle (p4); "
                f"expected {want[s]!r}"
            )
    if battle != "encounter" and sorted(want.values()) != ["attacker", "defender"]:
        raise RuleError(f"a {battle} battle needs one attacker and one defender (p4)")
    return want


def _box(edge: Edge | None, w: float, d: float, depth: float) -> list[Point]:
    """The strip of `depth` along `edge` (a fraction of the table when depth < 1)."""
    if edge in ("north", "south"):
        t = depth * d if depth <= 1 else depth
        y0, y1 = (0.0, t) if edge == "south" else (d - t, d)
        return [(0.0, y0), (w, y0), (w, y1), (0.0, y1)]
    t = depth * w if depth <= 1 else depth
    x0, x1 = (0.0, t) if edge == "west" else (w - t, w)
    return [(x0, 0.0), (x1, 0.0), (x1, d), (x0, d)]


def _zone(scenario: Scenario, f: PanzerfaustForces, side: str, role: str, battle: str) -> Zone:
    """The deployment zone (p4): the forces' own polygon, else the book's area along the
    side's edge: encounter the back 15 cm; attack/defence and breakthrough the defender 75 %,
    the attacker enters from its edge; counter-attack the attacker 50 %, the defender 20 %."""
    edge = scenario.side(side).edge
    enters = f.enters_from_edge or (
        not f.deployment and role == "attacker" and battle in ("attack-defence", "breakthrough")
    )
    polygon = [tuple(p) for p in f.deployment] if f.deployment else None
    if polygon is None and not enters and edge is not None:
        w, d = scenario.table.width, scenario.table.depth
        depth = {
            ("encounter", "encounter"): 15.0,
            ("defender", "attack-defence"): 0.75,
            ("defender", "breakthrough"): 0.75,
            ("attacker", "counter-attack"): 0.5,
            ("defender", "counter-attack"): 0.2,
        }[(role, battle)]
        polygon = _box(edge, w, d, depth)
    return Zone(side=side, role=role, edge=edge, polygon=polygon, enters_from_edge=enters)


def _check_setup(forces: dict[str, PanzerfaustForces], roles: dict, battle: str) -> None:
    """p5: counters and dummies only for the defender of attack/defence and breakthrough;
    p4: no defences or dug-in units in a counter-attack."""
    for s, f in forces.items():
        if f.dummies and (
            battle not in ("attack-defence", "breakthrough") or roles[s] != "defender"
        ):
            raise RuleError(
                f"forces.{s}.dummies: dummy counters are for the defender of an attack/defence "
                f"or breakthrough battle only (p5); this is a {battle} battle"
            )
        if battle == "counter-attack":
            dug = [t.id for t in f.pieces() if t.dug_in or t.entrenched]
            if f.works or dug:
                raise RuleError(
                    f"forces.{s}: no defences or dug-in units in a counter-attack (p4): "
                    f"{', '.join([w.id for w in f.works] + dug)}"
                )


def _check_zones(forces: dict[str, PanzerfaustForces], zones: list[Zone]) -> None:
    """p4-5: every team and dummy placed at the start stands in its side's deployment zone."""
    from shapely.geometry import Point as At
    from shapely.geometry import Polygon

    for z in zones:
        if z.polygon is None:
            continue
        area = Polygon(z.polygon)
        f = forces[z.side]
        placed = [(t.id, t.x, t.y) for t in f.pieces() if t.placed]
        placed += [(d.id, d.x, d.y) for d in f.dummies]
        for ident, x, y in placed:
            if not area.covers(At(x, y)):
                raise RuleError(
                    f"forces.{z.side}: {ident!r} at ({x:g}, {y:g}) is outside the side's "
                    f"deployment zone (pp. 4-5)"
                )


def _objectives(scenario: Scenario, ch: PreGameChoices, battle: str, roles: dict, roll) -> tuple:
    """The scenario's objectives, or the 1D6 table (p5) placing them where the battle type
    says: the centre line (encounter), inside the defender's ground short of its back 25 %
    (attack/defence, breakthrough), towards the attacker's rear short of its back 20 %."""
    if ch.objectives == "scenario":
        marks = [
            ObjectiveMark(id=o.id, x=o.x, y=o.y, radius=o.radius, points=o.points)
            for o in scenario.objectives
        ]
        return ("locations" if marks else "destroy-share"), marks
    face = roll("1d6", "objective", "p5")
    kind = OBJECTIVE_TABLE.get(face, "one-location")
    if kind == "destroy-share":
        return kind, []
    w, d = scenario.table.width, scenario.table.depth
    holder = next((s for s, r in roles.items() if r != "attacker"), scenario.side_ids[1])
    if battle == "counter-attack":
        holder = next(s for s, r in roles.items() if r == "attacker")
    edge = scenario.side(holder).edge
    # the fraction of the way from the holder's edge: its ground short of the back 25 % / 20 %
    along = {"encounter": 0.5, "counter-attack": 0.3}.get(battle, 0.4)
    if battle == "encounter":
        edge = "south" if edge in (None, "north", "south") else edge
    xs = [0.5] if kind == "one-location" else [1 / 3, 2 / 3]
    marks = []
    for i, fx in enumerate(xs):
        if edge in ("north", "south"):
            y = d * along if edge == "south" else d * (1 - along)
            x = w * fx
        else:
            x = w * along if edge == "west" else w * (1 - along)
            y = d * fx
        marks.append(ObjectiveMark(id=f"obj-{i + 1}", x=x, y=y, radius=HOLD_RADIUS_CM))
    return kind, marks


def _deployment_order(scenario: Scenario, forces: dict, battle: str, map_first, roll) -> tuple:
    """Who puts its forces down first and how many platoons at a time (p5). With a map
    (attack/defence, breakthrough, counter-attack) the side that wrote it deploys last. In an
    encounter the side with the lowest class present goes first (ties: 1D6 each, the lower
    starts, re-rolling ties; decision P112) and the side with more platoons puts down the
    whole ratio of its count to the other's at a time."""
    a, b = scenario.side_ids
    counts = {s: sum(len(c.platoons) for c in f.companies) for s, f in forces.items()}
    if map_first is not None:
        other = b if map_first == a else a
        return [other, map_first], {a: counts[a] or 1, b: counts[b] or 1}
    low = {s: min((_class_of(f, t) for t in f.pieces()), default=1) for s, f in forces.items()}
    if low[a] != low[b]:
        first = a if low[a] < low[b] else b
    else:
        while True:
            ra, rb = (
                roll("1d6", f"{a} deploys first", "p5"),
                roll("1d6", f"{b} deploys first", "p5"),
            )
            if ra != rb:
                first = a if ra < rb else b
                break
    second = b if first == a else a
    batch = {a: 1, b: 1}
    if counts[a] and counts[b]:
        big, small = (a, b) if counts[a] >= counts[b] else (b, a)
        batch[big] = max(1, counts[big] // counts[small])
    return [first, second], batch


def _class_of(f: PanzerfaustForces, team) -> int:
    for c in f.companies:
        for p in c.platoons:
            if any(t is team for t in p.teams):
                return CLASS_ORDER[team.troop_class or p.troop_class or c.troop_class]
    return 1


def _arrivals(scenario: Scenario, forces: dict[str, PanzerfaustForces]) -> list[ArrivalEntry]:
    """Every later arrival in turn order: platoons of the forces' `arrivals`, and the
    scenario's reinforcements (whole forces blocks), each with its entry edge."""
    out = [
        ArrivalEntry(
            side=s,
            turn=a.turn,
            edge=a.edge or scenario.side(s).edge,
            point=a.point,
            platoons=list(a.platoons),
        )
        for s, f in forces.items()
        for a in f.arrivals
    ]
    for i, r in enumerate(scenario.reinforcements):
        block = scenario.arrival_forces(i)
        out.append(
            ArrivalEntry(
                side=r.side,
                turn=r.turn,
                edge=r.edge or scenario.side(r.side).edge,
                platoons=[p.id for c in block.companies for p in c.platoons],
                reinforcement=i,
            )
        )
    return sorted(out, key=lambda e: (e.turn, e.side))
