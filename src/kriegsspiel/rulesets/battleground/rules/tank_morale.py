"""Tank crews: collective morale and bail-out, tank heroes and cowards (digest §3.23-§3.24),
and the Tank Platoon Integrity Check (§3.25)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal

from ....chance import Modifier, Note, Outcome, Roll
from ....data.errors import RuleError
from .checks import hero_roll
from .core import Rules, check, quality_of

CAUSES = ("immobilized", "crew_killed", "location_mc", "main_gun_out", "small_arms")
CREW_OUTCOMES = ("pass", "bail_out", "button_up", "drive_off", "hero", "coward")


@dataclass(frozen=True)
class CrewCheck:
    quality: str = "regular"
    tank_leader: bool = False
    leader_morale: int | None = None  # a scenario's printed tank leader (e.g. 14-1)
    cause: str = "crew_killed"
    mods: tuple[tuple[str, int], ...] = ()


def crew_morale(rules: Rules, c: CrewCheck) -> Generator[Any, Any, Outcome]:
    """One roll for the crew against the tank leader's morale if present, else the crew's.
    Failure: bail out (combat), button up (small arms), drive off (main gun out). Natural 1 on
    the crew MC: a tank hero; natural 20: the crew abandons and leaves the board."""
    if c.cause not in CAUSES:
        raise RuleError(f"cause {c.cause!r}: expected one of {CAUSES}")
    q = quality_of(c.quality)
    if c.leader_morale is not None:
        morale = c.leader_morale
    elif c.tank_leader:
        morale = yield from rules.get("crew_quality", q, "leader_morale")
        if q == "elite":
            morale = rules.opts.elite_tank_leader
    else:
        morale = yield from rules.get("crew_quality", q, "morale")
    mods = [Modifier(n, v, "§3.24") for n, v in c.mods]
    yield from mods
    ok, nat = yield from check(morale, mods, "crew morale", "§3.24")
    if nat == 1:
        return (yield from hero_roll(rules, "hero_tank"))
    if nat == 20:
        return Outcome("coward")
    if ok:
        return Outcome("pass")
    return Outcome(
        {"small_arms": "button_up", "main_gun_out": "drive_off"}.get(c.cause, "bail_out")
    )


INTEGRITY_MODS = (
    "defensive_position",
    "immobilized",
    "fire_from_side",
    "fire_from_rear",
    "main_gun_out",
)
INTEGRITY_OUTCOMES = (
    "no_check",
    "pass",
    "tank_hero",
    "no_effect",
    "seek_cover",
    "withdraw",
    "retreat_broken",
    "abandon",
)


@dataclass(frozen=True)
class Platoon:
    tanks: int
    out: int = 0  # destroyed or out of action (broken crews, abandoned)
    brewed: int = 0
    quality: str = "regular"
    tank_leader: bool = False
    mods: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.tanks < 1 or not 0 <= self.brewed <= self.out <= self.tanks:
            raise RuleError("need 1 <= tanks and 0 <= brewed <= out <= tanks")


def platoon_integrity(rules: Rules, p: Platoon) -> Generator[Any, Any, Outcome]:
    """At 75% out of action, or 50% brewed up, each remaining tank takes an MC; failure rolls
    d20 on the results. The modifiers go on the results roll (decision BG-TPI)."""
    if p.out * 4 < 3 * p.tanks and p.brewed * 2 < p.tanks:
        return Outcome("no_check")
    yield Note(f"{p.out}/{p.tanks} out, {p.brewed} brewed up: integrity check", "§3.25")
    mods = []
    for n in p.mods:
        if n not in INTEGRITY_MODS:
            raise RuleError(f"integrity modifier {n!r}: expected one of {INTEGRITY_MODS}")
        mods.append((yield from rules.drm("platoon_integrity_mods", n)))
    q = quality_of(p.quality)
    morale = yield from rules.get("crew_quality", q, "leader_morale" if p.tank_leader else "morale")
    on_check = rules.opts.integrity_mods_on == "check"
    ok, _ = yield from check(morale, mods if on_check else [], "tank MC", "§3.25")
    if ok:
        return Outcome("pass")
    roll = yield Roll("1d20", "integrity result", "§3.25")
    shift = 0 if on_check else sum(m.value for m in mods)
    return Outcome((yield from rules.band("platoon_integrity", roll + shift, "result")))


Availability = Literal["at_most", "below"]


def availability(rules: Rules, number: int, what: str) -> Generator[Any, Any, Outcome]:
    """Pre-game availability (§3.27, §3.39): smoke launchers, AAMGs, Schurzen, Zimmerit, APCR,
    sandbags: d20 <= the number ('less than' for halftrack MGs by option BG-HTMG)."""
    if not 0 <= number <= 20:
        raise RuleError(f"availability {number}: must be 0-20")
    limit = (
        number - 1 if what == "halftrack_mg" and rules.opts.mounted_mg_test == "below" else number
    )
    ok, _ = yield from check(limit, [], f"{what} availability", "§3.27")
    return Outcome("available" if ok else "absent")
