"""Grenades, rifle grenades, demolition charges, flamethrowers (digest §3.12, §3.14, §3.15):
to-hit by range, deviation d8 direction and d3 inches on a miss, duds on a natural 20, and the
effect on a figure at the aim point by the ring the burst puts him in."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal

from ....chance import Lookup, Modifier, Note, Outcome, Roll
from ....data.errors import RuleError
from .core import Rules, d3, d20_under
from .effects import RESULTS, Target, cover_mods, effect_roll

KINDS = ("thrown", "rifle", "rifle_long", "cluster", "satchel", "demo_pack")
GRENADE_MODS = ("aperture", "foxhole", "vehicle_top", "elite", "green", "light_wound")
OUTCOMES = ("dud", "dropped_inside", *RESULTS)


@dataclass(frozen=True)
class Throw:
    range: float
    kind: str = "thrown"
    mods: tuple[str, ...] = ()
    vehicle_motion: float = 0.0  # inches the target vehicle moved last action
    target: Target = Target()
    enclosed: bool = False  # foxhole, halftrack compartment, bunker: all in ring A
    blind: bool = False  # long-range rifle grenade at a point out of sight: 2d6 deviation
    from_moving_halftrack: bool = False  # a natural 20 drops it inside


def throw_number(rules: Rules, t: Throw) -> Generator[Any, Any, int | None]:
    row = "rifle" if t.kind == "rifle" else "thrown"
    limits = []
    for i in range(3):
        limits.append((yield from rules.get("grenade_to_hit", row, f"r{i}")))
    if t.kind == "demo_pack":
        limits[2] = 3
    for i, limit in enumerate(limits):
        if t.range <= limit:
            return (yield from rules.get("grenade_to_hit", row, f"n{i}"))
    return None


def ring_at(
    rules: Rules, size: str, distance: int, smaller: bool = False
) -> Generator[Any, Any, str | None]:
    """The ring a figure `distance` inches from the burst is in (boundary: inner ring);
    `smaller`: the template loses its outer ring (HEAT on soft targets, §3.32)."""
    rings = ["A", "B", "C", "D", "E"]
    if size not in rules.table("he_templates").cells:
        raise RuleError(
            f"HE size {size!r}: expected one of {sorted(rules.table('he_templates').cells)}"
        )
    present = [r for r in rings if rules.peek("he_templates", size, r) is not None]
    if smaller:
        present = present[:-1]
    for ring in present:
        radius = yield from rules.get("he_templates", size, ring)
        if distance <= radius:
            return ring
    return None


def grenade(rules: Rules, t: Throw) -> Generator[Any, Any, Outcome]:
    if t.kind not in KINDS:
        raise RuleError(f"grenade kind {t.kind!r}: expected one of {KINDS}")
    if t.range < 0:
        raise RuleError(f"range {t.range}: must be positive")
    if t.kind == "rifle_long":
        return (yield from _long_rifle_grenade(rules, t))
    number = yield from throw_number(rules, t)
    if number is None:
        raise RuleError(f"{t.kind} cannot reach {t.range:g} in (§3.12)")
    yield Lookup(f"{t.kind} to-hit", f"{t.range:g} in", number, "§3.12")
    mods: list[Modifier] = []
    for n in t.mods:
        if n not in GRENADE_MODS:
            raise RuleError(f"grenade modifier {n!r}: expected one of {GRENADE_MODS}")
        if t.range == 0 and n in ("aperture", "foxhole", "vehicle_top"):
            continue
        mods.append((yield from rules.drm("grenade_mods", n)))
    if t.kind in ("cluster", "satchel", "demo_pack"):
        mods.append(
            (yield from rules.drm("grenade_mods", "cluster" if t.kind == "cluster" else "satchel"))
        )
    if t.vehicle_motion:
        per = rules.opts.grenade_motion_per
        mods.append(
            Modifier(f"vehicle motion (+1 per {per} in)", int(t.vehicle_motion // per), "§3.12")
        )
        yield mods[-1]
    target = number - sum(m.value for m in mods)
    roll = yield from d20_under(target, "grenade to-hit", "§3.12")
    if roll == 20 and t.from_moving_halftrack:
        yield Note("natural 20 from a moving halftrack: dropped inside", "§3.39")
        return Outcome("dropped_inside")
    if roll == 20:
        yield Note("natural 20: a dud", "§3.12")
        return Outcome("dud")
    size = {"thrown": "grenade", "rifle": "grenade", "demo_pack": "medium"}.get(t.kind, "small")
    distance = 0
    if roll > target:
        yield Roll("1d8", "deviation direction", "§3.12")
        dev = yield Roll("1d6", "deviation (d3)", "§1")
        distance = d3(dev)
        yield Note(f"misses by {distance} in", "§3.12")
    ring = "A" if t.enclosed else (yield from ring_at(rules, size, distance))
    if ring is None:
        return Outcome("no_effect")
    mods_e = yield from cover_mods(rules, t.target)
    return (yield from effect_roll(rules, ring, tuple(mods_e), f"ring {ring}"))


def _long_rifle_grenade(rules: Rules, t: Throw) -> Generator[Any, Any, Outcome]:
    """12-30 inches: no to-hit roll; d8 direction and d6 inches (2d6 blind) on the small
    (mortar) template, for a figure at the aim point."""
    if not 12 < t.range <= 30:
        raise RuleError(f"long-range rifle grenades fly 12-30 in, not {t.range:g} (§3.12)")
    yield Roll("1d8", "deviation direction", "§3.12")
    distance = yield Roll("2d6" if t.blind else "1d6", "deviation inches", "§3.12")
    ring = "A" if t.enclosed else (yield from ring_at(rules, "small", distance))
    if ring is None:
        return Outcome("no_effect")
    mods_e = yield from cover_mods(rules, t.target)
    return (yield from effect_roll(rules, ring, tuple(mods_e), f"ring {ring}"))


IGNITERS = ("flamethrower_ignite", "wp_building", "wp_woods", "he_ignite_wood")


def ignite(rules: Rules, source: str) -> Generator[Any, Any, Outcome]:
    """Fire starting (§3.15, §3.36): flamethrower d20 <= 14, WP on a building <= 7, on woods or
    fields <= 5, HE on a wood building or roof only on a 1."""
    if source not in IGNITERS:
        raise RuleError(f"fire source {source!r}: expected one of {IGNITERS}")
    number = yield from rules.get("specials", source, "value")
    roll = yield from d20_under(number, "fire starts", "§3.36")
    return Outcome("burning" if roll <= number else "no_fire")


@dataclass(frozen=True)
class Flame:
    zone: Literal["red", "yellow"] = "yellow"
    active: bool = False
    target: Target = Target()


def flamethrower(rules: Rules, f: Flame) -> Generator[Any, Any, Outcome]:
    """Activation d20 <= 17 unless it fired last action; red zone: GD whatever the cover;
    yellow: column A with cover, LtW or worse becomes GD."""
    if not f.active:
        number = yield from rules.get("specials", "flamethrower_activation", "value")
        roll = yield from d20_under(number, "activation", "§3.15")
        if roll > number:
            return Outcome("fails_to_ignite")
    if f.zone == "red":
        return Outcome("GD")
    mods = yield from cover_mods(rules, f.target)
    out = yield from effect_roll(rules, "A", tuple(mods), "flame (column A)")
    return Outcome("GD") if out.name in ("GD", "KIA", "HW", "LtW") else out


def flame_carrier_hit(rules: Rules, column: str, target: Target) -> Generator[Any, Any, Outcome]:
    """A flamethrower carrier who took LtW or worse rolls again on the same column with the
    same modifiers: LtW or worse, the tank explodes (carrier GD; men within 3 in as in the
    yellow zone) (§3.15)."""
    mods = yield from cover_mods(rules, target)
    out = yield from effect_roll(rules, column, tuple(mods), "carrier re-roll")
    return Outcome("tank_explodes" if out.name in ("GD", "KIA", "HW", "LtW") else "tank_holds")


@dataclass(frozen=True)
class Charge:
    kind: Literal["pole_slit", "pole_window", "bridge"] = "pole_slit"
    packs: int = 0


def demolition(rules: Rules, c: Charge) -> Generator[Any, Any, Outcome]:
    """Pole charges into a slit (d20 <= 18) or a window (<= 15); La Neuville's bridge blows on
    d20 <= 2 x packs set."""
    if c.kind == "bridge":
        if not 0 <= c.packs <= 10:
            raise RuleError(f"packs {c.packs}: must be 0-10")
        number = 2 * c.packs
        page = "La Neuville"
    else:
        number = yield from rules.get("specials", c.kind, "value")
        page = "§3.14"
    roll = yield from d20_under(number, c.kind.replace("_", " "), page)
    return Outcome("success" if roll <= number else "fails")
