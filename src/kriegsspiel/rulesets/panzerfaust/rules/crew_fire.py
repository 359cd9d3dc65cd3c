"""Small arms at an AFV's crew (p17; decisions P342-P344): the crew is one team, fired on by the
Infantry Fire procedure (p15-16) with a cover that depends on how the AFV is open and where the
fire comes from.

- A fully enclosed AFV closed down cannot be hurt by small arms; with its commander head-up he is
  the target, in hard cover. A team or more lost kills him: the AFV stays closed down for the
  rest of the game with the morale and firing penalties (p23, p28); with a one-man turret the
  others bail out and the AFV counts as destroyed.
- An AFV open at the top: hard cover, none against fire from above (within 45 degrees, e.g. a
  building's second storey or higher).
- Open at the top and rear: hard cover from the front arc, partial from the sides, none from
  the rear. Open at the top, sides and rear: hard from the front, none from sides and rear.

The record's `open` list (`top`, `sides`, `rear`) says how an AFV is open; an AFV open only at
the rear, or at the sides and rear (no roof open), takes the same arcs without the fire from
above (P342). An open AFV's crew lost abandons it (P344, as P308 in close combat)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ....chance import Note, Outcome
from .infantry_fire import Cover, Fire, infantry_fire
from .tables import Rules

Arc = Literal["front", "side", "rear"]
P = "p17"


def is_open(open_parts: Iterable[str]) -> bool:
    """Whether the AFV has an open top, sides or rear (p17: its crew is always exposed)."""
    return bool(set(open_parts) & {"top", "sides", "rear"})


def why_safe(open_parts: Iterable[str], closed_down: bool) -> str | None:
    """Why small arms cannot reach the crew, or None: a fully enclosed AFV buttoned up (p17)."""
    if not is_open(open_parts) and closed_down:
        return "a fully enclosed AFV closed down cannot be hurt by small arms (p17)"
    return None


def crew_cover(open_parts: Iterable[str], arc: Arc, from_above: bool = False) -> Cover:
    """The cover of the crew (or the head-up commander) against small arms from `arc` of the
    hull, `from_above` within 45 degrees (p17; P342 for the records the book's list leaves
    out): hard by default; an open top gives none from above; an open rear none from the rear
    and partial from the sides; open sides none from the sides."""
    parts = set(open_parts)
    if from_above and "top" in parts:
        return "none"
    if arc == "rear" and "rear" in parts:
        return "none"
    if arc == "side" and "sides" in parts:
        return "none"
    if arc == "side" and "rear" in parts:
        return "soft"
    return "hard"


@dataclass(frozen=True)
class CrewShot:
    """Small arms fire at an AFV's crew: the fire (its `cover` the crew's, `afv_crew` set), how
    the AFV is open and whether it has a one-man turret."""

    fire: Fire
    open_parts: tuple[str, ...] = ()
    one_man_turret: bool = False


def outcome(s: CrewShot, lost: int) -> tuple[str, str]:
    """(result, explanation) of `lost` teams' worth of casualties on the crew (p17, P344)."""
    if lost <= 0:
        return "lost_0", "the crew is unhurt"
    if is_open(s.open_parts):
        return "crew_lost", "the crew (one team) is lost: the AFV is abandoned (P344)"
    if s.one_man_turret:
        return "bailed_out", (
            "the head-up commander is killed; with a one-man turret the crew bails out and the "
            "AFV counts as destroyed"
        )
    return "commander_killed", (
        "the head-up commander is killed: the AFV is closed down for the rest of the game, "
        "with the morale and firing penalties (p23, p28)"
    )


def crew_fire(rules: Rules, s: CrewShot):
    """Small arms at the crew: Infantry Fire at one team (p15-16), read by `outcome` (p17)."""
    res = yield from infantry_fire(rules, s.fire)
    name, why = outcome(s, int(res.name[len("lost_") :]))
    yield Note(why, P)
    return Outcome(name)
