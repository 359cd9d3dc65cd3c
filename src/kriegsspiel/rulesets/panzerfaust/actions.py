"""Panzerfaust actions for `kriegsspiel odds|resolve panzerfaust ACTION` and the odds page."""

from __future__ import annotations

from ...data.catalogue import Catalogue
from ...data.errors import RuleError
from ..actions import Action, Param, Query, flag
from .options import Options
from .rules import (
    aa_fire,
    airborne,
    aircraft,
    area_fire,
    at_fire,
    bog,
    cqc,
    crew_fire,
    flame,
    indirect,
    infantry_fire,
    mine,
    morale,
    observe,
    passenger_fire,
    passengers,
    pips,
    weather,
    works,
)
from .rules.lookup import find
from .rules.tables import CLASSES, RATINGS, Rules
from .rules.teams import parse_teams
from .rules.weapons import (
    AMMO,
    area_weapon,
    chart_or_example,
    firer_weapon,
    infantry_weapon,
    target_of,
)

# numeric bounds shared by several parameters (issue 15 item 3), with their source
CALIBRE_BOUND = dict(min=1, max=380, bound="the largest calibre in the data")
CM_BOUND = dict(min=0, max=250, bound="the last range band edge in the data, 250 cm (p29)")
PAIRS_BOUND = dict(min=1, max=12, bound="generous: twelve pairs on one point of aim")
SUBUNITS_BOUND = dict(min=0, max=32, bound="the most sub-units of any organisation in the data")
TEAMS_BOUND = dict(min=0, max=12, bound="the most teams in a squad or section in the data")
TURNS_BOUND = dict(
    min=1, max=30, bound="generous: a long game's turns; past the 4th the bonus stays +3"
)


CLASS = Param("troop_class", str, "regular", "firer's troop class", CLASSES)
WEATHER = Param("weather", str, "clear", "rain/falling snow or night", ("clear", "rain", "night"))
MOVING = ("none", "over15_to_from", "across_under15", "across_over15")
PRIOR = ("none", "stunned_1", "stunned_2", "immobilised", "gun_damaged")
LOCS = ("turret", "upper_hull", "lower_hull", "tracks")
ARCS = ("front", "side", "rear")
# how far an infantry target moved, for small arms (p15)
TEAM_MOVING = Param(
    "target_moving", str, "none", "target moved 5-10 or over 10 cm", ("none", "over5", "over10")
)


def _rules(cat: Catalogue, opts: Options) -> Rules:
    return Rules(cat, opts)


def _covered(spec: str | None) -> frozenset[str]:
    if not spec:
        return frozenset()
    parts = frozenset(p.strip() for p in spec.split(",") if p.strip())
    bad = parts - set(LOCS)
    if bad:
        raise RuleError(f"--covered {spec!r}: unknown location(s) {sorted(bad)}; use {LOCS}")
    return parts


def _shot(weapon, target, p) -> at_fire.Shot:
    cover = "hull_down" if p.get("hull_down") else p.get("cover", "none")
    return at_fire.Shot(
        weapon,
        target,
        float(p["range"]),
        p.get("aspect", "front"),
        p.get("ammo", "AP"),
        p.get("troop_class", "regular"),
        p.get("firer_moved", False),
        p.get("target_moving", "none"),
        cover,
        p.get("just_sighted", False),
        p.get("seen_under_half", False),
        p.get("shots_before", 0) or 0,
        p.get("target_moving", "none") == "none",
        p.get("traversed", False),
        p.get("muzzle_flash", False),
        p.get("commander_killed", False),
        p.get("bore_sighted", False),
        p.get("weather", "clear"),
        p.get("one_man_turret", False),
        p.get("open_topped_firer", False),
        p.get("lower_hidden", False),
        _covered(p.get("covered")),
        p.get("prior", "none"),
    )


def build_at_fire(cat, opts, **p) -> Query:
    weapon, rec = firer_weapon(cat, p["firer"], p["ammo"])
    weapon = chart_or_example(weapon, opts.to_hit_source)
    target = target_of(cat, p["target"])
    p = dict(p)
    if getattr(rec, "one_man_turret", False):
        p["one_man_turret"] = True
    if "top" in getattr(rec, "open", ()):
        p["open_topped_firer"] = True
    shot = _shot(weapon, target, p)
    return Query(
        at_fire.at_fire,
        (_rules(cat, opts), shot),
        at_fire.OUTCOMES,
        f"{rec.name} ({weapon.name}, {p['ammo']}) at {target.name}, {p['range']:g} cm, {p['aspect']}",
    )


def build_infantry_at(cat, opts, **p) -> Query:
    weapon, rec = infantry_weapon(cat, p["weapon"])
    target = target_of(cat, p["target"])
    shot = _shot(weapon, target, {**p, "ammo": "AP"})
    return Query(
        at_fire.at_fire,
        (_rules(cat, opts), shot),
        at_fire.OUTCOMES,
        f"{rec.name} at {target.name}, {p['range']:g} cm, {p['aspect']}",
    )


def _lost_outcomes(n: int = 12) -> tuple[str, ...]:
    return tuple(f"lost_{i}" for i in range(n))


def build_infantry_fire(cat, opts, **p) -> Query:
    teams = parse_teams(cat, p.pop("teams"))
    f = infantry_fire.Fire(teams, float(p.pop("range")), **p)
    names = ", ".join(f"{n} x {t.name}" for t, n in teams)
    return Query(
        infantry_fire.infantry_fire,
        (_rules(cat, opts), f),
        (),
        f"{names} fire at {f.range:g} cm",
        key=lambda r: int(r.name.split("_")[1]),
    )


def build_crew_fire(cat, opts, *, teams, range, target, arc, from_above, closed_down, **p):
    """Small arms at the crew of the AFV record `target` from `arc` (p17): its `open` list and
    one-man turret from the data; a fully enclosed AFV closed down is refused."""
    _, rec = find(cat, ("afv",), target)
    parts = tuple(getattr(rec, "open", None) or ())
    why = crew_fire.why_safe(parts, closed_down)
    if why:
        raise RuleError(f"{rec.name}: {why}")
    cover = crew_fire.crew_cover(parts, arc, from_above)
    f = infantry_fire.Fire(parse_teams(cat, teams), float(range), cover, afv_crew=True, **p)
    shot = crew_fire.CrewShot(f, parts, bool(getattr(rec, "one_man_turret", False)))
    return Query(
        crew_fire.crew_fire,
        (_rules(cat, opts), shot),
        ("lost_0", "crew_lost", "commander_killed", "bailed_out"),
        f"small arms at the crew of {rec.name} from its {arc}, {f.range:g} cm, "
        + {"none": "no cover", "soft": "partial cover", "hard": "hard cover"}[cover],
    )


def _passengers_lost(riding: int) -> tuple[str, ...]:
    """The outcomes of fire at `riding` teams aboard, none lost first."""
    return tuple(f"{passenger_fire.RESULT}{n}" for n in range(riding + 1))


def build_passenger_fire(cat, opts, *, teams, range, target, arc, from_above, riding, **p):
    """Small arms at the teams riding the AFV record `target` from `arc` (p16-17, P349): tank
    riders on a tank or SP gun, passengers inside an APC/recon vehicle, the cover from its
    `open` list or its notes' `passenger_cover`; at most `riding` teams are lost."""
    _, rec = find(cat, ("afv",), target)
    parts = tuple(getattr(rec, "open", None) or ())
    inside = rec.chart == "apc_recon"
    why = passenger_fire.why_safe(parts, inside, opts.apc_passengers == "open_only")
    if why:
        raise RuleError(f"{rec.name}: {why}")
    noted = getattr(rec, "passenger_cover", None)
    cover = passenger_fire.passenger_cover(parts, arc, from_above, inside, noted)
    f = infantry_fire.Fire(parse_teams(cat, teams), float(range), cover, aboard=True, **p)
    who = "passengers inside" if inside else "tank riders on"
    return Query(
        passenger_fire.passenger_fire,
        (_rules(cat, opts), passenger_fire.PassengerShot(f, riding)),
        _passengers_lost(riding),
        f"small arms at {riding} team(s) of {who} {rec.name} from its {arc}, {f.range:g} cm, "
        + {"none": "no cover", "soft": "partial cover", "hard": "hard cover"}[cover],
    )


def build_cqc(cat, opts, *, attackers, defenders, **p) -> Query:
    a = cqc.Side(
        parse_teams(cat, attackers),
        troop_class=p["attacker_class"],
        charged=p["attacker_charged"],
        from_rear=p["from_rear"],
        pinned=p["attacker_pinned"],
        engineer=p["engineer"],
        moved=p["attacker_moved"],
        weather=p["weather"],
    )
    d = cqc.Side(
        parse_teams(cat, defenders),
        cover=p["defender_cover"],
        troop_class=p["defender_class"],
        disengaging=p["defender_disengaging"],
        pinned=p["defender_pinned"],
        weather=p["weather"],
    )
    return Query(cqc.cqc, (_rules(cat, opts), a, d), (), f"CQC: {attackers} against {defenders}")


def build_morale(cat, opts, **p) -> Query:
    t = morale.Test(**p)
    return Query(
        morale.morale, (_rules(cat, opts), t), morale.OUTCOMES, f"morale test ({t.rating})"
    )


def build_pips(cat, opts, *, troop_class) -> Query:
    return Query(
        pips.movement_pips,
        (_rules(cat, opts), troop_class),
        tuple(f"pips_{i}" for i in range(1, 7)),
        f"movement pips, {troop_class} company",
    )


def _size(cat, target, size) -> str:
    if target:
        return target_of(cat, target).size
    return size


def build_observe(cat, opts, *, target, size, **p) -> Query:
    s = observe.Sight(size=_size(cat, target, size), **p)
    return Query(
        observe.observe,
        (_rules(cat, opts), s),
        ("observed", "unseen"),
        f"observe size {s.size} in {s.terrain} at {s.distance:g} cm",
    )


def build_flash(cat, opts, **p) -> Query:
    f = observe.Flash(**p)
    return Query(
        observe.muzzle_flash, (_rules(cat, opts), f), ("exact", "general", "none"), "muzzle flash"
    )


def build_area_fire(cat, opts, *, firer, target, size, **p) -> Query:
    weapon, rec = area_weapon(cat, firer, opts.ap_rifle_grenade_bzr)
    weapon = chart_or_example(weapon, opts.to_hit_source)
    a = area_fire.AreaShot(weapon, float(p.pop("range")), size=_size(cat, target, size), **p)
    return Query(
        area_fire.area_fire,
        (_rules(cat, opts), a),
        ("destroyed", "survives", "outside"),
        f"{rec.name} area fire at {a.range:g} cm on a size {a.size} target",
    )


def build_smoke(cat, opts, *, firer, range, troop_class, turns_on_poa, firer_moved) -> Query:
    weapon, rec = firer_weapon(cat, firer, "HE")
    a = area_fire.AreaShot(
        weapon, float(range), troop_class, turns_on_poa=turns_on_poa, firer_moved=firer_moved
    )
    return Query(area_fire.smoke, (_rules(cat, opts), a), ("placed", "failed"), f"{rec.name} smoke")


def build_indirect(cat, opts, **p) -> Query:
    t = indirect.BZTarget(**p)
    order = ("missed", "no_effect", "stunned_1", "stunned_2", "immobilised", "destroyed")
    return Query(
        indirect.bz_hit,
        (_rules(cat, opts), t),
        order,
        f"{t.calibre_mm:g} mm beaten zone on {t.kind}",
    )


def build_call_down(cat, opts, **p) -> Query:
    c = indirect.CallDown(**p)
    return Query(indirect.call_down, (_rules(cat, opts), c), ("arrives", "not_yet"), "call-down")


def build_counter_battery(cat, opts, **p) -> Query:
    c = indirect.CounterBattery(**p)
    return Query(indirect.counter_battery, (_rules(cat, opts), c), (), "counter-battery fire")


def build_bog(cat, opts, *, vehicle, drive, size, **p) -> Query:
    wide = False
    if vehicle:
        t = target_of(cat, vehicle)
        size = t.size
        d = getattr(t.record, "drive", None)
        drive = bog.SOFTSKIN_DRIVE.get(d, drive) if d else drive
        wide = any(w in t.name.casefold() for w in bog.WIDE_TRACKS)
    c = bog.Crossing(drive, size, wide_tracks=wide or p.pop("wide_tracks"), **p)
    return Query(bog.bog, (_rules(cat, opts), c), ("moves_on", "bogged"), f"bogging ({drive})")


def build_aa(cat, opts, **p) -> Query:
    a = aa_fire.AAShot(**p)
    return Query(aa_fire.aa_fire, (_rules(cat, opts), a), aa_fire.OUTCOMES, f"AA fire ({a.weapon})")


def build_mine(cat, opts, **p) -> Query:
    c = mine.Crossing(**p)
    order = ("no_trip", "no_effect", "immobilised", "destroyed")
    return Query(mine.mine, (_rules(cat, opts), c), order, f"{c.density} {c.mine} minefield")


def build_break_pin(cat, opts, **p) -> Query:
    t = morale.Test(**p)
    return Query(
        morale.break_pin,
        (_rules(cat, opts), t),
        ("acts", "pinned_shaken", "pinned_retreat"),
        f"breaking a pin ({t.rating})",
    )


def build_bocage(cat, opts, *, culin_cutter) -> Query:
    return Query(
        works.bocage_breach, (_rules(cat, opts), culin_cutter), ("breached", "held"), "bocage"
    )


def build_aboard(cat, opts, **p) -> Query:
    a = passengers.Aboard(**p)
    what = a.infantry_row if a.infantry_row != "none" else f"{a.calibre_mm:g} mm {a.ammo}"
    return Query(
        passengers.aboard,
        (_rules(cat, opts), a),
        ("killed", "survives"),
        f"one base aboard a vehicle destroyed by {what}",
    )


def build_flame(cat, opts, **p) -> Query:
    f = flame.FlameAttack(**p)
    return Query(
        flame.flame,
        (_rules(cat, opts), f),
        ("no_effect", "immobilised", "destroyed"),
        f"flame ({f.weapon}) at an AFV",
    )


def build_air(cat, opts, **p) -> Query:
    a = aircraft.AirAttack(**p)
    return Query(
        aircraft.air_attack, (_rules(cat, opts), a), ("hit", "missed"), f"air attack ({a.weapon})"
    )


def build_weather(cat, opts, *, sphere, season) -> Query:
    return Query(
        weather.weather, (_rules(cat, opts), sphere, season), (), f"weather, {sphere} {season}"
    )


def build_wind(cat, opts, *, exposed) -> Query:
    return Query(
        weather.wind, (_rules(cat, opts), exposed), ("none", "light", "moderate", "gale"), "wind"
    )


def build_drop(cat, opts, *, wind, item) -> Query:
    return Query(
        airborne.drop_loss, (_rules(cat, opts), wind, item), ("lands", "lost"), f"drop, {wind} wind"
    )


def build_glider(cat, opts) -> Query:
    return Query(airborne.glider_landing, (_rules(cat, opts),), (), "glider landing")


def build_canister(cat, opts, *, firer_moving, cover) -> Query:
    return Query(
        flame.canister,
        (_rules(cat, opts), firer_moving, cover),
        ("destroyed", "survives"),
        "canister on one base",
    )


AT_COMMON = (
    Param(
        "target",
        str,
        required=True,
        help="target AFV, softskin or gun (name or id)",
        example="usa_europe/m4",
    ),
    Param(
        "range",
        float,
        required=True,
        help="range in cm",
        example=5,
        **CM_BOUND,
    ),
    Param("aspect", str, "front", "target facing hit", ("front", "side", "rear")),
    CLASS,
    Param("target_moving", str, "none", "target movement relative to the line of fire", MOVING),
    Param(
        "cover",
        str,
        "none",
        "hard cover 33-66% (partial) or hull-down/>66%",
        ("none", "partial", "hull_down"),
    ),
    flag("hull_down", "target hull-down (same as --cover hull_down)"),
    flag("just_sighted", "target just came into sight"),
    flag("seen_under_half", "target seen less than half the turn"),
    flag("lower_hidden", "only tracks and lower hull hidden (re-roll 1-2)"),
    Param("covered", str, None, "locations under skirts/sandbags, e.g. turret,upper_hull"),
    Param("prior", str, "none", "the target's earlier effect (results accumulate)", PRIOR),
    WEATHER,
)
TEAMS = "teams as name[:count],..., e.g. rifle-team:3,lmg-team-belt"

ACTIONS = {
    a.name: a
    for a in [
        Action(
            "at-fire",
            "anti-tank direct fire: to-hit on 3D6, location, penetration, effects (pp. 28-31)",
            (
                Param(
                    "firer",
                    str,
                    required=True,
                    help="firing gun, AFV or motorised gun",
                    example="Tiger",
                ),
                *AT_COMMON,
                Param("ammo", str, "AP", "round fired", AMMO),
                flag("firer_moved", "firer moved over 5 cm"),
                Param(
                    "shots_before",
                    int,
                    0,
                    "earlier shots by this firer at this target",
                    min=0,
                    max=10,
                    bound="generous: ten earlier shots at one target",
                ),
                flag("traversed", "turret/gun traversed over half"),
                flag("muzzle_flash", "firing at a muzzle flash"),
                flag("commander_killed", "firer's commander killed"),
                flag("bore_sighted", "target in a bore-sighted area"),
            ),
            build_at_fire,
            {
                "firer_kinds": ("gun", "afv", "motorised_gun"),
                "target_kinds": ("afv", "softskin", "motorised_gun", "gun"),
            },
        ),
        Action(
            "infantry-at",
            "infantry AT weapon at a vehicle (pp. 19-21)",
            (
                Param(
                    "weapon",
                    str,
                    required=True,
                    help="AT weapon, e.g. Panzerfaust 30/60",
                    example="common/panzerfaust-30-60",
                ),
                *AT_COMMON,
            ),
            build_infantry_at,
            {
                "firer_kinds": ("infantry_weapon",),
                "target_kinds": ("afv", "softskin", "motorised_gun", "gun"),
            },
        ),
        Action(
            "infantry-fire",
            "infantry small-arms fire: teams lost (pp. 13-17)",
            (
                Param("teams", str, required=True, help=TEAMS, example="rifle-team:3"),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in cm",
                    example=30,
                    **CM_BOUND,
                ),
                Param(
                    "cover",
                    str,
                    "none",
                    "target's cover",
                    ("none", "soft", "hard", "fortification"),
                ),
                TEAM_MOVING,
                flag("prone", "target prone"),
                flag("in_softskin", "target aboard a softskin"),
                flag("firer_moved", "firer moved up to half"),
                flag("under_covering_fire", "firer under covering fire"),
                CLASS,
                flag("speculative", "speculative or covering fire"),
                flag("muzzle_flash", "firing at a muzzle flash"),
                Param(
                    "extra_barrels",
                    int,
                    0,
                    "extra coaxial barrels",
                    min=0,
                    max=3,
                    bound="a quadruple mount has three extra barrels",
                ),
                Param(
                    "crew_lost",
                    int,
                    0,
                    "teams lost by a multi-team crew",
                    **TEAMS_BOUND,
                ),
                flag("one_man_turret", "AFV with a one-man turret"),
                WEATHER,
                Param(
                    "squads",
                    int,
                    1,
                    "squads fired on together (losses spread evenly)",
                    **{**SUBUNITS_BOUND, "min": 1},
                ),
                Param(
                    "shield",
                    str,
                    "none",
                    "target is a gun crew behind a towed or motorised gun's shield",
                    ("none", "towed", "motorised"),
                ),
            ),
            build_infantry_fire,
            {"firer_kinds": ("infantry_team",)},
        ),
        Action(
            "crew-fire",
            "small arms at an AFV's crew (p17): crew lost, commander killed, bail-out",
            (
                Param("teams", str, required=True, help=TEAMS, example="lmg-team-belt:3"),
                Param("range", float, required=True, help="range in cm", example=20, **CM_BOUND),
                Param("target", str, required=True, help="the AFV fired on", example="ussr/su-76"),
                Param("arc", str, "front", "the hull's arc the firer stands in", ARCS),
                flag("from_above", "fired on from above, e.g. a building's upper floor (P343)"),
                flag("closed_down", "the AFV is closed down"),
                TEAM_MOVING,
                flag("firer_moved", "firer moved up to half"),
                CLASS,
                WEATHER,
            ),
            build_crew_fire,
            {"firer_kinds": ("infantry_team",), "target_kinds": ("afv",)},
        ),
        Action(
            "passenger-fire",
            "small arms at the teams riding an AFV (p16-17, P349): teams lost",
            (
                Param("teams", str, required=True, help=TEAMS, example="lmg-team-belt:3"),
                Param("range", float, required=True, help="range in cm", example=20, **CM_BOUND),
                Param(
                    "target",
                    str,
                    required=True,
                    help="the AFV they ride",
                    example="ussr/t-34-76-m1943",
                ),
                Param("arc", str, "front", "the hull's arc the firer stands in", ARCS),
                flag("from_above", "fired on from above, e.g. a building's upper floor (P343)"),
                Param("riding", int, 1, "teams aboard", **{**TEAMS_BOUND, "min": 1}),
                TEAM_MOVING,
                flag("firer_moved", "firer moved up to half"),
                CLASS,
                WEATHER,
            ),
            build_passenger_fire,
            {"firer_kinds": ("infantry_team",), "target_kinds": ("afv",)},
        ),
        Action(
            "cqc",
            "close quarter combat: losses each side inflicts (pp. 17-19)",
            (
                Param("attackers", str, required=True, help=TEAMS, example="rifle-team:3"),
                Param("defenders", str, required=True, help=TEAMS, example="rifle-team:2"),
                Param("attacker_class", str, "regular", "attacker's class", CLASSES),
                Param("defender_class", str, "regular", "defender's class", CLASSES),
                Param(
                    "defender_cover",
                    str,
                    "none",
                    "defender's cover",
                    ("none", "soft", "hard", "fortification"),
                ),
                flag("attacker_charged", "attacker charged in this turn"),
                flag("from_rear", "attacking wholly from the enemy's rear"),
                flag("attacker_pinned", "attacker pinned or in smoke"),
                flag("defender_pinned", "defender pinned or in smoke"),
                flag("engineer", "attackers are engineers"),
                flag("defender_disengaging", "defender disengaging"),
                Param(
                    "attacker_moved",
                    str,
                    "none",
                    "attacker's move into CQC (option cqc_moved_mods)",
                    ("none", "half", "over_half"),
                ),
                WEATHER,
            ),
            build_cqc,
            {"firer_kinds": ("infantry_team",)},
        ),
        Action(
            "morale",
            "a morale test (pp. 23-24)",
            (
                Param("rating", str, "reliable", "morale rating", ("elite", "reliable", "poor")),
                Param(
                    "teams_lost",
                    int,
                    0,
                    "teams lost (squad/section/crew tests)",
                    **TEAMS_BOUND,
                ),
                Param(
                    "subunits_shaken",
                    int,
                    0,
                    "direct sub-units shaken",
                    **SUBUNITS_BOUND,
                ),
                Param(
                    "subunits_lost",
                    int,
                    0,
                    "direct sub-units disabled, destroyed or retreating",
                    **SUBUNITS_BOUND,
                ),
                flag("afv", "an AFV unit"),
                flag("commander_killed", "head-up AFV commander killed"),
                flag("afv_damaged", "AFV disabled or damaged"),
                flag("among_buildings", "AFVs among buildings"),
                flag("poor_visibility", "poor visibility or smoke"),
                flag("out_of_radius", "outside command radius"),
                flag("flame_or_air", "under flame or air attack"),
                Param("indirect", str, "none", "under indirect fire", ("none", "guns", "mortars")),
                flag("pinned_or_lost_cqc", "pinned or lost CQC this move"),
                flag("afv_no_at", "infantry with an enemy AFV within 20 cm, no AT"),
                flag("hq_lost", "own HQ destroyed or retreating"),
                flag("hill_or_woods", "defending a hill or woods"),
                flag("dug_in", "dug in or in buildings"),
                flag("pillbox", "in a pillbox or bunker"),
                flag("night", "at night"),
                flag("prisoners_killed", "saw prisoners killed"),
                flag("duration", "also roll the Shaken duration"),
            ),
            build_morale,
        ),
        Action("pips", "movement pips of a company (p7)", (CLASS,), build_pips),
        Action(
            "break-pin",
            "a unit pinned by covering fire tests to move or fire (p17)",
            (
                Param("rating", str, "reliable", "morale rating", RATINGS),
                Param(
                    "teams_lost",
                    int,
                    0,
                    "teams lost (squad/section/crew tests)",
                    **TEAMS_BOUND,
                ),
                flag("night", "at night"),
            ),
            build_break_pin,
        ),
        Action(
            "bocage",
            "a fully tracked size C/D AFV forces bocage (p26)",
            (flag("culin_cutter", "fitted with a Cullin hedgerow cutter"),),
            build_bocage,
        ),
        Action(
            "observe",
            "does an observer see a target (pp. 8-11)",
            (
                Param(
                    "distance",
                    float,
                    required=True,
                    help="distance in cm",
                    example=100,
                    **CM_BOUND,
                ),
                Param("target", str, None, "a target from the charts (sets its size)"),
                Param("size", str, "C", "target size", ("A", "B", "C", "D")),
                Param(
                    "terrain",
                    str,
                    "open_desert",
                    "terrain the target is in or behind",
                    observe.TERRAIN,
                ),
                Param("dlos", bool, True, "direct line of sight"),
                Param("in_arc", bool, True, "target inside the arc of vision"),
                flag("camouflaged_or_prone", "target camouflaged or prone"),
                flag("dug_in_or_hull_down", "target dug in or hull-down"),
                flag("observer_closed_down", "observer a closed-down AFV"),
                flag("observer_moved", "observer moved over 5 cm"),
                flag("target_moved_or_fired", "target moved or fired this turn"),
                flag("observer_high", "observer 3+ floors up"),
                flag("through_battery_bz", "line of sight through a battery's BZ"),
                Param("weather", str, "clear", "visibility", tuple(observe.WEATHER)),
                flag("night", "at night"),
                Param("season", str, "summer", "season", ("spring", "summer", "autumn", "winter")),
            ),
            build_observe,
            {"target_kinds": ("afv", "softskin", "motorised_gun", "gun")},
        ),
        Action(
            "flash",
            "is a firer revealed by its muzzle flash (p9)",
            (
                Param(
                    "distance",
                    float,
                    required=True,
                    help="observer to firer, cm",
                    example=100,
                    **CM_BOUND,
                ),
                Param(
                    "weapon",
                    str,
                    "gun",
                    "what fired",
                    (
                        "infantry_weapons",
                        "bazooka_panzerfaust_panzerschreck",
                        "piat",
                        "gun",
                        "mortar",
                    ),
                ),
                Param(
                    "calibre_mm",
                    float,
                    None,
                    "gun or mortar calibre",
                    example=75,
                    **CALIBRE_BOUND,
                ),
                flag("observer_closed_down", "observer closed down"),
                flag("observer_moving", "observer moving over 5 cm"),
                flag("camouflaged", "firer camouflaged"),
                flag("night", "at night"),
            ),
            build_flash,
        ),
        Action(
            "area-fire",
            "direct area (HE) fire on one soft target in the beaten zone (pp. 31-33)",
            (
                Param(
                    "firer",
                    str,
                    required=True,
                    help="firing gun or AFV, or an infantry weapon that fires HE (p19)",
                    example="Tiger",
                ),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range to the point of aim, cm",
                    example=200,
                    **CM_BOUND,
                ),
                Param("target", str, None, "a target from the charts (sets its size)"),
                Param("size", str, "A", "target size", ("A", "B", "C", "D")),
                CLASS,
                Param("cover", str, "none", "target's cover", tuple(["none", *area_fire.COVER])),
                flag("target_moving", "target moving"),
                flag("observed_under_half", "target observed half a turn or less"),
                flag("speculative", "speculative fire"),
                Param(
                    "turns_on_poa",
                    int,
                    1,
                    "turns firing at this point of aim",
                    **TURNS_BOUND,
                ),
                flag("firer_moved", "firer moved over 5 cm"),
                flag("smoke", "target in smoke"),
                flag("wp", "firing WP"),
                flag("partly_in", "target only partly inside the zone"),
                flag("shielded", "a gun crew behind its shield (option gun_shield_area)"),
            ),
            build_area_fire,
            {
                "firer_kinds": ("gun", "afv", "motorised_gun", "infantry_weapon"),
                "target_kinds": ("softskin", "gun", "afv"),
            },
        ),
        Action(
            "smoke",
            "direct smoke or WP placed (p33)",
            (
                Param("firer", str, required=True, help="firing gun or AFV", example="Tiger"),
                Param(
                    "range",
                    float,
                    required=True,
                    help="range in cm",
                    example=200,
                    **CM_BOUND,
                ),
                CLASS,
                Param(
                    "turns_on_poa",
                    int,
                    1,
                    "turns on this point of aim",
                    **TURNS_BOUND,
                ),
                flag("firer_moved", "firer moved over 5 cm"),
            ),
            build_smoke,
            {"firer_kinds": ("gun", "afv")},
        ),
        Action(
            "indirect",
            "one unit in an indirect-fire beaten zone (pp. 35-37)",
            (
                Param(
                    "kind",
                    str,
                    "infantry",
                    "unit in the zone",
                    ("infantry", "gun", "softskin", "afv", "open_afv"),
                ),
                Param(
                    "calibre_mm",
                    float,
                    105,
                    "calibre of the guns or mortars",
                    **CALIBRE_BOUND,
                ),
                Param(
                    "pairs",
                    int,
                    1,
                    "gun pairs (or mortars) on the point of aim",
                    **PAIRS_BOUND,
                ),
                flag("mortar", "mortar fire"),
                flag("first_mortar_turn", "mortar's first turn on the target"),
                flag("partial", "in the zone part of the move or partly outside"),
                Param(
                    "protection", str, "none", "cover", ("none", "soft", "entrenched", "pillbox")
                ),
                flag("rocket", "rocket fire (base 6)"),
                flag("german_heavy_rocket", "German 15/21/30 cm rockets (base 7)"),
            ),
            build_indirect,
        ),
        Action(
            "call-down",
            "artillery call-down in phase E (p36)",
            (
                Param("caller", str, "fao", "who calls", ("fao", "company_commander")),
                Param(
                    "skill",
                    str,
                    "vet_reg",
                    "US, veteran/regular or conscript",
                    ("us", "vet_reg", "conscript"),
                ),
                flag("near_previous", "within 20 cm of the previous successful POA"),
            ),
            build_call_down,
        ),
        Action(
            "counter-battery",
            "counter-battery fire (p37)",
            (
                Param(
                    "moves_seen",
                    int,
                    1,
                    "moves the listening post saw the battery fire",
                    min=1,
                    max=10,
                    bound="generous: ten moves watched",
                ),
                Param(
                    "moves_silent",
                    int,
                    0,
                    "moves silent since",
                    min=0,
                    max=10,
                    bound="generous: ten silent moves",
                ),
                flag("rocket", "target is a rocket battery"),
                flag("mobile_rocket", "mobile rocket launchers"),
                Param(
                    "pairs",
                    int,
                    1,
                    "CBF gun pairs",
                    **PAIRS_BOUND,
                ),
                Param(
                    "calibre_threshold",
                    int,
                    5,
                    "1D6 needed per pair (bands lost)",
                    min=1,
                    max=6,
                    bound="a score on one D6",
                ),
            ),
            build_counter_battery,
        ),
        Action(
            "bog",
            "does a vehicle bog in mud, sand, ford or marsh (p25)",
            (
                Param("vehicle", str, None, "a vehicle from the charts (sets drive and size)"),
                Param("drive", str, "fully_tracked", "drive", bog.DRIVES),
                Param("size", str, "C", "vehicle size", ("A", "B", "C", "D")),
                flag("marsh", "marsh"),
                flag("amphibious", "amphibious vehicle"),
                flag("fordable_river", "a fordable river"),
                flag("wide_tracks", "T-34/KV/IS/Panther/Tiger chassis"),
            ),
            build_bog,
            {"target_kinds": ("afv", "softskin")},
        ),
        Action(
            "aa-fire",
            "AA fire at an aircraft (p43)",
            (
                Param("weapon", str, "aa_hmg", "AA weapon row", aa_fire.WEAPONS),
                Param("altitude", str, "low", "aircraft altitude", ("low", "medium")),
                Param("barrels", int, 1, "barrels", min=1, max=4, bound="a quadruple mount"),
                flag("dive_bomber", "target is a dive-bomber"),
                flag("armoured", "armoured aircraft"),
                Param(
                    "range",
                    float,
                    0.0,
                    "range to the aircraft's POA, cm",
                    **CM_BOUND,
                ),
            ),
            build_aa,
        ),
        Action(
            "mine",
            "one base or vehicle crossing one mined square (p38)",
            (
                Param("density", str, "medium", "minefield density", mine.DENSITIES),
                Param("mine", str, "at", "AP or AT mines", ("ap", "at")),
                Param(
                    "target",
                    str,
                    "medium_afv",
                    "what crosses",
                    ("infantry", "softskin", "light_afv", "medium_afv", "heavy_afv"),
                ),
                flag("in_burst", "within 3 cm of a base that tripped an AP mine"),
            ),
            build_mine,
        ),
        Action(
            "passenger",
            "a crew or passenger base of a vehicle destroyed by AT fire (p30)",
            (
                Param(
                    "calibre_mm",
                    float,
                    75.0,
                    "calibre of the gun that fired",
                    **CALIBRE_BOUND,
                ),
                Param(
                    "infantry_row",
                    str,
                    "none",
                    "or the infantry weapon that fired",
                    ("none", "panzerfaust_panzerschreck", "piat_bazooka", "grenades"),
                ),
                Param("ammo", str, "AP", "round fired", AMMO),
                flag("afv", "passengers of an AFV"),
            ),
            build_aboard,
        ),
        Action(
            "flame",
            "flamethrower or Molotov at an AFV (p21)",
            (
                Param("weapon", str, "man_pack", "flame weapon", tuple(flame.RANGE)),
                Param(
                    "range",
                    float,
                    5.0,
                    "range in cm",
                    **CM_BOUND,
                ),
                flag("open_topped", "open-topped AFV"),
                flag("light_tank", "a light tank"),
                flag("flamed_before", "flamed before"),
            ),
            build_flame,
        ),
        Action(
            "air-attack",
            "aircraft bombs, rockets or MMGs on one target (p43)",
            (
                Param("weapon", str, "bombs", "weapon", ("bombs", "rockets_4", "rockets_8", "mmg")),
                flag("dive_bomber", "a dive-bomber"),
                flag("medium_altitude", "bombing from medium altitude"),
                Param("cover", str, "none", "target's cover", ("none", "hard", "protected")),
                flag("partial", "part of the turn in the zone"),
                Param(
                    "extra_guns",
                    int,
                    0,
                    "extra guns of the calibre",
                    min=0,
                    max=12,
                    bound="generous: twelve guns of one calibre",
                ),
            ),
            build_air,
        ),
        Action(
            "canister",
            "canister on one base or softskin (p31)",
            (
                flag("firer_moving", "firer moving"),
                Param("cover", str, "none", "target's cover", ("none", "prone", "soft", "hard")),
            ),
            build_canister,
        ),
        Action(
            "weather",
            "the day's weather (p10)",
            (
                Param("sphere", str, "ne", "theatre", weather.SPHERES),
                Param("season", str, "summer", "season", ("spring", "summer", "autumn", "winter")),
            ),
            build_weather,
        ),
        Action(
            "wind",
            "wind strength (p10)",
            (flag("exposed", "winter, desert, coast or steppe (+1)"),),
            build_wind,
        ),
        Action(
            "drop",
            "off-board airborne drop loss of one item (p41)",
            (
                Param("wind", str, "none", "wind", tuple(airborne.LOSS)),
                Param("item", str, "teams", "what is dropped", airborne.ITEMS),
            ),
            build_drop,
        ),
        Action("glider", "glider landing (p42)", (), build_glider),
    ]
}
