"""Man vs tank (digest §3.17) and close assault (§3.18): the proximity and advance Gut
Checks, placement by target size, grenade effects on tracks or engine deck, magnetic mines and
satchel charges through location and penetration, Molotovs."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal

from ....chance import Lookup, Modifier, Note, Outcome, Roll, Sub
from ....data.errors import RuleError
from .armour import Impact, hit_location, penetrate
from .checks import Check, gut_check
from .core import Rules, check
from .grenades import Throw, throw_number

ATTACKS = ("grenade_tracks", "grenade_engine", "magnetic", "satchel", "demo_pack")


@dataclass(frozen=True)
class Approach:
    morale: int
    advancing: bool = False  # moving within range of it (half check for tanks and AGs)
    tank_or_ag: bool = True
    mods: tuple[str, ...] = ()  # afv_approach_mods names
    distance: float | None = None  # inches from the AFV, when known


def afv_gut(rules: Rules, a: Approach) -> Generator[Any, Any, Outcome]:
    """An AFV comes within range, or a figure advances on it: Gut Check; failure means the
    figure must move away toward cover (not Broken)."""
    if a.distance is not None and a.distance > rules.opts.afv_proximity:
        yield Note(f"beyond {rules.opts.afv_proximity} in: no check (decision BG-PROX)", "§3.17")
        return Outcome("no_check")
    pairs = []
    for n in a.mods:
        m = yield from rules.drm("afv_approach_mods", n)
        pairs.append((m.name, m.value))
    severity = "half" if a.advancing and a.tank_or_ag else "normal"
    out = yield from gut_check(rules, Check(a.morale, tuple(pairs), severity, caused_by_fire=False))
    return Outcome("stands" if out.name == "pass" else "retreats")


def retreat_inches(rules: Rules) -> tuple[int, int]:
    """How far a figure that failed must move toward cover: 5-10 in, or 4-8 (BG-PROX)."""
    near = rules.opts.afv_proximity
    return near, 2 * near


@dataclass(frozen=True)
class Assault:
    attack: str
    target: Impact  # vehicle and facing for mines and charges
    mods: tuple[str, ...] = ()  # close_assault_mods names
    cluster: bool = False
    vehicle_moving: bool = False
    thrown: bool = False  # a thrown satchel: must first hit as a grenade at +2
    throw_range: float = 0.0


def close_assault(rules: Rules, a: Assault) -> Generator[Any, Any, Outcome]:
    if a.attack not in ATTACKS:
        raise RuleError(f"close-assault attack {a.attack!r}: expected one of {ATTACKS}")
    mods = yield from rules.drms("close_assault_mods", a.mods)
    if a.thrown and a.attack == "satchel":
        mods.append((yield from rules.drm("close_assault_mods", "thrown_satchel")))
    row = "satchel" if a.attack == "demo_pack" else a.attack
    size = a.target.vehicle.size
    number = yield from rules.get("close_assault_placement", row, size)
    yield Lookup("placement", f"{row} vs {size}", number, "§3.18")
    if a.thrown and a.attack == "demo_pack":
        yield Note("a thrown demo pack never hooks on", "§3.18")
        return Outcome("beside_vehicle")
    if a.thrown:
        to_hit = yield from throw_number(rules, Throw(a.throw_range, "satchel"))
        if to_hit is None:
            raise RuleError(f"a satchel cannot be thrown {a.throw_range:g} in (§3.12)")
        quality = [m for m in mods if m.name in ("elite", "green", "light wound")]
        throw_mods = [*quality, (yield from rules.drm("grenade_mods", "satchel"))]
        hit, _ = yield from check(to_hit, throw_mods, "satchel throw", "§3.18")
        if not hit:
            return Outcome("beside_vehicle")
    placed, _ = yield from check(number, mods, "placement", "§3.18")
    if not placed:
        return Outcome("beside_vehicle" if a.attack in ("satchel", "demo_pack") else "failed")
    if a.attack.startswith("grenade"):
        col = "tracks" if a.attack == "grenade_tracks" else "engine"
        extra = []
        if a.cluster:
            extra.append(Modifier("cluster grenade", -5, "§3.18"))
        if a.vehicle_moving and col == "tracks":
            extra.append(Modifier("vehicle moving", 4, "§3.18"))
        yield from extra
        roll = yield Roll("1d20", f"grenade vs {col}", "§3.18")
        result = yield from rules.band(
            "grenade_vs_vehicle", roll + sum(m.value for m in extra), col
        )
        return Outcome(result)
    pen = yield from rules.get("explosive_pen", a.attack, "pen")
    magnetic = a.attack == "magnetic"  # Schurzen halve magnetic mines like HEAT
    imp = Impact(a.target.vehicle, a.target.facing, int(pen), heat=magnetic, skirts=a.target.skirts)
    return (yield Sub(charge, (rules, imp), label="charge detonates"))


def charge(rules: Rules, imp: Impact) -> Generator[Any, Any, Outcome]:
    hit = yield from hit_location(rules, imp)
    if hit is None:
        return Outcome("fouled")
    return (yield from penetrate(rules, imp, *hit))


@dataclass(frozen=True)
class Molotov:
    open_top: bool = False
    mods: tuple[str, ...] = ()  # molotov_mods names
    lands: Literal["roll", "on_vehicle"] = "on_vehicle"
    throw_target: int = 12  # grenade to-hit number with modifiers applied, when rolled


def molotov(rules: Rules, m: Molotov) -> Generator[Any, Any, Outcome]:
    """Thrown as a grenade; on the vehicle, d20 on the closed or open-top chart."""
    if m.lands == "roll":
        ok, nat = yield from check(m.throw_target, [], "molotov throw", "§3.12")
        if not ok:
            return Outcome("misses")
    mods = yield from rules.drms("molotov_mods", m.mods)
    roll = yield Roll("1d20", "molotov effect", "§3.18")
    col = "open_top" if m.open_top else "closed"
    result = yield from rules.band("molotov", roll + sum(x.value for x in mods), col)
    return Outcome(result)
