"""Infantry direct fire (pp. 13-17): fire factors by range band summed over the firing teams,
every variation of the p16 table, the chance die, the Infantry Casualty Table and the spread of
losses over squads fired on together (p14). Covering fire widths and pinning (p17)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ....chance import Cite, Modifier, Note, Outcome
from ....data.errors import RuleError
from .casualty import allocate, chance_and_read
from .tables import Rules

P_VAR = "p16 infantry fire variations"
Cover = Literal["none", "soft", "hard", "fortification"]
Moving = Literal["none", "over5", "over10"]
MAX_LOST = 40
COVER_ORDER = ("none", "soft", "hard", "fortification")


@dataclass(frozen=True)
class Fire:
    teams: tuple  # ((InfantryTeam, count), ...)
    range: float
    cover: Cover = "none"
    target_moving: Moving = "none"
    prone: bool = False
    in_softskin: bool = False
    firer_moved: bool = False  # up to half (more than half: no fire, p13)
    under_covering_fire: bool = False
    troop_class: str = "regular"
    speculative: bool = False  # speculative or covering fire
    muzzle_flash: bool = False
    extra_barrels: int = 0
    crew_lost: int = 0
    one_man_turret: bool = False
    weather: Literal["clear", "rain", "night"] = "clear"
    squads: int = 1
    # a gun crew behind its shield, fired on from its front: towed guns partial cover (p16,
    # p34: within 45 degrees of the barrel), motorised guns hard cover (p27: inside 30 degrees)
    shield: Literal["none", "towed", "motorised"] = "none"
    afv_crew: bool = False  # the target is an AFV's crew: `cover` is the AFV's (p17, crew_fire)
    aboard: bool = False  # the target is the teams riding an AFV (p16-17, passenger_fire)


def _v(rules: Rules, key: str, name: str) -> Modifier:
    return Modifier(name, rules.modifier("infantry-fire-variations", key, "row_shift"), P_VAR)


def variations(rules: Rules, f: Fire) -> list[Modifier]:
    m = []
    cover = {
        "soft": "target_soft_partial_cover",
        "hard": "target_hard_cover",
        "fortification": "target_in_fortifications",
    }
    shield = {"towed": "soft", "motorised": "hard"}.get(f.shield, "none")
    if COVER_ORDER.index(shield) > COVER_ORDER.index(f.cover):
        m.append(_v(rules, cover[shield], f"gun crew behind a {f.shield} gun's shield"))
    elif f.cover in cover:
        who = "AFV crew (p17)" if f.afv_crew else "passengers aboard" if f.aboard else "target"
        m.append(_v(rules, cover[f.cover], f"{who} in {f.cover} cover"))
    if f.target_moving == "over5":
        m.append(_v(rules, "target_moving_over_5cm", "target moving 5-10 cm"))
    elif f.target_moving == "over10":
        m.append(_v(rules, "target_moving_over_10cm", "target moving over 10 cm"))
    if f.prone:
        m.append(_v(rules, "target_prone_infantry", "target prone"))
    if f.in_softskin:
        m.append(_v(rules, "target_in_softskin", "target in a softskin"))
    if f.firer_moved:
        m.append(_v(rules, "firer_moved_up_to_half", "firer moved up to half"))
    if f.under_covering_fire:
        m.append(_v(rules, "firer_under_covering_fire", "firer under covering fire"))
    if f.troop_class in ("veteran", "conscript"):
        m.append(_v(rules, f"firer_{f.troop_class}", f.troop_class))
    if f.speculative:
        m.append(_v(rules, "firer_speculative_or_covering_fire", "speculative or covering fire"))
    if f.muzzle_flash:
        m.append(_v(rules, "firing_at_muzzleflash", "at a muzzle flash"))
    if f.extra_barrels:
        m.append(Modifier(f"{f.extra_barrels} extra coaxial barrel(s)", 2 * f.extra_barrels, P_VAR))
    if f.crew_lost:
        m.append(Modifier(f"{f.crew_lost} crew team(s) lost", -3 * f.crew_lost, P_VAR))
    if f.one_man_turret:
        m.append(Modifier("AFV one-man turret", -3, P_VAR))
    m += weather_rows(rules, f.weather)
    return m


def weather_rows(rules: Rules, weather: str) -> list[Modifier]:
    """Rain or falling snow one row, night three rows on the casualty table (pp. 10-11; the
    signs were lost: decision P81 reads them as fewer losses, option casualty_sign)."""
    rows = {"rain": (1, "rain or falling snow", "p10"), "night": (3, "night", "p11")}
    if weather not in rows:
        return []
    n, name, page = rows[weather]
    sign = -1 if rules.opts.casualty_sign == "rows_down" else 1
    return [Modifier(f"{name} (decision P81)", sign * n, page)]


def fire_factors(rules: Rules, f: Fire):
    """Sum of the firing teams' factors in the range band (p15); yields the cites."""
    total_ff = 0
    for team, count in f.teams:
        if not team.fire_factors:
            raise RuleError(f"{team.name}: no fire factors in the data (p15)")
        band, edge, cite = rules.band(
            "infantry-fire-range-bands", f.range, len(team.fire_factors), team.name
        )
        yield cite
        yield Cite(tuple(team.placeholders(f"fire_factors.{band}", "fire_factors")))
        ff = team.fire_factors[band]
        if ff is None:
            raise RuleError(f"{team.name}: fire factor of band {band + 1} lost")
        yield Note(
            f"{count} x {team.name} at {f.range:g} cm (band to {edge} cm): {count} x {ff}", "p15"
        )
        total_ff += count * ff
    return total_ff


def infantry_fire(rules: Rules, f: Fire):
    """Fire of one group of teams with identical variations at one target unit."""
    ff = yield from fire_factors(rules, f)
    yield Note(f"total fire factors {ff}", "p16")
    lost = yield from chance_and_read(rules, ff, variations(rules, f), "infantry fire")
    split = allocate(lost, f.squads)
    if f.squads > 1:
        yield Note(f"{lost} team(s) lost spread over {f.squads} squads: {split}", "p14")
    return Outcome(f"lost_{lost}", (("per_squad", split),))


def _memo_key(rules: Rules, f: Fire) -> tuple:
    edges = []
    for team, _ in f.teams:
        try:
            edges.append(
                rules.band("infantry-fire-range-bands", f.range, len(team.fire_factors), team.name)[
                    1
                ]
            )
        except RuleError:
            return (rules, f)
    return (rules, replace(f, range=float(max(edges))) if len(set(edges)) == 1 else f)


infantry_fire.memo_key = _memo_key  # type: ignore[attr-defined]

WIDTHS = {"smg": 0.5, "assault_rifle": 0.5, "lmg": 1, "hmg": 2, "aa_1_2": 2, "mmg": 3, "aa_3_4": 3}


def covering_fire_width(weapons: dict[str, int]) -> float:
    """Covering fire zone width in team base-widths, summed over the weapons (p17; example:
    3 LMG + 1 MMG = 6)."""
    bad = set(weapons) - set(WIDTHS)
    if bad:
        raise RuleError(f"covering fire: {sorted(bad)} cannot give covering fire (p17)")
    return sum(WIDTHS[w] * n for w, n in weapons.items())
