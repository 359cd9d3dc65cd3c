"""A game's first state from its scenario: every team, gun and vehicle of the `forces` block
read against the army-list data (its kind, size, fire order, speed, radio), grouped as
company -> platoon -> element (p6), with its HQs (decision P140)."""

from __future__ import annotations

from typing import Any

from ....data.errors import RuleError
from ....engine.aliases import Aliases
from ....engine.scenario import Scenario
from ..models import AFV, Gun, InfantryTeam, InfantryWeapon, MotorisedGun, Softskin
from ..rules.lookup import find
from ..rules.tables import Rules
from . import mines
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


def _size(rec: Any) -> str:
    if isinstance(rec, InfantryTeam | InfantryWeapon):
        return "A"  # p8: infantry and heavy weapons are size A
    size = getattr(rec, "size", None)
    return "C" if size in (None, "AFV") else size


def speeds(rec: Any) -> tuple[float, float]:
    """(cross-country, road) cm per turn; infantry walk 5 cm (p12). A towed gun: 0 (it moves
    limbered, p33)."""
    if isinstance(rec, InfantryTeam | InfantryWeapon):
        return 5.0, 5.0
    if isinstance(rec, AFV | Softskin | MotorisedGun):
        cc, road = rec.speed_cc, rec.speed_road
        if cc is None and road is None:
            raise RuleError(f"{rec.name}: both speeds were lost in the data (p25)")
        return float(cc if cc is not None else road), float(road if road is not None else cc)
    return 0.0, 0.0


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
        for c in forces.companies:
            company = Company(
                c.id, side, c.name or c.id, c.troop_class, c.morale, [p.id for p in c.platoons]
            )
            companies[c.id] = company
            for p in c.platoons:
                pclass = p.troop_class or c.troop_class
                pmorale = p.morale or c.morale
                platoon = Platoon(
                    p.id, side, c.id, p.name or p.id, pclass, pmorale, [t.id for t in p.teams]
                )
                platoons[p.id] = platoon
                for t in p.teams:
                    try:
                        kind, rec = record(rules, t.type)
                    except LookupError as e:
                        raise LookupError(f"forces.{side}: team {t.id}: {e}") from None
                    e = Element(
                        t.id,
                        side,
                        rec.id,
                        KINDS[kind],
                        t.name or rec.name,
                        c.id,
                        p.id,
                        t.x,
                        t.y,
                        t.facing,
                        _turret(rec, t),
                        _size(rec),
                        t.troop_class or pclass,
                        t.morale or pmorale,
                        hq=getattr(t, "hq", None),
                        radio=_radio(rec, t),
                        limbered=bool(getattr(t, "limbered", False))
                        if isinstance(rec, Gun)
                        else None,
                        transport=t.transport,
                        hidden=bool(getattr(t, "hidden", False)),
                    )
                    for flag in ("dug_in", "camouflaged"):
                        if getattr(t, flag, False):
                            e.counters[flag] = 1
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
    for e in elements.values():
        if e.transport:
            if e.transport not in elements:
                raise ValueError(f"team {e.id}: transport {e.transport!r} is not a piece")
            elements[e.transport].carrying.append(e.id)
    if scenario.reinforcements:
        raise NotImplementedError(
            "not implemented: Panzerfaust reinforcements in the game (pp4-5), see issue 19"
        )
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
    mines.place(state)
    for side in scenario.side_ids:
        for d in getattr(scenario.forces_of(side), "dummies", None) or ():
            size = getattr(d, "size", None) or "A"
            state.markers[d.id] = Marker(d.id, "dummy", side, d.x, d.y, data={"size": size},
                                         visible_to=[side])  # fmt: skip
    return state
