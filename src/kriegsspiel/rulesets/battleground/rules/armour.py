"""Hit location, penetration and penetration effects against armoured vehicles (digest §3.29,
§4.4): shared by tank guns, AT guns, infantry AT weapons, MGs/ATRs, close assault and
artillery impacts."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ....chance import Cite, Lookup, Modifier, Note, Outcome, Roll
from ....data.errors import RuleError
from ..models import HitLocations, Location, Vehicle
from .core import Rules, d20_under

FACINGS = ("front", "side", "rear", "top")
PEN_RESULTS = (
    "catastrophic",
    "total_destruction",
    "fatal_internal",
    "heavy_internal",
    "internal",
    "minor_damage",
)
ARMOUR_OUTCOMES = ("miss", "jam", "fouled", "no_penetration", *PEN_RESULTS)
GRID_WIDTH = 4  # the silhouette grid for tank-leader shifts: 5 rows of 4 (decision BG-SHIFT)


def vehicle(rules: Rules, name: str) -> Vehicle:
    rec = rules.cat.get("vehicle", name)
    assert isinstance(rec, Vehicle)
    return rec


def chart(rules: Rules, v: Vehicle) -> HitLocations:
    if v.locations == "truck":
        raise RuleError(f"{v.name} is a softskin: main guns use the truck location chart (§3.39)")
    rec = rules.cat.get("hit_location", v.locations)
    assert isinstance(rec, HitLocations)
    return rec


def armour_at(v: Vehicle, facing: str, loc: Location) -> tuple[str, Any]:
    if facing == "top":
        return "top", v.armor.get("top")
    key = ("T" if loc.part == "turret" else "H") + facing[0].upper()
    return key, v.armor.get(key)


def pen_chance(final: int) -> Fraction:
    """P(d20 <= final) with a natural 20 always failing."""
    return Fraction(max(0, min(19, final)), 20)


@dataclass(frozen=True)
class Impact:
    """A hit to resolve on a vehicle: the penetration value already adjusted for range."""

    vehicle: Vehicle
    facing: str
    pen: int
    heat: bool = False
    gun_mm: int = 75  # < 37 mm: no non-penetration effects, +3 on the effects chart
    small_arms: bool = False  # ATR and MG: +3 on the effects, never a non-pen effect
    hull_down: bool = False
    leader_shift: int = 0  # boxes the tank leader may move the location
    skirts: bool = False  # Schurzen / sandbags fitted: HEAT halved on the locations they cover

    def __post_init__(self) -> None:
        if self.facing not in FACINGS:
            raise RuleError(f"facing {self.facing!r}: expected one of {FACINGS}")


def _shift(rules: Rules, imp: Impact, locs: dict[str, Location], n: int) -> int:
    """The tank leader's best reachable box (orthogonal steps on a 4-wide grid), never onto
    location 1 front or rear; decision BG-SHIFT picks the likeliest penetration."""
    if not imp.leader_shift or rules.opts.leader_shift == "off":
        return n

    def value(k: int) -> Fraction:
        loc = locs[str(k)]
        if imp.hull_down and imp.facing == "front" and k < 17:
            return Fraction(-1)
        if loc.part == "auto":
            return Fraction(2)
        _, armor = armour_at(imp.vehicle, imp.facing, loc)
        if armor == "auto":
            return Fraction(2)
        return pen_chance(imp.pen - int(armor or 0))

    r0, c0 = divmod(n - 1, GRID_WIDTH)
    best = n
    for k in range(1, 21):
        if k == 1 and imp.facing in ("front", "rear"):
            continue
        r, c = divmod(k - 1, GRID_WIDTH)
        if abs(r - r0) + abs(c - c0) <= imp.leader_shift and value(k) > value(best):
            best = k
    return best


def hit_location(rules: Rules, imp: Impact) -> Generator[Any, Any, tuple[int, Location] | None]:
    """d20 on the vehicle's chart for the facing, the leader's shift, then hull down (front
    shots count only 17-20). None: the shot is fouled."""
    locs = chart(rules, imp.vehicle)
    table = locs.facings.get(imp.facing)
    if table is None:
        raise RuleError(f"{imp.vehicle.name} has no {imp.facing} location chart")
    n = yield Roll("1d20", f"hit location ({imp.facing})", "§3.29")
    shifted = _shift(rules, imp, table, n)
    if shifted != n:
        yield Note(f"tank leader shifts location {n} -> {shifted}", "§3.29")
    n = shifted
    labels = locs.placeholders(f"facings.{imp.facing}.{n}")
    if labels:
        yield Cite(tuple(labels))
    loc = table[str(n)]
    yield Lookup(f"{imp.vehicle.name} {imp.facing} location", n, loc.part, "§4.4")
    if imp.hull_down and imp.facing == "front" and n < 17:
        yield Note("hull down: only locations 17-20 can be hit", "§3.29")
        return None
    return n, loc


def penetrate(rules: Rules, imp: Impact, n: int, loc: Location) -> Generator[Any, Any, Outcome]:
    """Penetration (§3.29 step 6-8): automatic on location 1 front/rear or open armour; final
    <= 0 cannot penetrate; else d20 <= final with a natural 20 failing."""
    v = imp.vehicle
    auto = loc.part == "auto"
    armor: Any = 0
    if not auto:
        key, armor = armour_at(v, imp.facing, loc)
        yield Cite(tuple(v.placeholders(f"armor.{key}")))
        if armor is None:
            raise RuleError(f"{v.name}: {key} armour lost; overlay it")
        auto = armor == "auto"
    pen = imp.pen
    if imp.heat and imp.skirts and n in v.skirt_locations.get(imp.facing, ()):
        pen //= 2
        yield Note(f"skirts/sandbags halve HEAT: {pen}", "§3.18")
    final = pen if auto else pen - int(armor)
    if not auto:
        yield Note(f"penetration {pen} - armour {armor} = {final}", "§3.29")
        if final <= 0:
            return (yield from _non_pen(imp, loc))
        roll = yield from d20_under(final, "penetration", "§3.29")
        if roll == 20 or roll > final:
            return (yield from _non_pen(imp, loc))
    else:
        yield Note("automatic penetration", "§3.29")
    return (yield from pen_effects(rules, imp, final, loc))


def _non_pen(imp: Impact, loc: Location) -> Generator[Any, Any, Outcome]:
    effect = "NE" if imp.small_arms or imp.gun_mm < 37 else loc.non_pen
    yield Note(f"no penetration; location effect: {effect}", "§3.29")
    return Outcome("no_penetration", (("effect", effect),))


def pen_effects(
    rules: Rules, imp: Impact, final: int, loc: Location
) -> Generator[Any, Any, Outcome]:
    mods: list[Modifier] = []
    if imp.small_arms:
        mods.append((yield from rules.drm("pen_effect_mods", "mg")))
    elif imp.gun_mm < 37:
        mods.append((yield from rules.drm("pen_effect_mods", "small_gun")))
    if "ronson" in imp.vehicle.specials:
        mods.append((yield from rules.drm("pen_effect_mods", "ronson")))
    if final >= 10:
        per = yield from rules.get("pen_effect_mods", "per_10_over", "drm")
        mods.append(Modifier("penetration over armour", per * (final // 10), "§3.29"))
        yield mods[-1]
    roll = yield Roll("1d20", "penetration effects", "§3.29")
    result = yield from rules.band("pen_effects", roll + sum(m.value for m in mods), "result")
    yield Lookup("penetration effects", roll + sum(m.value for m in mods), result, "§3.29")
    return Outcome(result, (("location", loc.pen),))


def impact(rules: Rules, imp: Impact) -> Generator[Any, Any, Outcome]:
    """Location, then penetration and effects."""
    hit = yield from hit_location(rules, imp)
    if hit is None:
        return Outcome("fouled")
    return (yield from penetrate(rules, imp, *hit))


def at_location(rules: Rules, imp: Impact, n: int) -> Generator[Any, Any, Outcome]:
    """Penetration at a given location (the `penetration` action: the location is known)."""
    table = chart(rules, imp.vehicle).facings.get(imp.facing)
    if table is None or str(n) not in table:
        raise RuleError(f"location {n}: expected 1-20 on the {imp.facing} chart")
    locs = chart(rules, imp.vehicle)
    labels = locs.placeholders(f"facings.{imp.facing}.{n}")
    if labels:
        yield Cite(tuple(labels))
    if imp.hull_down and imp.facing == "front" and n < 17:
        return Outcome("fouled")
    return (yield from penetrate(rules, imp, n, table[str(n)]))
