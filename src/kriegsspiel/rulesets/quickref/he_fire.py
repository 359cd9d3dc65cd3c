"""HE fire: direct, indirect (call for fire, drift), flamethrowers (sheet L4), against infantry,
soft targets and armour (HE strikes the flank)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...chance import Lookup, Modifier, Note, Outcome, Roll, total
from .direct_fire import Shot, band_of, movement_modifiers, tank_hit_effect, terrain_modifier
from .models import Vehicle
from .small_arms import RESULT_NAMES, effects_roll
from .tables import P_HE, SEVERITY, Rules

TargetKind = Literal["infantry", "soft", "armoured"]
HE_OUTCOMES = ("none", "suppressed", "retreat", "hit", "kia")
VEHICLE_OUTCOMES = ("none", "ineffective", "tracked", "damaged", "ko")


@dataclass(frozen=True)
class HETarget:
    kind: TargetKind = "infantry"
    terrain: str | None = None
    suppressed: bool = False
    side_armour: int = 0
    hull_down: bool = False


def he_effect(rules: Rules, strength: int, target: HETarget):
    """One burst of HE on one unit. Above 24 it splits into rolls on the 24 column and on the
    remainder's column (L4); the outcome is the most severe, with every part in the details."""
    parts = rules.he_parts(strength)
    if len(parts) > 1:
        yield Note(f"HE {strength} splits into {' + '.join(map(str, parts))}", P_HE)
    results: list[str] = []
    for s in parts:
        results.append((yield from _he_part(rules, s, target)))
    order = VEHICLE_OUTCOMES if target.kind != "infantry" else HE_OUTCOMES
    rank = {name: i for i, name in enumerate(order)} | {
        RESULT_NAMES[k]: v for k, v in SEVERITY.items()
    }
    worst = max(results, key=lambda r: rank.get(r, 0))
    return Outcome(worst, (("parts", tuple(results)),))


def _he_part(rules: Rules, strength: int, target: HETarget):
    armoured = target.kind == "armoured"
    mods = terrain_modifier(rules, "he", target.terrain, target.hull_down, soft=not armoured)
    if target.suppressed:
        mods.append(Modifier("target suppressed", int(rules.const("suppressed-target")), "L2"))
    symbol = yield from effects_roll(rules, strength, mods, f"HE {strength}")
    if target.kind == "infantry":
        return RESULT_NAMES[symbol]
    if target.kind == "soft" and symbol in ("-", "Sp", "Rt"):
        return RESULT_NAMES[symbol]
    if armoured and rules.opts.he_armour_gate and symbol not in ("H", "KIA"):
        yield Note("HE against armour: only H or KIA can penetrate (decision Q17)", P_HE)
        return "none"
    pen, lookup = rules.he_penetration(strength)
    yield lookup
    armour = target.side_armour if armoured else 0
    yield Note(f"HE strikes the flank: penetration {pen} - side armour {armour}", P_HE)
    return (yield from tank_hit_effect(rules, pen - armour, f"HE {strength} on the flank"))


def vehicle_target(
    target: Vehicle, terrain: str | None = None, hull_down: bool = False, suppressed: bool = False
) -> HETarget:
    kind: TargetKind = "soft" if target.soft else "armoured"
    side = target.armour.side if target.armour else 0
    return HETarget(kind, terrain, suppressed, side, hull_down)


def he_direct(rules: Rules, shot: Shot, target: HETarget):
    """Direct HE from a gun with a chart row (or default to-hit 6): to-hit without terrain
    (terrain acts on the effects roll, decision Q17), then the burst on the target."""
    gun = shot.firer.gun if isinstance(shot.firer, Vehicle) else None
    if shot.weapon != "main" and isinstance(shot.firer, Vehicle):
        gun = shot.firer.alt_guns.get(shot.weapon, gun)
    if gun is None or not gun.he:
        raise ValueError(f"{shot.firer.name} has no HE")
    base = shot.firer.gun if isinstance(shot.firer, Vehicle) and shot.firer.gun else gun
    band = band_of(base, shot.range, shot.firer.name)
    to_hit = base.to_hit
    need = to_hit[band] if to_hit else int(rules.const("he-default-to-hit"))
    mods = movement_modifiers(
        rules,
        getattr(shot.firer, "nation", None),
        shot.target_moved,
        shot.firer_moved,
        shot.firer_buttoned,
        shot.firer_damaged,
    )
    yield from mods
    yield Lookup("to-hit number", "HE", need, P_HE)
    roll = yield Roll("1d10", "to-hit (HE)", at_most=need - total(mods))
    if roll + total(mods) > need:
        return Outcome("miss")
    return (yield from he_effect(rules, gun.he, target))


def call_for_fire(rules: Rules, russian: bool):
    """Artillery plot: the observer calls fire on d10 >= 5 (German, Western) or 7 (Russian)."""
    need = int(rules.const("call-for-fire-russian" if russian else "call-for-fire-western"))
    roll = yield Roll("1d10", "call for fire", P_HE)
    ok = roll >= need
    yield Note(f"call for fire {roll} vs {need}+: {'plotted' if ok else 'no contact'}", P_HE)
    return ok


def drifts(rules: Rules, trained_observer: bool):
    """Artillery fire: drifts on d10 >= 9 for FOs and command stands, >= 6 for others."""
    need = int(rules.const("drift-fo" if trained_observer else "drift-other"))
    roll = yield Roll("1d10", "drift", P_HE)
    off = roll >= need
    yield Note(f"drift {roll} vs {need}+: {'drifts' if off else 'on target'}", P_HE)
    return off


@dataclass(frozen=True)
class FireMission:
    strength: int
    russian: bool = False
    trained_observer: bool = True


def indirect_fire(rules: Rules, mission: FireMission, target: HETarget):
    """The whole chain for odds: call (this turn), drift (next turn), burst on the target.
    A drift is counted as missing the target (the engine moves the burst instead)."""
    if not (yield from call_for_fire(rules, mission.russian)):
        return Outcome("no_call")
    if (yield from drifts(rules, mission.trained_observer)):
        return Outcome("drift")
    return (yield from he_effect(rules, mission.strength, target))


def flamethrower(
    rules: Rules, strength: int, target: HETarget, vehicle: bool = False, bonus: int = 1
):
    """Flamethrowers never roll to hit (L4). Against infantry: Effects table with the HE
    terrain column; against a vehicle: d10 + 1 on Tank Hit Effect, no armour (decision Q19)."""
    if vehicle:
        yield Modifier("flamethrower against a vehicle", bonus, P_HE)
        return Outcome((yield from tank_hit_effect(rules, bonus, "flamethrower")))
    return (yield from he_effect(rules, strength, target))
