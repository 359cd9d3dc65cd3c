"""Close assault (sheet L7): infantry against a vehicle, and infantry against infantry."""

from __future__ import annotations

from dataclasses import dataclass

from ...chance import Modifier, Note, Outcome, Roll
from .direct_fire import RuleError, tank_hit_effect, terrain_modifier
from .infantry_effects import InfantryState, apply_result
from .morale import morale_test
from .small_arms import effects_roll
from .tables import Rules

P = "L7 Close Assault"
VEHICLE_OUTCOMES = ("no_assault", "repulsed", "ineffective", "tracked", "damaged", "ko")


@dataclass(frozen=True)
class VehicleAssault:
    """One infantry unit assaulting one vehicle from base contact."""

    buttoned: bool = False
    open_topped: bool = False
    terrain: str | None = None  # the assaulting unit's terrain, against the vehicle's SA 2
    suppressed: bool = False
    unit: InfantryState = InfantryState()
    riders_sa: int = 0  # SA of infantry riding in or on the vehicle: they fire first
    escort_within_3: bool = False  # friendly infantry of the vehicle within 3"


def assault_vehicle(rules: Rules, a: VehicleAssault):
    """Morale test to go in; the vehicle's SA 2 attack unless buttoned (open tops always take
    it); survivors still in place roll Tank Hit Effect at -4, -5 buttoned, 0 open-topped."""
    if a.buttoned and a.open_topped:
        raise RuleError("an open-topped vehicle cannot be buttoned up (decision Q16)")
    if a.escort_within_3:
        near = rules.const("assault-escort-distance")
        raise RuleError(f'infantry within {near:g}" of the vehicle must be assaulted first')
    if not (yield from morale_test(rules, "to close assault a vehicle")):
        return Outcome("no_assault")
    unit = a.unit
    if a.riders_sa:
        yield Note(f"riders fire first (SA {a.riders_sa})", P)
        mods = terrain_modifier(rules, "sa", a.terrain)
        symbol = yield from effects_roll(rules, a.riders_sa, mods, "riders' fire")
        unit = yield from apply_result(rules, unit, symbol)
        if unit.removed or unit.retreat:
            return Outcome("repulsed")
    if not a.buttoned:
        sa = int(rules.const("assault-vehicle-sa"))
        mods = terrain_modifier(rules, "sa", a.terrain)
        if a.suppressed:
            mods.append(
                Modifier("assaulter suppressed", int(rules.const("suppressed-target")), "L2")
            )
        symbol = yield from effects_roll(rules, sa, mods, "vehicle's SA 2 defence")
        if rules.opts.assault_goes_on == "strict" and symbol not in ("-", "Sp"):
            yield Note("strict reading: only units with no result or Sp go on (decision Q16)", P)
            return Outcome("repulsed")
        unit = yield from apply_result(rules, unit, symbol)
        if unit.removed or unit.retreat:
            return Outcome("repulsed")
    if a.open_topped:
        mod = 0
        yield Note("open-topped vehicle: unmodified roll", P)
    else:
        mod = int(
            rules.const("assault-vehicle-buttoned-mod" if a.buttoned else "assault-vehicle-mod")
        )
        yield Modifier(
            "infantry assault" + (" on a buttoned-up vehicle" if a.buttoned else ""), mod, P
        )
    return Outcome((yield from tank_hit_effect(rules, mod, "close assault", P)))


@dataclass(frozen=True)
class InfantryAssault:
    """Up to 3 attackers against one defending unit. Strengths are assault points: a regular
    squad 1, special assault squads their SA, +2 per included LMG (decision Q15); the defender's
    is its SA plus usable support weapons; its terrain's SA entry is added."""

    attackers: tuple[int, ...]
    defender: int
    terrain: str | None = None


def assault_infantry(rules: Rules, a: InfantryAssault):
    """Totals + d10 each, highest wins (ties: decision Q14); then every unit rolls on its
    column of the Assault Hit Effect. Outcome: winner, with each unit's result in details."""
    limit = int(rules.const("assault-max-attackers"))
    if not 1 <= len(a.attackers) <= limit:
        raise RuleError(f"1 to {limit} infantry units may assault one position")
    att = sum(a.attackers)
    terrain = terrain_modifier(rules, "sa", a.terrain)
    dfn = a.defender + sum(m.value for m in terrain)
    yield from terrain
    yield Note(f"assault strengths: attackers {att}, defender {dfn}", P)
    ties = frozenset()
    if rules.opts.assault_ties == "reroll":
        ties = frozenset((x, y) for x in range(1, 11) for y in range(1, 11) if att + x == dfn + y)
    x, y = yield Roll(
        "2d10",
        "assault (attacker d10, defender d10; higher total wins)",
        P,
        faces=True,
        reroll=ties,
    )
    attackers_win = att + x > dfn + y
    yield Note(
        f"attackers {att}+{x}={att + x} vs defender {dfn}+{y}={dfn + y}: "
        f"{'attackers' if attackers_win else 'defender'} win"
        + (" (ties go to the defender, decision Q14)" if att + x == dfn + y else ""),
        P,
    )
    win = rules.band_table("assault-hit-winner")
    lose = rules.band_table("assault-hit-loser")
    att_table, def_table = (win, lose) if attackers_win else (lose, win)
    results = []
    for i in range(len(a.attackers)):
        roll = yield Roll("1d10", f"assault hit effect (attacker {i + 1})", P)
        results.append(att_table.lookup(roll))
    roll = yield Roll("1d10", "assault hit effect (defender)", P)
    defender = def_table.lookup(roll)
    return Outcome(
        "attackers_win" if attackers_win else "defender_wins",
        (("attackers", tuple(results)), ("defender", defender)),
    )
