"""Close quarter combat (pp. 17-19): each side sums its teams' CQC factors (p18), adds its
variations and a chance die, and reads the enemy's losses on the Infantry Casualty Table;
losses are simultaneous. A melee whose elements differ in their variables is split into
combats of like variables where it can be (game/melee_groups.py), else each side fights with
its worst variables (`worst`, p18)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

from ....chance import Modifier, Note, Outcome
from ....data.errors import RuleError
from .casualty import chance_and_read
from .infantry_fire import weather_rows
from .tables import Rules

P_CQC = "p18 CQC variations"
Cover = Literal["none", "soft", "hard", "fortification"]


@dataclass(frozen=True)
class Side:
    teams: tuple  # ((InfantryTeam, count), ...)
    cover: Cover = "none"  # this side's own cover (the enemy's variation)
    charged: bool = False  # this side charged in this turn
    disengaging: bool = False
    from_rear: bool = False
    pinned: bool = False  # pinned or in smoke
    riding: bool = False
    troop_class: str = "regular"
    engineer: bool = False
    cavalry: bool = False
    crew_lost: int = 0
    moved: Literal["none", "half", "over_half"] = "none"  # only with option cqc_moved_mods
    weather: Literal["clear", "rain", "night"] = "clear"


def factors(rules: Rules, side: Side) -> int:
    total = 0
    for team, count in side.teams:
        if team.cqc is None:
            raise RuleError(f"{team.name}: its CQC factor was lost in the seed (p18)")
        per = team.cqc
        if rules.opts.cqc_factor_basis == "man":
            per = team.cqc * 2  # P76: a team of two men
        total += per * count
    return total


def _row(rules: Rules, key: str, name: str) -> Modifier:
    return Modifier(name, rules.modifier("cqc-variations", key, "row_shift"), P_CQC)


def side_mods(rules: Rules, own: Side, enemy: Side) -> list[Modifier]:
    """Variations for `own` reading `enemy`'s losses."""
    o = rules.opts
    m = []
    cover = {
        "soft": "enemy_in_soft_cover",
        "hard": "enemy_in_hard_cover_buildings",
        "fortification": "enemy_in_fortifications",
    }
    if enemy.cover in cover:
        m.append(_row(rules, cover[enemy.cover], f"enemy in {enemy.cover} cover"))
    if enemy.charged:
        r = _row(rules, "enemy_charged_this_turn", "enemy charged in this turn")
        m.append(r if o.cqc_enemy_charged == "minus_one" else Modifier(r.name, 1, r.page))
    if enemy.disengaging:
        m.append(_row(rules, "enemy_disengaging", "enemy disengaging"))
    if own.from_rear:
        m.append(_row(rules, "attacks_from_behind_rear_edge", "attacking from the enemy's rear"))
    if own.pinned:
        r = _row(rules, "pinned_or_in_smoke", "pinned or in smoke")
        m.append(r if o.cqc_pinned == "table" else Modifier(r.name + " (p19 text)", -2, "p19"))
    if own.riding:
        m.append(_row(rules, "riding_afv_or_vehicle", "riding a vehicle"))
    if own.troop_class in ("veteran", "conscript"):
        m.append(_row(rules, own.troop_class, own.troop_class))
    if own.engineer:
        r = _row(rules, "engineer", "engineers")
        m.append(r if o.cqc_pinned == "table" else Modifier(r.name + " (p19 text)", 1, "p19"))
    if own.cavalry:
        m.append(_row(rules, "mounted_cavalry", "mounted cavalry"))
    if own.crew_lost:
        m.append(Modifier(f"{own.crew_lost} crew team(s) lost", -3 * own.crew_lost, P_CQC))
    m += weather_rows(rules, own.weather)
    if o.cqc_moved_mods and own.moved != "none":
        value = -1 if own.moved == "half" else -3
        m.append(Modifier(f"moved {own.moved} to enter CQC (deleted by errata 6)", value, "p18"))
    return m


def cqc(rules: Rules, attacker: Side, defender: Side):
    """One melee; the outcome names the losses each side inflicts."""
    fa, fd = factors(rules, attacker), factors(rules, defender)
    yield Note(f"attacker CQC factors {fa}, defender {fd}", "p18")
    yield Note("attacker's roll", "p18")
    hit_d = yield from chance_and_read(rules, fa, side_mods(rules, attacker, defender), "attacker")
    yield Note("defender's roll", "p18")
    hit_a = yield from chance_and_read(rules, fd, side_mods(rules, defender, attacker), "defender")
    yield Note(
        "losses are simultaneous; both sides then test morale (a Retreat = surrender; if both "
        "sides surrender, both disengage instead)",
        "p19",
    )
    return Outcome(
        f"defender_{hit_d}_attacker_{hit_a}", (("defender_lost", hit_d), ("attacker_lost", hit_a))
    )


def worst(rules: Rules, sides: list[Side]) -> Side:
    """One side of a melee that cannot be split into combats of like variables (p18 step 2):
    all its teams fight together, each variable at its worst for that side among them. A
    variable's worst value is the one that leaves this side's own roll lowest and the enemy's
    roll highest (so it follows the options, e.g. the sign of "enemy charged", P73)."""
    if not sides:
        raise ValueError("a side of a melee has at least one element")
    counts: dict = {}  # team id -> [team, count]
    for s in sides:
        for team, n in s.teams:
            counts.setdefault(team.id, [team, 0])[1] += n
    neutral = Side(())

    def harm(**var) -> int:
        s = replace(neutral, **var)
        own = sum(m.value for m in side_mods(rules, s, neutral))
        theirs = sum(m.value for m in side_mods(rules, neutral, s))
        return own - theirs

    chosen = {}
    for f in fields(Side):
        if f.name == "teams":
            continue
        values = sorted({getattr(s, f.name) for s in sides}, key=repr)
        chosen[f.name] = min(values, key=lambda v, n=f.name: harm(**{n: v}))
    return Side(tuple((t, n) for t, n in counts.values()), **chosen)
