"""Weather, season, wind and night (pp. 9-11): season 1D6, the 2D6 Weather Determination Table
by sphere and season, wind strength and direction, and each condition's effects."""

from __future__ import annotations

from fractions import Fraction

from ....chance import Lookup, Modifier, Note, Outcome, Roll
from ....data.errors import RuleError
from .tables import Rules

SEASONS = {1: "spring", 2: "spring", 3: "summer", 4: "summer", 5: "autumn", 6: "winter"}
SPHERES = ("ne", "med", "nr", "tropical", "desert")
CODES = {  # the weather table's letter codes (p10), alphabetical
    "C": "clear",
    "F": "fog",
    "M": "mud",
    "Mi": "mist",
    "O": "overcast",
    "R": "rain",
    "S": "snow",
    "Sf": "snow_falling",
}
VISIBILITY = {
    "mist": Fraction(1, 2),
    "snow_falling": Fraction(1, 3),
    "fog": Fraction(1, 4),
    "rain": Fraction(1, 2),
}


def season(rules: Rules):
    face = yield Roll("1d6", "season", "p10")
    yield Lookup("season", face, SEASONS[face], "p10")
    return Outcome(SEASONS[face])


def weather(rules: Rules, sphere: str, season_name: str):
    """The day's weather: a combination of codes (p10). Desert is always clear."""
    if sphere not in SPHERES:
        raise RuleError(f"sphere {sphere!r}: expected one of {', '.join(SPHERES)}")
    if sphere == "desert":
        yield Note("the desert is always clear", "p10")
        return Outcome("clear")
    col = "tropical" if sphere == "tropical" else f"{sphere}_{season_name}"
    roll = yield Roll("2d6", "weather", "p10")
    cell, _ = rules.cell("weather-determination-table", str(roll), col)
    names = "+".join(CODES[c.strip()] for c in str(cell).split(","))
    yield Lookup("Weather Determination", f"{roll}, {col}", names, "p10")
    return Outcome(names)


def wind(rules: Rules, exposed: bool = False):
    """Wind strength 1D6 (+1 winter, desert, coast or steppe): 1 none, 2-3 light, 4-5
    moderate, 6+ gale (p10)."""
    face = yield Roll("1d6", "wind strength", "p10")
    value = face + (1 if exposed else 0)
    if exposed:
        yield Modifier("winter/desert/coast/steppe", 1, "p10")
    name = "none" if value <= 1 else "light" if value <= 3 else "moderate" if value <= 5 else "gale"
    yield Lookup("wind", value, name, "p10")
    return Outcome(name)


def wind_direction(rules: Rules):
    face = yield Roll("1d6", "wind direction", "p10", reroll=frozenset({5, 6}))
    return Outcome({1: "N", 2: "E", 3: "S", 4: "W"}[face])


def night(rules: Rules, season_name: str = "summer", desert: bool = False):
    """Night visibility: 1D6 (-1 summer, +1 winter) 0-2 -> 1/10, 3-7 -> 1/20 (p11)."""
    if desert:
        return Outcome("tenth")
    shift = {"summer": -1, "winter": 1}.get(season_name, 0)
    face = yield Roll("1d6", "darkness", "p11")
    return Outcome("tenth" if face + shift <= 2 else "twentieth")


def effects(condition: str) -> dict[str, object]:
    """What a weather condition does (p10-11) to sight, movement, fire and aircraft."""
    e: dict[str, object] = {"visibility": VISIBILITY.get(condition, Fraction(1))}
    if condition in ("rain", "snow_falling"):
        e.update(direct_fire=-1, casualty_rows=-1, turns="2D6")
    if condition in ("mist", "fog"):
        e["turns"] = "2D6"
    if condition == "mud":
        e.update(cross_country="bog", charge=False)
    if condition in ("snow", "snow_falling"):
        e.update(tracked_speed=Fraction(1, 2), wheeled_cross_country=False, charge=False)
    e["aircraft"] = condition not in ("overcast", "fog", "rain", "snow_falling")
    if condition == "night":
        e.update(direct_fire=-3, casualty_rows=-3, morale=-3, flash=2, vehicle_max_cm=12)
    return e
