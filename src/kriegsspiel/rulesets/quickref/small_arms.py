"""Small-arms fire on the Effects table (sheet L2), against infantry and soft vehicles (L7)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...chance import Modifier, Note, Outcome, Roll, total
from .direct_fire import RuleError, tank_hit_effect, terrain_modifier
from .models import Infantry
from .tables import P_EFFECTS, Rules

P_SA = "L2 small arms rules"
RESULT_NAMES = {"-": "none", "Sp": "suppressed", "Rt": "retreat", "H": "hit", "KIA": "kia"}
OUTCOMES = ("none", "suppressed", "retreat", "hit", "kia")
WEAPON_RANGES = {"rifle": (9, 27), "lmg": (12, 36), "mmg": (12, 36), "hmg": (12, 36)}


@dataclass(frozen=True)
class Member:
    """One unit firing in a group: its current SA and its own range bands."""

    name: str
    sa: int
    ranges: tuple[int, ...]
    distance: float
    kind: str = "squad"  # squad, special_assault, command, at_team, mg_team, vehicle

    @property
    def long(self) -> bool:
        return self.distance > self.ranges[0]


@dataclass(frozen=True)
class SmallArms:
    """A small-arms attack: total strength, whether any member fires at long range, the target."""

    strength: int
    long_range: bool = False
    terrain: str | None = None
    target_suppressed: bool = False
    suppressive: bool = False
    members: tuple[Member, ...] = field(default=(), compare=True)


def current_sa(
    unit: Infantry, suppressed: bool = False, damaged: bool = False, attached_mg_sa: int = 0
) -> int:
    """SA now: 1 when suppressed (in total), 1 when damaged plus any attached MG (L2)."""
    if suppressed:
        return 1
    return (1 if damaged else unit.sa) + attached_mg_sa


def group_attack(
    rules: Rules,
    members: list[Member],
    *,
    terrain: str | None = None,
    target_suppressed: bool = False,
    suppressive: bool = False,
    positions: list[tuple[float, float]] | None = None,
) -> SmallArms:
    """Combine a fire group (L2): up to 3 squads within 4" of each other plus up to 2 MG teams;
    command stands, AT teams and vehicles fire alone (decision Q13). Raises RuleError."""
    if not members:
        raise RuleError("a fire group needs at least one member")
    squads = [m for m in members if m.kind in ("squad", "special_assault")]
    mgs = [m for m in members if m.kind == "mg_team"]
    loners = [m for m in members if m.kind not in ("squad", "special_assault", "mg_team")]
    if loners and len(members) > 1:
        raise RuleError(f"{loners[0].name} ({loners[0].kind}) fires alone (decision Q13)")
    if len(squads) > int(rules.const("combine-squads-max")):
        raise RuleError(f"at most {int(rules.const('combine-squads-max'))} squads may combine fire")
    if len(mgs) > int(rules.const("combine-mgs-max")) and squads:
        raise RuleError(
            f"at most {int(rules.const('combine-mgs-max'))} MG teams may add to a squad's fire"
        )
    if len(mgs) > 1 and not squads:
        raise RuleError("MG teams fire on their own or add to a squad's fire")
    if positions is not None and len(squads) > 1:
        limit = rules.const("combine-distance")
        pts = [p for p, m in zip(positions, members, strict=True) if m in squads]
        for i, a in enumerate(pts):
            for b in pts[i + 1 :]:
                if ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 > limit:
                    raise RuleError(
                        f'squads combining fire must be within {limit:g}" of each other'
                    )
    for m in members:
        if m.distance > m.ranges[-1]:
            raise RuleError(f'{m.name}: range {m.distance:g}" beyond its {m.ranges[-1]}"')
    strength = sum(m.sa for m in members)
    if suppressive:
        ok = max(m.sa for m in members) if rules.opts.suppressive_needs == "unit" else strength
        need = int(rules.const("suppressive-fire-min-sa"))
        if ok < need:
            raise RuleError(f"suppressive fire needs an SA of {need} or more (decision Q12)")
    return SmallArms(
        strength,
        any(m.long for m in members),
        terrain,
        target_suppressed,
        suppressive,
        tuple(members),
    )


def sa_modifiers(rules: Rules, atk: SmallArms, column: str = "sa") -> list[Modifier]:
    mods: list[Modifier] = []
    if atk.long_range and column == "sa":
        mods.append(Modifier("long range", int(rules.const("sa-long-range")), P_SA))
    if atk.target_suppressed:
        mods.append(
            Modifier("target suppressed (heads down)", int(rules.const("suppressed-target")), P_SA)
        )
    mods += terrain_modifier(rules, column, atk.terrain, soft=True)
    if atk.suppressive:
        mods.append(Modifier("suppressive fire", int(rules.const("suppressive-fire")), P_SA))
    return mods


def effects_roll(rules: Rules, strength: int, mods: list[Modifier], label: str):
    """Roll 2d10 + modifiers on the Effects table at a strength; returns the table symbol."""
    yield from mods
    roll = yield Roll(rules.effects.dice, label, P_EFFECTS)
    symbol, lookup = rules.effects_cell(roll + total(mods), strength)
    yield lookup
    return symbol


def small_arms(rules: Rules, atk: SmallArms):
    """Small-arms fire at infantry: none / suppressed / retreat / hit / kia."""
    yield Note(f"small arms, strength {atk.strength} (column {rules.column(atk.strength)})", P_SA)
    symbol = yield from effects_roll(rules, atk.strength, sa_modifiers(rules, atk), "small arms")
    if atk.suppressive:
        if symbol == "-":
            return Outcome("none")
        yield Note("suppressive fire: any result suppresses, other effects ignored", P_SA)
        return Outcome("suppressed")
    return Outcome(RESULT_NAMES[symbol])


def soft_vehicle_fire(rules: Rules, atk: SmallArms, mg_involved: bool):
    """SA at an unarmoured vehicle or gun (L7): Sp/Rt as usual; H or KIA -> Tank Hit Effect
    at -1, or +2 when machine guns took part (instead of -1 by default, decision Q18)."""
    symbol = yield from effects_roll(rules, atk.strength, sa_modifiers(rules, atk), "small arms")
    if symbol in ("-", "Sp", "Rt"):
        return Outcome(RESULT_NAMES[symbol])
    mod = int(rules.const("soft-vehicle-mod"))
    if mg_involved:
        mg = int(rules.const("soft-vehicle-mg-mod"))
        mod = mg if rules.opts.soft_vehicle_mg == "replace" else mod + mg
    yield Modifier(
        "soft vehicle" + (" (machine guns took part)" if mg_involved else ""),
        mod,
        "L7 Soft Vehicles",
    )
    result = yield from tank_hit_effect(rules, mod, "soft vehicle", "L7 Soft Vehicles")
    return Outcome(result)


def _memo_key(rules: Rules, atk: SmallArms, *rest) -> tuple:
    """The members of a fire group enter the odds only through the attack's strength and its
    long-range flag, so attacks alike in those (whoever fires, from however far) share their
    exact odds (`chance.exact` memo)."""
    return (rules, replace(atk, members=()), *rest)


small_arms.memo_key = _memo_key  # type: ignore[attr-defined]
soft_vehicle_fire.memo_key = _memo_key  # type: ignore[attr-defined]
