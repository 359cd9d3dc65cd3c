"""Vehicle movement hazards and soft-skins (digest §3.27, §3.32, §3.37, §3.39): bogging and
unbogging, running men down, the crash chart, bail-out from a moving vehicle, main-gun and HE
hits on trucks, damage points to terrain."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ....chance import Lookup, Note, Outcome, Roll
from ....data.errors import RuleError
from .artillery import calibre_mod
from .checks import Check, skill_check
from .core import Rules, d20_under
from .effects import Target, effect_roll

BOG_MODS = ("reverse", "buttoned_up", "m4_pressure", "large", "very_large")


@dataclass(frozen=True)
class Bog:
    terrain: str
    mods: tuple[str, ...] = ()
    unbogging: bool = False


def bog(rules: Rules, b: Bog) -> Generator[Any, Any, Outcome]:
    """Crossing: d20 + mods >= bog number bogs. Unbogging: d20 <= 10 frees; a roll at or over
    the bog number bogs it for good (immobilized)."""
    number = yield from rules.get("bog_numbers", b.terrain, "bog")
    yield Lookup("bog number", b.terrain, number, "§3.27")
    mods = []
    for n in b.mods:
        if n not in BOG_MODS:
            raise RuleError(f"bog modifier {n!r}: expected one of {BOG_MODS}")
        mods.append((yield from rules.drm("bog_mods", n)))
    total = sum(m.value for m in mods)
    if b.unbogging:
        free = yield from rules.get("specials", "unbog", "value")
        roll = yield from d20_under(free, "unbog", "§3.27", (number - total - 1,))
        if roll <= free:
            return Outcome("free")
        return Outcome("immobilized" if roll + total >= number else "still_bogged")
    roll = yield from d20_under(number - total - 1, "bog check", "§3.27")
    if roll + total < number:
        return Outcome("clear")
    if b.terrain.startswith("wire"):  # caught in the wire: a roll on grenade vs tracks
        yield Note("bogged in wire: roll on grenade vs tracks, repairs take double", "§3.27")
        hit = yield Roll("1d20", "wire damage", "§3.27")
        damage = yield from rules.band("grenade_vs_vehicle", hit, "tracks")
        return Outcome("bogged", (("wire_damage", damage),))
    return Outcome("bogged")


def run_down(
    rules: Rules, morale: int, prone_open: bool, light_wound: bool
) -> Generator[Any, Any, Outcome]:
    """Running men down (§3.32): a Skill Check (+5 prone in the open, +5 wounded); fail -> HW."""
    mods = (("prone in the open", 5),) if prone_open else ()
    out = yield from skill_check(
        rules, Check(morale, mods, light_wound=light_wound, caused_by_fire=False)
    )
    return Outcome("escapes" if out.name == "pass" else "HW")


def crash(rules: Rules) -> Generator[Any, Any, Outcome]:
    """Crash chart (§3.39) when a softskin's driver is hit; overturning hits passengers on E."""
    roll = yield Roll("1d20", "crash", "§3.39")
    return Outcome((yield from rules.band("crash", roll, "result")))


def bail_moving(rules: Rules, target: Target = Target()) -> Generator[Any, Any, Outcome]:
    """Bailing out of a moving vehicle (§3.39): a roll on the SMG column (F)."""
    return (yield from effect_roll(rules, "F", (), "bail-out (column F)"))


def truck_hit(rules: Rules, facing: str, he: bool) -> Generator[Any, Any, Outcome]:
    """A main-gun hit on a truck or jeep (§3.39): no penetration roll; a location 1-8 (its d20
    mapping lost: placeholder), the vehicle effect; HE/HEAT also explode fuel on d20 <= 8."""
    if facing not in ("front", "side"):
        raise RuleError(f"truck facing {facing!r}: front or side (rear reads as front)")
    if he:
        n = yield from rules.get("specials", "truck_fuel_explosion", "value")
        roll = yield from d20_under(n, "fuel explosion", "§3.39")
        if roll <= n:
            return Outcome("fuel_explosion")
    d20 = yield Roll("1d20", "truck location", "§3.39")
    loc = yield from rules.band("truck_location_die", d20, "location")
    result = yield from rules.get("truck_locations", str(loc), f"{facing}_vehicle")
    pax = yield from rules.get("truck_locations", str(loc), f"{facing}_passengers")
    yield Lookup("truck location", loc, f"{result}; passengers {pax}", "§3.39")
    return Outcome(result, (("passengers", pax),))


def damage_points(rules: Rules, gun_mm: int) -> Generator[Any, Any, Outcome]:
    """Terrain damage (§3.37): one roll on the HE results (ring A) with only the calibre
    modifier; GD 2 DP, KIA 1, HW 1/2."""
    mod = yield from calibre_mod(rules, gun_mm)
    out = yield from effect_roll(rules, "A", (mod,) if mod else (), "damage")
    if out.name in ("GD", "KIA", "HW"):
        dp2 = yield from rules.get("damage_points", out.name, "dp2")
    else:
        dp2 = 0
    return Outcome({0: "dp_0", 1: "dp_half", 2: "dp_1", 4: "dp_2"}[dp2])


def ramming(*_: Any) -> Generator[Any, Any, Outcome]:
    """Ramming (§3.31): both charts were lost; not reconstructed."""
    from ....data.errors import NotImplementedRule

    raise NotImplementedRule("ramming (Ramming Chart and Ramming Damage Chart lost)", "§3.31")
    yield  # pragma: no cover
