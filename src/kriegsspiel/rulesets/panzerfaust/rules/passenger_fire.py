"""Small arms at the passengers riding an AFV (p16-17, p28; decisions P349-P350): the teams
aboard are fired on by the Infantry Fire procedure (p15-16) as one target, in the cover their
vehicle gives them.

- Inside an armoured personnel carrier (chart APC/recon, p27): hard cover (p16 lists armoured
  APCs among hard cover), less where the record is open: the p17 table of the crew's cover by
  the firer's arc and from above (`crew_fire.crew_cover`), since the passengers sit in the
  same open compartment. A record whose notes give its passengers another cover (the Soviet
  Komsomolet's open rear seats, p85: none) carries it in `passenger_cover`.
- Tank riders on the outside of any other AFV (p28): soft/partial cover (p16 lists tank riders
  there), from every side.
- A carrier the data calls fully enclosed shields its passengers only under option
  `apc_passengers=open_only` (P349); by default the p16 hard cover applies to every APC.

Casualties beyond the teams aboard are wasted: the result is the number of teams lost, at most
those riding (`passengers_lost_N`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ....chance import Note, Outcome
from .crew_fire import Arc, crew_cover, is_open
from .infantry_fire import Cover, Fire, infantry_fire
from .tables import Rules

RESULT = "passengers_lost_"
P = "p16-17"
TANK_RIDERS: Cover = "soft"  # p16: tank riders are a target in soft/partial cover


def why_safe(open_parts: Iterable[str], inside: bool, open_only: bool) -> str | None:
    """Why small arms cannot reach the passengers, or None: inside an APC the data calls fully
    enclosed, under option `apc_passengers=open_only` (P349)."""
    if inside and open_only and not is_open(open_parts):
        return (
            "its passengers ride inside a fully enclosed carrier: small arms cannot reach them "
            "(option apc_passengers=open_only, P349)"
        )
    return None


def passenger_cover(
    open_parts: Iterable[str],
    arc: Arc,
    from_above: bool = False,
    inside: bool = True,
    noted: Cover | None = None,
) -> Cover:
    """The passengers' cover against small arms from `arc` of the hull (p16-17, P349): what the
    vehicle's notes say (`noted`); tank riders soft (p16); inside a carrier the crew's p17
    cover for the same open parts, arc and fire from above (hard when closed, p16)."""
    if noted is not None:
        return noted
    if not inside:
        return TANK_RIDERS
    return crew_cover(open_parts, arc, from_above)


@dataclass(frozen=True)
class PassengerShot:
    """Small arms fire at the teams riding an AFV: the fire (its `cover` theirs, `aboard`
    set) and how many teams ride."""

    fire: Fire
    riding: int = 1


def passenger_fire(rules: Rules, s: PassengerShot):
    """Infantry Fire at the riders as one target (p15-16): at most the teams aboard are lost."""
    res = yield from infantry_fire(rules, s.fire)
    lost = int(res.name[len("lost_") :])
    if lost > s.riding:
        yield Note(f"{lost} teams' worth of casualties; only {s.riding} ride: all are lost", P)
        lost = s.riding
    elif lost:
        yield Note(f"{lost} of the {s.riding} team(s) aboard lost (the first aboard first)", P)
    return Outcome(f"{RESULT}{lost}")
