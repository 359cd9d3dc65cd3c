"""A game's first state from its scenario: every team, gun and vehicle of the `forces` block
read against the army-list data (its kind, size, fire order, speed, radio), grouped as
company -> platoon -> element (p6), with its HQs (decision P140)."""

from __future__ import annotations

from functools import cache
from statistics import median
from typing import Any

from ....data.errors import RuleError
from ....engine.aliases import Aliases
from ....engine.scenario import Scenario
from ..models import (
    AFV,
    ArtilleryBattery,
    Gun,
    InfantryTeam,
    InfantryWeapon,
    MotorisedGun,
    Softskin,
)
from ..rules.lookup import find
from ..rules.tables import Rules
from . import floors, mines
from .board import Board
from .state import KINDS, Company, Element, Marker, Platoon, State

FIRE_ORDER_LOST = 5  # placeholder P142: an element whose FO the seed lost fires as FO 5
INFANTRY_FO = 1  # decision P141: infantry fire as FO 1, like their AT weapons (p20)


def record(rules: Rules, type_id: str) -> tuple[str, Any]:
    """(record kind, record) of a piece's type: `kind:id`, an id or a name (LookupError)."""
    kind, sep, ident = type_id.partition(":")
    if sep and kind in KINDS:
        return kind, rules.cat.get(kind, ident)
    for k in KINDS:  # an exact id needs no name search
        if type_id in rules.cat.entries.get(k, {}):
            return k, rules.cat.get(k, type_id)
    return find(rules.cat, tuple(KINDS), type_id)


MORTAR_SIZE_B_MM = 95.0  # p8: a mortar of 95 mm or more is size B, a smaller one size A
# P352: the p35 table's rows whose calibre was lost but whose class is known lie above 82 mm
# (medium: the 105/107 mm tubes; heavy: past 120 mm), so size B
MORTAR_CLASS_SIZE = {"medium": "B", "heavy": "B"}


def observation_size(rec: Any) -> str:
    """A piece's observation size (p8) from its record (ValueError for a battery row that
    cannot stand on the table, see `mortar_size`)."""
    if isinstance(rec, InfantryTeam | InfantryWeapon):
        return "A"  # p8: infantry and heavy weapons are size A
    if isinstance(rec, ArtilleryBattery):
        return mortar_size(rec)
    size = getattr(rec, "size", None)
    return "C" if size in (None, "AFV") else size


def mortar_size(rec: ArtilleryBattery) -> str:
    """An on-table mortar team's size (p8): A under 95 mm, B from 95 mm, by the calibre its
    row names, or its p35 class where the calibre was lost (P352). A row with neither has no
    size (P352), and only a mortar row is a piece (P129): a gun or rocket row is support fire
    (P353); both ValueError."""
    if rec.battery_kind != "mortar":
        raise ValueError(
            f"{rec.name} is a {rec.battery_kind} battery row, fired from off the table or by "
            "support orders; a gun on the table is a gun record, whose chart gives its size "
            "(p8; P353)"
        )
    mm = rec.calibre()
    if mm is None:
        size = next((v for k, v in MORTAR_CLASS_SIZE.items() if k in str(rec.weapon)), None)
        if size:
            return size
        raise ValueError(
            f"{rec.name}: the calibre of this mortar row was lost ({rec.weapon!r}), so its "
            "observation size (p8: under or over 95 mm) cannot be told; use a row that names "
            "its calibre (P352)"
        )
    return "B" if mm >= MORTAR_SIZE_B_MM else "A"


def speeds(rec: Any) -> tuple[float, float]:
    """(cross-country, road) cm per turn; infantry walk 5 cm (p12). A towed gun: 0 (it moves
    limbered, p33)."""
    if isinstance(rec, InfantryTeam | InfantryWeapon):
        return 5.0, 5.0
    if isinstance(rec, AFV | Softskin | MotorisedGun):
        cc, road = rec.speed_cc, rec.speed_road
        if cc is None and road is None:
            return lost_speeds(type(rec), _family(rec))
        return float(cc if cc is not None else road), float(road if road is not None else cc)
    return 0.0, 0.0


def _family(rec: Any) -> str | None:
    """What a vehicle whose speeds were lost is compared with: its chart or its drive."""
    return getattr(rec, "chart", None) or getattr(rec, "drive", None)


def speed_placeholder(rec: Any) -> str | None:
    """The placeholder note of an element whose speeds the data lost (decision P155), if any."""
    if isinstance(rec, AFV | Softskin | MotorisedGun) and rec.speed_cc is rec.speed_road is None:
        cc, road = speeds(rec)
        return (
            f"{rec.name}: speeds lost (p25); {cc:g}/{road:g} cm, the median of its kind "
            f"({_family(rec) or type(rec).__name__}) (placeholder P155)"
        )
    return None


@cache
def lost_speeds(kind: type, family: str | None) -> tuple[float, float]:
    """Placeholder P155: the median cross-country and road speeds of the shipped records of
    the same kind and chart/drive that kept theirs (of the same kind only when none do)."""
    from ... import load

    cat = load("panzerfaust")
    same = [
        r
        for k in ("afv", "softskin", "motorised_gun")
        for r in cat.all(k)
        if isinstance(r, kind) and r.speed_cc is not None and r.speed_road is not None
    ]
    near = [r for r in same if _family(r) == family] or same
    if not near:
        raise RuleError(f"no {kind.__name__} in the data kept its speeds (p25)")
    return (
        float(median(r.speed_cc for r in near)),
        float(median(r.speed_road for r in near)),
    )


def fire_order(rec: Any) -> tuple[int, bool]:
    """(fire order, placeholder?) of an element (p6, charts pp. 27-34)."""
    if isinstance(rec, InfantryTeam | InfantryWeapon):
        return INFANTRY_FO, False
    fo = getattr(rec, "fire_order", None)
    return (fo, False) if fo is not None else (FIRE_ORDER_LOST, True)


def _radio(rec: Any, team: Any) -> bool:
    given = getattr(team, "radio", None)
    if given is not None:
        return bool(given)
    return isinstance(rec, AFV) and rec.radio in ("standard", "command_only")


def _turret(rec: Any, team: Any) -> float | None:
    if not isinstance(rec, AFV):
        return None
    given = getattr(team, "turret_facing", None)
    return float(given) if given is not None else team.facing


def _is_hq(rec: Any, level: str) -> bool:
    return f"{level}-hq" in rec.id


def _add_forces(
    side: str,
    forces: Any,
    rules: Rules,
    elements: dict[str, Element],
    platoons: dict[str, Platoon],
    companies: dict[str, Company],
    records: dict[str, Any],
    where: str | None = None,
) -> None:
    """Add one forces block's companies, platoons and elements (with their HQs, P140). A
    reinforcement's block (`where` names it) enters later by its edge (pp. 4-5): its pieces
    start off the table, and a company id the side already has takes its platoons in."""
    arriving = where is not None
    where = where or f"forces.{side}"
    if arriving:
        extra = [k for k in ("dummies", "arrivals", "batteries", "aircraft", "works")
                 if getattr(forces, k, None)]  # fmt: skip
        if extra:
            raise ValueError(
                f"{where}.forces: a reinforcement brings companies only, not {', '.join(extra)}"
            )
    for c in forces.companies:
        company = companies.get(c.id)
        if company is not None and (company.side != side or not arriving):
            raise ValueError(f"{where}: company id {c.id!r} is used twice")
        if company is None:
            company = Company(c.id, side, c.name or c.id, c.troop_class, c.morale, [])
            companies[c.id] = company
        merged = bool(company.platoons)  # reinforcing a company already on the table
        company.platoons += [p.id for p in c.platoons]
        for p in c.platoons:
            pclass = p.troop_class or c.troop_class
            pmorale = p.morale or c.morale
            platoon = Platoon(
                p.id, side, c.id, p.name or p.id, pclass, pmorale, [t.id for t in p.teams]
            )
            if p.id in platoons:
                raise ValueError(f"{where}: platoon id {p.id!r} is used twice")
            platoons[p.id] = platoon
            for t in p.teams:
                try:
                    kind, rec = record(rules, t.type)
                except LookupError as e:
                    raise LookupError(f"{where}: team {t.id}: {e}") from None
                try:
                    size = observation_size(rec)
                except ValueError as e:
                    raise ValueError(f"{where}: team {t.id}: {e}") from None
                e = Element(
                    t.id,
                    side,
                    rec.id,
                    KINDS[kind],
                    t.name or rec.name,
                    c.id,
                    p.id,
                    None if arriving else t.x,  # a reinforcement enters by its edge
                    None if arriving else t.y,
                    t.facing,
                    _turret(rec, t),
                    size,
                    t.troop_class or pclass,
                    t.morale or pmorale,
                    hq=getattr(t, "hq", None),
                    radio=_radio(rec, t),
                    limbered=bool(getattr(t, "limbered", False)) if isinstance(rec, Gun) else None,
                    tower=getattr(t, "tower", None) if isinstance(rec, Gun) else None,
                    portee=bool(getattr(t, "portee", False)) and isinstance(rec, Gun),
                    crew_in=getattr(t, "crew_in", None) if isinstance(rec, Gun) else None,
                    transport=t.transport,
                    hidden=bool(getattr(t, "hidden", False)),
                )
                for flag in ("dug_in", "camouflaged"):
                    if getattr(t, flag, False):
                        e.counters[flag] = 1
                if getattr(t, "closed_down", False):
                    if not isinstance(rec, AFV):
                        raise ValueError(f"{t.id}: only an AFV is placed closed down (p8)")
                    e.counters["closed_down"] = 1
                e.floor = int(getattr(t, "floor", 0) or 0)  # p19, P307 (checked below)
                if getattr(t, "entrenched", None):
                    e.counters["dug_in"] = 1  # an entrenchment or pillbox it occupies (p39)
                elements[t.id] = e
                records[t.id] = rec
            named = next((m for m in platoon.members if elements[m].hq == "platoon"), None)
            platoon.hq = named or next(
                (m for m in platoon.members if _is_hq(records[m], "platoon")),
                platoon.members[0],
            )
            if elements[platoon.hq].hq is None:
                elements[platoon.hq].hq = "platoon"
        if merged:
            continue  # the company keeps its HQ
        named = next(
            (m for pid in company.platoons for m in platoons[pid].members
             if elements[m].hq == "company"), None,
        )  # fmt: skip
        company.hq = named or next(
            (
                m
                for pid in company.platoons
                for m in platoons[pid].members
                if _is_hq(records[m], "company")
            ),
            platoons[company.platoons[0]].hq,
        )
        elements[company.hq].hq = "company"


def initial(scenario: Scenario, seed: int, options: dict[str, Any], rules: Rules) -> State:
    board = Board(scenario)
    elements: dict[str, Element] = {}
    platoons: dict[str, Platoon] = {}
    companies: dict[str, Company] = {}
    nations: dict[str, str] = {}
    records: dict[str, Any] = {}
    for side in scenario.side_ids:
        forces = scenario.forces_of(side)
        spec = next(s for s in scenario.sides if s.id == side)
        nations[side] = (getattr(forces, "nation", None) or spec.nation or "").casefold()
        _add_forces(side, forces, rules, elements, platoons, companies, records)
    for i, r in enumerate(scenario.reinforcements):
        where = f"reinforcements.{i}"
        _add_forces(r.side, scenario.arrival_forces(i), rules, elements, platoons, companies,
                    records, where=where)  # fmt: skip
    for e in elements.values():
        if e.transport:
            if e.transport not in elements:
                raise ValueError(f"team {e.id}: transport {e.transport!r} is not a piece")
            elements[e.transport].carrying.append(e.id)
    aliases = Aliases(seed)
    for side in scenario.side_ids:
        aliases.learn(side, [i for i, e in elements.items() if e.side != side])
    state = State(
        scenario, aliases, dict(options), list(scenario.side_ids), nations, elements, platoons,
        companies,
    )  # fmt: skip
    state.board, state.rules, state.records = board, rules, records
    hidden = rules.opts.hidden_deployment or bool(scenario.options.get("hidden_deployment"))
    for e in elements.values():
        e.hidden = e.hidden or hidden
        if e.x is not None and e.y is not None:
            e.feature = board.feature(e.x, e.y)
        floors.check_placed(state, e)
    mines.place(state)
    for side in scenario.side_ids:
        for d in getattr(scenario.forces_of(side), "dummies", None) or ():
            size = getattr(d, "size", None) or "A"
            state.markers[d.id] = Marker(d.id, "dummy", side, d.x, d.y, data={"size": size},
                                         visible_to=[side])  # fmt: skip
    return state
