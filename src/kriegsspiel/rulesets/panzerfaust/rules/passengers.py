"""Crew and passengers of a vehicle destroyed by direct AT fire (p30): after HE every one aboard
dies; after AP-family fire each crew or passenger base dies on 2D6 <= the AFV/Gun Crew/Passenger
Casualties Table's number for what fired (-1 AFV, -1 APCR/HVAP/APDS, -2 HEAT not fired by an
infantry weapon). An AFV destroyed by AP-family fire loses its crew outright: only its
passengers are diced."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ....chance import Cite, Lookup, Modifier, Note, Outcome, Roll, total
from ....data.errors import RuleError
from . import placeholders as ph
from .tables import Rules

P_CREW = "p30 AFV/Gun Crew/Passenger Casualties Table"
INFANTRY_ROWS = ("panzerfaust_panzerschreck", "piat_bazooka", "grenades")


def gun_row(calibre_mm: float) -> str:
    """The table row of a gun by calibre; the five smaller rows lost their calibres (decision
    P98 reads them as 100-121, 85-99, 70-84, 50-69 mm and under 50 with the grenades)."""
    for mm, row in ph.CREW_ROWS:
        if calibre_mm >= mm:
            return row
    return "smallest_gun_band_and_grenades"


@dataclass(frozen=True)
class Aboard:
    calibre_mm: float | None = 75  # the gun that fired; None with an infantry weapon row
    infantry_row: Literal["none", "panzerfaust_panzerschreck", "piat_bazooka", "grenades"] = "none"
    ammo: Literal["AP", "APCR", "HVAP", "APDS", "HEAT", "HE"] = "AP"
    afv: bool = False  # passengers of an AFV (its crew die with it)


def aboard(rules: Rules, a: Aboard):
    """One crew or passenger base of the destroyed vehicle: killed or survives."""
    if a.ammo == "HE":
        yield Note("destroyed by HE: everyone aboard is a casualty", "p30")
        return Outcome("killed")
    if a.infantry_row != "none":
        row = "smallest_gun_band_and_grenades" if a.infantry_row == "grenades" else a.infantry_row
    elif a.calibre_mm is None:
        raise RuleError("say what fired: a gun calibre or an infantry weapon row (p30)")
    else:
        row = gun_row(a.calibre_mm)
    value, labels = rules.cell(
        "crew-passenger-casualties", row, "kill_on_2d6_or_less", ph.CREW.get(row)
    )
    yield Cite(labels)
    yield Lookup("Crew/Passenger Casualties", row, value, P_CREW)
    mods = []
    if a.afv:
        mods.append(Modifier("target is an AFV", -1, P_CREW))
    if a.ammo in ("APCR", "HVAP", "APDS"):
        mods.append(Modifier(f"firer using {a.ammo}", -1, P_CREW))
    if a.ammo == "HEAT" and a.infantry_row == "none":
        mods.append(Modifier("firer using HEAT", -2, P_CREW))
    yield from mods
    need = int(value) + total(mods)
    roll = yield Roll("2d6", "crew/passenger base", P_CREW, at_most=need)
    return Outcome("killed" if roll <= need else "survives")
