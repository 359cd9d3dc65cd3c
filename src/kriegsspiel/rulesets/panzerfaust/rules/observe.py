"""Observation (p8), muzzle flashes and camouflage (p9), weather and night visibility (pp. 10-11).

The base range comes from the Observation Table (lost: placeholder P83 unless an overlay fills
it) by the terrain the target is in or behind and its size A-D, then every multiplier applies.
At night the darkness roll (1D6, -1 summer, +1 winter) sets 1/10 or 1/20 (p11)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ....chance import Cite, Lookup, Note, Outcome, Roll
from ....data.errors import RuleError
from . import placeholders as ph
from .tables import Rules

P_OBS = "p8 observation"
TERRAIN = tuple(ph.OBSERVATION)
SIZES = ("A", "B", "C", "D")
WEATHER = {
    "clear": 1,
    "mist": Fraction(1, 2),
    "rain": Fraction(1, 2),
    "snow_falling": Fraction(1, 3),
    "fog": Fraction(1, 4),
}
DEPTH_LIMIT = {"thick_woods": 5, "thin_woods": 10, "orchard": 15}  # cm an observer may be inside


@dataclass(frozen=True)
class Sight:
    distance: float
    terrain: str = "open_desert"
    size: str = "C"
    dlos: bool = True
    in_arc: bool = True
    camouflaged_or_prone: bool = False
    dug_in_or_hull_down: bool = False
    observer_closed_down: bool = False
    observer_moved: bool = False  # over 5 cm
    target_moved_or_fired: bool = False
    observer_high: bool = False  # 3+ floors up or the like
    through_battery_bz: bool = False
    weather: str = "clear"
    night: bool = False
    season: Literal["spring", "summer", "autumn", "winter"] = "summer"
    desert: bool = False
    observer_depth: float = 0.0  # how deep the observer is inside woods/orchard (cm)
    observer_terrain: str = "open_desert"
    target_depth: float = 0.0  # how deep the target is inside woods or an orchard (cm)


def base_range(rules: Rules, terrain: str, size: str) -> tuple[int, tuple[str, ...]]:
    if terrain not in ph.OBSERVATION:
        raise RuleError(f"terrain {terrain!r}: expected one of {', '.join(TERRAIN)}")
    if size not in SIZES:
        raise RuleError(f"target size {size!r}: expected A, B, C or D")
    fallback = ph.OBSERVATION[terrain][SIZES.index(size)]
    value, labels = rules.cell("observation-table", terrain, f"size_{size.lower()}", fallback)
    return int(value), labels


def multipliers(rules: Rules, s: Sight) -> list[tuple[str, Fraction]]:
    m: list[tuple[str, Fraction]] = []
    if s.camouflaged_or_prone:
        m.append(("target camouflaged or prone", Fraction(1, 2)))
    if s.dug_in_or_hull_down:
        m.append(("target dug in or hull-down", Fraction(1, 2)))
    if s.observer_closed_down:
        m.append(("observer closed down", Fraction(1, 2)))
    if s.observer_moved:
        m.append(("observer moved over 5 cm", Fraction(2, 3)))
    if s.target_moved_or_fired:
        m.append(("target moved or fired", Fraction(2)))
    if s.observer_high:
        m.append(("observer 3+ floors up", Fraction(3, 2)))
    if s.through_battery_bz:
        m.append(("through a 4+ gun battery's beaten zone", Fraction(1, 2)))
    if s.weather not in WEATHER:
        raise RuleError(f"weather {s.weather!r}: expected one of {', '.join(WEATHER)}")
    if s.weather != "clear":
        m.append((s.weather.replace("_", " "), Fraction(WEATHER[s.weather])))
    return m


def _blocked(rules: Rules, s: Sight) -> str | None:
    """Why the target cannot be seen at any range (p8, p9; Q&A 8 under decision P78)."""
    if not s.dlos:
        return "no direct line of sight"
    if not s.in_arc:
        return "target outside the observer's arc of vision (p9)"
    limits = dict(DEPTH_LIMIT)
    if rules.opts.qa8_woods == "thin":  # P78: Q&A 8's answer read for the thin wood it asks about
        limits["thin_woods"] = 5
    limit = limits.get(s.observer_terrain)
    if limit is not None and s.observer_depth > limit:
        return f"observer is {s.observer_depth:g} cm inside {s.observer_terrain} (limit {limit})"
    deep = DEPTH_LIMIT.get(s.terrain)
    if deep is not None and s.target_depth > deep and s.observer_terrain != s.terrain:
        return f"target deeper than {deep} cm in {s.terrain} cannot be seen from outside"
    return None


def observe(rules: Rules, s: Sight):
    """Is the target observed? Outcome observed / unseen, with the range worked out."""
    why = _blocked(rules, s)
    if why:
        yield Note(why, P_OBS)
        return Outcome("unseen")
    base, labels = base_range(rules, s.terrain, s.size)
    yield Cite(labels)
    yield Lookup("Observation Table", f"{s.terrain}, size {s.size}", f"{base} cm", P_OBS)
    reach = Fraction(base)
    for name, f in multipliers(rules, s):
        reach *= f
        yield Note(f"x{f} {name}", P_OBS)
    if s.night:
        if s.desert:
            dark = Fraction(1, 10)
            yield Note("night in the desert: visibility x1/10", "p11")
        else:
            shift = {"summer": -1, "winter": 1}.get(s.season, 0)
            roll = yield Roll("1d6", "darkness", "p11")
            dark = Fraction(1, 10) if roll + shift <= 2 else Fraction(1, 20)
            yield Note(f"darkness {roll}{shift:+d}: visibility x{dark}", "p11")
        reach *= dark
    seen = s.distance <= reach
    yield Note(f"{s.distance:g} cm {'<=' if seen else '>'} {float(reach):.1f} cm", P_OBS)
    return Outcome("observed" if seen else "unseen", (("range_cm", float(reach)),))


FLASH_ROWS = tuple(ph.MUZZLE_FLASH)


def flash_row(weapon: str, calibre_mm: float | None) -> str:
    if weapon == "piat":
        return "piat"
    if weapon in ("infantry_weapons", "bazooka_panzerfaust_panzerschreck"):
        return weapon
    if calibre_mm is None:
        raise RuleError("a gun's muzzle flash needs its calibre")
    for limit, row in ((47, "guns_to_47mm"), (82, "guns_to_82mm"), (122, "guns_to_122mm")):
        if calibre_mm <= limit:
            return row
    return "guns_over_122mm"


@dataclass(frozen=True)
class Flash:
    distance: float
    weapon: str = (
        "gun"  # infantry_weapons | bazooka_panzerfaust_panzerschreck | piat | gun | mortar
    )
    calibre_mm: float | None = None
    observer_closed_down: bool = False
    observer_moving: bool = False
    camouflaged: bool = False
    night: bool = False


def muzzle_flash(rules: Rules, f: Flash):
    """Does firing reveal the firer? exact (position and calibre), general (terrain feature
    only) or none (p9). Terrain and concealment are ignored."""
    row = flash_row(f.weapon if f.weapon not in ("gun", "mortar") else "", f.calibre_mm)
    if row == "piat":
        yield Note("a PIAT shows no flash", "p9")
        return Outcome("none")
    fb = ph.MUZZLE_FLASH[row]
    exact_cm, la = rules.cell("muzzle-flash-observation-ranges", row, "exact_cm", fb[0])
    general_cm, lb = rules.cell("muzzle-flash-observation-ranges", row, "general_cm", fb[1])
    yield Cite(la + lb)
    k = Fraction(1)
    if f.observer_closed_down:
        k /= 2
    if f.observer_moving:
        k /= 2
    if f.weapon == "mortar":
        k *= Fraction(1, 3) if rules.opts.mortar_flash == "third" else Fraction(1, 4)
        yield Note(
            f"mortar flash x{Fraction(1, 3) if rules.opts.mortar_flash == 'third' else Fraction(1, 4)} (decision P70)",
            "p9/p36",
        )
    if f.camouflaged:
        k /= 2
    if f.night:
        k *= 2
    ex, ge = exact_cm * k, general_cm * k
    yield Lookup(
        "Muzzle-flash ranges", row, f"exact {float(ex):.1f} cm, general {float(ge):.1f} cm", "p9"
    )
    if f.distance <= ex:
        return Outcome("exact")
    return Outcome("general" if f.distance <= ge else "none")


CAMOUFLAGE = {  # size: (team-moves, minimum turns, forbidden terrain) p9
    "A": (3, 1, ("buildings",)),
    "B": (6, 2, ("buildings", "open")),
    "C": (12, 4, ("buildings", "open", "low_brush")),
    "D": (18, 6, ("buildings", "open", "low_brush", "hedges_walls", "thin_treeline")),
}


def camouflage(size: str, terrain: str, dug_in: bool = False) -> tuple[int, int]:
    """(team-moves, minimum turns) to camouflage a position (p9; example: size A 3, 1)."""
    moves, turns, forbidden = CAMOUFLAGE[size]
    if terrain in forbidden and not (terrain == "open" and size != "A" and dug_in):
        raise RuleError(f"size {size} cannot be camouflaged in {terrain} (p9)")
    return moves, turns


ARC = {"building": 120, "infantry": 180, "vehicle": 180, "unbuttoned_afv": 180, "closed_afv": 60}


def arc_of_vision(kind: str) -> int:
    """Arc of vision in degrees, centred on the front edge (p9)."""
    return ARC[kind]


def stays_spotted(left_dlos: bool, changed_terrain: bool) -> bool:
    """A target once observed stays observed by that observer until it leaves the observer's
    line of sight or moves into another terrain feature (p8)."""
    return not (left_dlos or changed_terrain)
