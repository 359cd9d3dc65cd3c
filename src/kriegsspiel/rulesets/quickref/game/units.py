"""Unit records and derived numbers: data record, allowance, current SA, ranges."""

from __future__ import annotations

from ..models import Infantry, Vehicle
from ..small_arms import current_sa
from ..tables import Rules
from .state import Unit


def record(rules: Rules, u: Unit) -> Vehicle | Infantry:
    """The unit's data record (memoised per rules by kind and type: looked up thousands of
    times a battle)."""
    key = (u.kind, u.type)
    rec = rules.unit_records.get(key)
    if rec is None:
        kind = "vehicle" if u.kind == "vehicle" else "infantry"
        entry = rules.cat.entries.get(kind, {}).get(u.type)  # by id: the common case, fast
        rec = entry.record if entry is not None else rules.cat.get(kind, u.type)
        assert isinstance(rec, Vehicle | Infantry)
        rules.unit_records[key] = rec
    return rec


def allowance(rules: Rules, u: Unit) -> float:
    """Inches per Move phase before terrain: infantry 6, vehicles their chart speed; 3/4 when
    damaged (L2); 0 when tracked or towed."""
    rec = record(rules, u)
    if isinstance(rec, Infantry):
        base = float(rules.const("infantry-move"))
    else:
        base = float(rec.speed or 0)
        if u.tracked:
            return 0.0
    if u.damaged:
        base *= float(rules.const("damaged-move"))
    return base


def unit_sa(rules: Rules, u: Unit) -> int:
    rec = record(rules, u)
    if isinstance(rec, Vehicle):
        return 1 if u.suppressed else int(rec.mg or 0)
    mg_sa = 0
    if u.attached_mg:
        mg = rules.cat.get("infantry", u.attached_mg)
        assert isinstance(mg, Infantry)
        mg_sa = mg.sa
    return current_sa(rec, u.suppressed, u.damaged, mg_sa)


def sa_ranges(rules: Rules, u: Unit) -> tuple[int, ...]:
    rec = record(rules, u)
    if isinstance(rec, Vehicle):
        return (12, 36)  # vehicle MGs use MG ranges (L2)
    if u.attached_mg and len(rec.range) == 2:
        return tuple(rec.range)
    return tuple(rec.range)


def is_armoured(rules: Rules, u: Unit) -> bool:
    rec = record(rules, u)
    return isinstance(rec, Vehicle) and not rec.soft


def is_soft_vehicle(rules: Rules, u: Unit) -> bool:
    rec = record(rules, u)
    return isinstance(rec, Vehicle) and rec.soft


def wheeled(rules: Rules, u: Unit) -> bool:
    rec = record(rules, u)
    return isinstance(rec, Vehicle) and rec.wheeled
