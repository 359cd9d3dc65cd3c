"""Infantry AT weapons (digest §3.19) and MGs/ATRs against AFVs (§3.20)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ....chance import Lookup, Modifier, Note, Outcome, Pool, Sub
from ....data.errors import RuleError
from ..models import ATWeapon
from .armour import Impact, impact
from .core import Rules, d20_under


@dataclass(frozen=True)
class ATShot:
    weapon: ATWeapon
    range: float
    target: Impact  # pen is taken from the weapon
    mods: tuple[tuple[str, int], ...] = ()  # gun to-hit modifiers other than HEAT's +2


def _band(w: ATWeapon, rng: float) -> int | None:
    if rng < 0:
        raise RuleError(f"range {rng}: must be positive")
    return next((i for i, limit in enumerate(w.bands) if rng <= limit), None)


def at_weapon(rules: Rules, s: ATShot) -> Generator[Any, Any, Outcome]:
    """Bazooka, Panzerschreck, Panzerfaust, ATR: to-hit by band (no HEAT +2), location, pen."""
    w = s.weapon
    if w.family == "mg":
        raise RuleError(f"{w.name}: MGs use the mg-vs-afv action (§3.20)")
    labels = w.placeholders("bands", "pen", "pen_by_band")
    if labels:
        from ....chance import Cite

        yield Cite(tuple(labels))
    i = _band(w, s.range)
    if i is None:
        yield Note(f"{s.range:g} in is beyond the {w.name}'s long band", "§3.19")
        return Outcome("miss")
    number = w.to_hit[i]
    yield Lookup(f"{w.name} to-hit", f"band {i + 1}", number, "§3.19")
    mods = [Modifier(n, v, "§3.29") for n, v in s.mods]
    yield from mods
    target = number - sum(m.value for m in mods)
    roll = yield from d20_under(target, "to-hit", "§3.19")
    if roll > target:
        return Outcome("miss")
    pen = w.pen_by_band[i] if w.pen_by_band else w.pen
    imp = Impact(
        s.target.vehicle,
        s.target.facing,
        int(pen or 0),
        heat=w.heat,
        gun_mm=0 if w.family == "atr" else 75,
        small_arms=w.family == "atr",
        hull_down=s.target.hull_down,
        skirts=s.target.skirts,
    )
    return (yield Sub(impact, (rules, imp), label="hit on the vehicle"))


@dataclass(frozen=True)
class MGBurst:
    weapon: ATWeapon  # an `mg` row
    rof: int
    range: float
    target: Impact
    mods: tuple[tuple[str, int], ...] = ()


def mg_vs_afv(rules: Rules, s: MGBurst) -> Generator[Any, Any, Outcome]:
    """Full ROF to-hit dice; a majority of hits (3 of 4, 2 of 3) gives one location and one
    penetration for the whole burst, effects at +3, never a non-penetration effect."""
    w = s.weapon
    labels = w.placeholders("pen_by_band")
    if labels:
        from ....chance import Cite

        yield Cite(tuple(labels))
    i = _band(w, s.range)
    if i is None or not (w.pen_by_band or [0])[i]:
        yield Note("MGs cannot penetrate at this range", "§3.20")
        return Outcome("no_effect")
    mods = [Modifier(n, v, "§3.8") for n, v in s.mods]
    yield from mods
    target = w.to_hit[i] - sum(m.value for m in mods)
    hits = yield Pool(s.rof, 20, target, "to-hit dice", "§3.20")
    need = s.rof // 2 + 1
    yield Note(f"{hits} hits of {s.rof}; a majority is {need}", "§3.20")
    if hits < need:
        return Outcome("no_effect")
    pen = (w.pen_by_band or [0])[i]
    imp = Impact(
        s.target.vehicle,
        s.target.facing,
        pen,
        small_arms=True,
        hull_down=s.target.hull_down,
    )
    return (yield Sub(impact, (rules, imp), label="burst on the vehicle"))
